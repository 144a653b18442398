/**
 * Requests read from the user's own words before the general reader: the tools' own readers
 * (tools/table.ts: a sensor added by its MQTT topic in sensor-topic.ts, notification routing in
 * notification-phrasing.ts, …) and questions about the sun at home (sun-question.ts) and about a sensor's feed (feed-status.ts). Each answers
 * only a message that is one of its requests; anything else goes on to the general reader.
 */
import type { HouseholdContext } from './context.ts';
import type { Plan } from './plan.ts';
import { answerFeedStatusQuestion } from './feed-status.ts';
import { answerSunQuestion } from './sun-question.ts';
import { TOOL_READERS } from './tools.ts';

export function planDirectIntents(message: string, ctx: HouseholdContext): Plan | undefined {
  for (const read of TOOL_READERS) {
    const plan = read(message, ctx);
    if (plan) return plan;
  }
  return answerSunQuestion(message, ctx) ?? answerFeedStatusQuestion(message, ctx);
}
