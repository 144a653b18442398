/**
 * Requests read from the user's own words before the general reader: a sensor added by its MQTT
 * topic (sensor-topic.ts), notification routing (notification-phrasing.ts) and questions about the
 * sun at home (sun-question.ts). Each answers only a message that is one of its requests; anything
 * else goes on to the general reader.
 */
import type { HouseholdContext } from './context.ts';
import type { Plan } from './plan.ts';
import { planNotificationRouting } from './notification-phrasing.ts';
import { planSensorByTopic } from './sensor-topic.ts';
import { answerSunQuestion } from './sun-question.ts';

export function planDirectIntents(message: string, ctx: HouseholdContext): Plan | undefined {
  return planSensorByTopic(message, ctx) ?? planNotificationRouting(message, ctx) ?? answerSunQuestion(message, ctx);
}
