/**
 * "wait, what did I just ask you to do?", "what did I just say?", "remind me what I asked": a question about the
 * conversation itself, answered from its last turn (what was asked, and what was done), never read as a hesitation
 * or a new request (docs/decisions.md, "Before round Q: words").
 */
import type { HouseholdContext } from './context.ts';

const RECALL =
  /^(?:(?:wait|hang on|hold on|sorry|sorry but|um+|uh+|hmm+|so|ok(?:ay)?|hey)[\s,.!-]+)*(?:what (?:did|was it) i (?:just )?(?:ask|asked|tell|told|say|said|want|wanted)(?: you)?(?: to do| for| to)?(?: again| just now)?|remind me what i (?:just )?(?:asked(?: you)?(?: for| to do)?|said|wanted))[\s?.!]*$/;

/** "what did you just do?", "what have you changed?", "so what did you do there?": a question about what the agent just did. */
const RECALL_DONE =
  /^(?:(?:wait|hang on|hold on|sorry|um+|uh+|hmm+|so|ok(?:ay)?|hey|and)[\s,.!-]+)*what (?:did you (?:just )?(?:do|change)|have you (?:just )?(?:done|changed)|was it you (?:just )?did|exactly did you (?:just )?do)(?: there| then| just now| exactly)?[\s?.!]*$/;

/** What an action did, said in a few words ("watched the laundry door"). */
const DONE: Record<string, string> = {
  'watch.created': 'started watching the',
  'watch.updated': 'changed the watch on the',
  'watch.stood_down': 'stood down the watch on the',
  'sensor.muted': 'muted the',
  'sensor.unmuted': 'unmuted the',
  'boundary.set': 'left alone the',
  'boundary.cleared': 'lifted the boundary on the',
  'house.armed': 'armed the house',
  'house.disarmed': 'disarmed the house',
};

function describeDone(a: { type: string; subject?: string }): string | undefined {
  const done = DONE[a.type];
  if (!done) return undefined;
  return done.endsWith(' the') ? (a.subject ? `${done} ${a.subject.replace(/^the /, '')}` : undefined) : done;
}

/** The answer to a question about what the user last asked; undefined when the message is no such question. */
export function answerRecallQuestion(message: string, ctx: HouseholdContext): string | undefined {
  const text = message
    .trim()
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'");
  if (RECALL_DONE.test(text)) return answerWhatWasDone(ctx);
  if (!RECALL.test(text)) return undefined;
  const last = ctx.conversation?.turns.at(-1);
  if (!last) return "You haven't asked me anything yet in this conversation.";
  const done = last.actions.map(describeDone).filter((d): d is string => Boolean(d));
  return `You asked me: "${last.message}". ${done.length ? `I ${done.join(', and ')}.` : 'I changed nothing for it.'}`;
}

/**
 * "what did you just do?": the changes of the conversation's last turn, said in a few words; a turn that changed
 * nothing says so. A question only: nothing changes (docs/decisions.md, "Before round T: follow-ups").
 */
function answerWhatWasDone(ctx: HouseholdContext): string {
  const last = ctx.conversation?.turns.at(-1);
  if (!last) return "I haven't done anything yet in this conversation.";
  const done = last.actions.map(describeDone).filter((d): d is string => Boolean(d));
  if (!done.length) return `I didn't change anything for your last message ("${last.message}").`;
  return `For "${last.message}", I ${done.join(', and ')}.`;
}
