/**
 * Arming the house (docs/decisions.md, "Arming the house"): "arm the house" keeps every door or
 * contact sensor and camera of the household under one watch until "disarm" stands it down.
 * Owners only: a member key is refused the way it is refused lifting a boundary. The armed watch is
 * an ordinary watch (listed, audited, in the event log, stood down by "stop watching everything"
 * too), told apart by its window, `ARMED_WINDOW`.
 */
import { Type } from '@sinclair/typebox';
import { assertOwner } from '../../../platform/identity/index.ts';
import { SPELLING_FIXES } from '../../../platform/language/index.ts';
import type { HouseholdContext } from '../context.ts';
import type { Plan } from '../plan.ts';
import { OUT_OF_SCOPE_NOUNS } from '../vocabulary.ts';
import { AgentToolError, defineTool } from '../tool-kit.ts';
import { describeWatch } from './fields.ts';

/** The armed watch's window in words: how "disarm" and "is the house armed?" find it. */
export const ARMED_WINDOW = 'armed until disarmed';
/** "Until disarmed": a one-off window with no end in sight. */
const ARMED_UNTIL = '9999-12-31T23:59:59.000Z';
const ARMED_KINDS = new Set(['camera', 'contact']);

/**
 * How long the household is away, said as the reason: "we're all out till 5", "off until about 6pm",
 * "away till tomorrow". Arming has no end, so it changes nothing of the request; the reply says the
 * house stays armed until disarmed (docs/decisions.md, "Round Q: bare hours").
 */
const AWAY_TILL = String.raw`(?:till|til|until) (?:about |around )?(?:\d{1,2}(?:[:.]\d\d)?(?: ?[ap]\.?m\.?)?|tonight|tomorrow|later|this (?:evening|afternoon)|the (?:evening|afternoon|weekend)|[a-z]+day)`;
/**
 * A place outside the home said as where the household goes, up to four words ("the Carnival of Flowers", "my
 * cousin's wedding"): never a word that starts the next part of the reason ("…to Jodhpur for…") or a request of its
 * own, so a reason is read to its end whatever its length (docs/decisions.md, "Round T: arming").
 */
const PLACE_WORD = String.raw`(?!(?:to|from|for|on|with|till|til|until|now|tonight|again|and|but|then|arm|disarm|watch|keep|stop)\b)[a-z'\u00c0-\u024f]+`;
const PLACE_NAME = String.raw`${PLACE_WORD}(?: ${PLACE_WORD}){0,3}`;
/**
 * Where the household is going or has come back from, said as the reason beside the request: "off to work",
 * "we're off to the airport", "heading out for the day", "we're heading to bed", "we're home". Group 1 is the leaving word, group 2
 * the coming-home word. "Closing up for the weekend", "locking up": the house shut for a time is leaving too
 * (docs/decisions.md, "Before round T: words"). "Driving up to the coast", "with the kids": the same reason
 * (docs/decisions.md, "Round T: arming").
 */
const WHEREABOUTS = String.raw`(?:(?:i'?m|i am|we'?re|we are) (?:all |both )?)?(?:(off|out|leaving|(?:closing|locking|shutting) (?:up|down)|heading (?:out|off)|heading|headed|going (?:out|away)|going(?= (?:to|for|on) (?!(?:dis)?arm\b))|(?:driving|flying|travel(?:l)?ing|popping|nipping)(?: (?:up|down|over|out|away|back))?(?= (?:to|for|on) (?!(?:dis)?arm\b))|away|(?:heading|going|off|turning) (?:to bed|in)|going to sleep|calling it a night)|(home|back))(?: (?:now|out|tonight|again|for the (?:evening|night|day|weekend)|(?:off )?(?:to|from|for|on|with) (?:the |my |our |a |an )?${PLACE_NAME}|${AWAY_TILL}))*`;
/** Words before the request that change nothing: "ok", "please", "can you", "I'm home,". */
const LEAD_WORDS = String.raw`(?:(?:ok(?:ay)?|right|alright|hey|hi|vigil|please|so|now|and|then|(?:can|could|would|will) you|you can|${WHEREABOUTS})[\s,.!;:-]+)*`;
const LEAD = new RegExp(`^${LEAD_WORDS}`);
const WHOLE_LEAD = new RegExp(`^${LEAD_WORDS}$`);

/**
 * The words before the request (`verb`, a global pattern) split off: the first place the verb starts with nothing but
 * such words before it, read to their end ("we're heading out on the lake for the evening, arm the place"); failing
 * that, as many of them as read from the start.
 */
function splitLead(text: string, verb: RegExp): { lead: string; said: string } {
  for (const m of text.matchAll(verb)) {
    const lead = text.slice(0, m.index);
    if (WHOLE_LEAD.test(lead)) return { lead, said: text.slice(m.index) };
  }
  const lead = LEAD.exec(text)?.[0] ?? '';
  return { lead, said: text.slice(lead.length) };
}
/**
 * The same reason said after the request, as a clause of its own ("arm the house, off to work"; "disarm —
 * we're back"). It is taken as the reason only when it agrees with the request: leaving with "arm", coming
 * home with "disarm"; "disarm, off to work" says two things, so it is asked (see docs/decisions.md,
 * "Round J household: follow-ups, references and arming").
 */
const TRAIL = new RegExp(String.raw`\s*[,;.!:\u2013\u2014-]+\s*${WHEREABOUTS}[\s.!]*$`);
/** Words that start a request of their own: a clause with one of them is never taken as an aside. */
const NOT_ASIDE = String.raw`(?!(?:and|but|then|also|plus|watch|monitor|mute|unmute|stop|cancel|check|guard|arm|disarm|keep|leave|ignore|except|not)\b)`;
/**
 * Who is speaking and where they are, said beside the request: "it's me, Rosa", "this is Sam", "I'm at the front
 * gate with the groceries", "we're outside". Neither names a part of the house to arm or disarm, so such a trailing
 * clause is dropped (docs/decisions.md, "Before round Q: words").
 */
const ASIDE = new RegExp(
  String.raw`\s*[,;.!:\u2013\u2014-]+\s*(?:it'?s (?:only |just )?(?:me|us)(?:[\s,]+[a-z]+)?|(?:this is|it'?s) [a-z]+|[a-z]+ here|(?:i'?m|i am|we'?re|we are) (?:just )?(?:at|outside|by|near|in|on|here|pulling (?:in|up))(?: ${NOT_ASIDE}[a-z']+){0,6})[\s.!]*$`,
);

/** The request's own words with the trailing asides and the agreeing reasons taken off ("disarm it, it's me - I'm at the gate"). */
function dropAsides(tail: string, arm: boolean): string {
  let rest = tail;
  for (;;) {
    const aside = ASIDE.exec(rest);
    const reason = aside ? undefined : TRAIL.exec(rest);
    const cut = aside ?? (reason && (arm ? reason[1] : reason[2]) ? reason : undefined);
    if (!cut) return rest;
    rest = rest.slice(0, cut.index);
  }
}

/**
 * "lock it all down", "lock the place down": said of the whole house with "down", the words for arming
 * it, not for a door's lock ("lock the back door" is no tool of ours). See docs/decisions.md, "Round H: intent".
 */
const LOCK_DOWN = /\block (?:it all|it|everything|all|(?:the )?(?:whole )?(?:house|home|place|flat|apartment))(?: up)? down\b/;
/** What may follow "arm" / "disarm" and still mean the whole house. */
const WHOLE_HOUSE = new Set([
  'the',
  'whole',
  'entire',
  'house',
  'home',
  'place',
  'flat',
  'apartment',
  'everything',
  'all',
  // ("arm the lot"): the whole of it, as "everything"
  'lot',
  'it',
  'of',
  'up',
  'please',
  'pls',
  'plz',
  'now',
  'for',
  'me',
  'us',
  'thanks',
  'thank',
  'you',
  'again',
  // ("ok disarm it then", "arm the house, cheers"): said after, they change nothing
  'then',
  'ok',
  'okay',
  'cheers',
  'right',
]);
const STATE_QUESTION = /^(?:is|are)\b.*\barmed\b/;
/**
 * "switch the alarm off", "turn on the alarm", "set the alarm": the house's alarm is its arming, the
 * only alarm Vigil has, but said this way it may be another device, so it is asked, never done
 * (see docs/decisions.md, "Round I: intent and safety"). Anything more ("…before bed", "an alarm
 * for 7am") is not read here.
 */
const ALARM = String.raw`the (?:house |home |burglar )?alarm(?: system)?`;
const ALARM_SWITCH = new RegExp(
  String.raw`^(?:(?:switch|turn|put|set|take) ${ALARM} (on|off)|(?:switch|turn) (on|off) ${ALARM}|(set|unset) ${ALARM})(?: (?:please|now|for me|then|thanks))*[.!]*$`,
);

/** The question for an alarm switched on or off: arming is what Vigil can do, said back before it is done. */
function askAboutAlarm(text: string, ctx: HouseholdContext): Plan | undefined {
  const { said } = splitLead(text, /\b(?:switch|turn|put|set|take|unset)\b/g);
  const m = ALARM_SWITCH.exec(said) ?? alarmSwitchWithReason(said);
  if (!m) return undefined;
  const arm = switchesOn(m);
  const plan: Plan = { planner: 'offline', calls: [], refusals: [], confidence: 0.5 };
  if (arm && isArmed(ctx)) plan.answers = ['The house is already armed: every door sensor and camera is watched until you disarm it.'];
  else if (!arm && !isArmed(ctx)) plan.answers = ["The house isn't armed, so there is no alarm of mine to switch off; I changed nothing."];
  else
    plan.clarification = arm
      ? 'Do you mean arm the house? I would watch every door sensor and camera from now until you disarm it. Say "arm the house" and I will.'
      : 'Do you mean disarm the house, ending the watch that arming started? Say "disarm" and I will.';
  return plan;
}

function switchesOn(m: RegExpExecArray): boolean {
  return (m[1] ?? m[2]) === 'on' || m[3] === 'set';
}

/** "set the alarm, heading to church": the switch with a reason after it that agrees with it, still only asked. */
function alarmSwitchWithReason(said: string): RegExpExecArray | undefined {
  for (const arm of [true, false]) {
    const m = ALARM_SWITCH.exec(dropAsides(said, arm));
    if (m && switchesOn(m) === arm) return m;
  }
  return undefined;
}

function isArmed(ctx: HouseholdContext): boolean {
  return ctx.watches.some((w) => w.window === ARMED_WINDOW);
}

const YES = /^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|please|do it|go ahead|that's right|correct)(?:[\s,.!]+(?:yes|please|do it|go ahead|thanks|then))*[\s.!]*$/;

/** "yes" right after the alarm question: the arming it offered, done. */
function confirmAlarm(text: string, ctx: HouseholdContext): Plan | undefined {
  const last = ctx.conversation?.turns.at(-1);
  if (!YES.test(text) || !last || last.actions.length) return undefined;
  const asked = askAboutAlarm(
    last.message
      .trim()
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'"),
    ctx,
  );
  if (!asked?.clarification) return undefined;
  const arm = !isArmed(ctx);
  return { planner: 'offline', calls: [{ tool: 'arm_house', args: { arm }, subject: 'house' }], refusals: [], confidence: 1 };
}

/**
 * "is the alarm on?", "is the alarm still set", "have you armed the house?", "did you set the alarm?": the
 * house's alarm is its arming, so a question about it, said in so many words, is answered from the armed
 * watch (docs/decisions.md, "Round L household: places and words"). Anything more ("is my alarm set for
 * 7?", "is the smoke alarm on?", "is the alarm going off?") is not read here.
 */
const ALARM_STATE_QUESTION = new RegExp(
  String.raw`^(?:(?:so|and|hey|ok|okay|quick question)[\s,]+)*(?:(?:is|are) ${ALARM} (?:still |currently |now )?(on|set|armed|active|off|unset|disarmed)|(?:have|did) you (?:(?:arm|armed) (?:the )?(?:house|home|place)|(?:set|turned on|switched on|put on) ${ALARM}))(?: (?:now|right now|at the moment|yet|still|then))?[\s?.!]*$`,
);

/**
 * "Is it off now?", "is it on?" right after arming or disarming: "it" is the house just armed or disarmed, so the
 * question is answered from the armed watch and changes nothing (docs/decisions.md, "Round R: reasons, corrections
 * and arming"). Said after anything else, "it" is left to the general reader.
 */
const IT_STATE_QUESTION =
  /^(?:(?:so|and|ok|okay)[\s,]+)*(?:is|so) it (?:still |now |all )?(on|set|armed|active|off|unset|disarmed)(?: (?:now|right now|yet|still|then))?[\s?.!]*$/;

function armedLastTurn(ctx: HouseholdContext): boolean {
  const last = ctx.conversation?.turns.at(-1);
  return Boolean(last?.actions.some((a) => a.type === 'house.armed' || a.type === 'house.disarmed'));
}

function answerAlarmState(text: string, ctx: HouseholdContext): Plan | undefined {
  const m = ALARM_STATE_QUESTION.exec(text) ?? (armedLastTurn(ctx) ? IT_STATE_QUESTION.exec(text) : null);
  if (!m) return undefined;
  const askedOff = m[1] !== undefined && ['off', 'unset', 'disarmed'].includes(m[1]);
  const armed = isArmed(ctx);
  const answer = armed
    ? `${askedOff ? 'No' : 'Yes'}, the house is armed: every door sensor and camera is watched until you disarm it.`
    : `${askedOff ? 'Yes' : 'No'}, the house isn't armed.`;
  return { planner: 'offline', calls: [], refusals: [], answers: [answer], confidence: 1 };
}

/**
 * "arm the alarm", "disarm the burglar alarm": the house's alarm is its arming, and the verb says so, so
 * nothing else is left unread; "the alarm system", "the smoke alarm", "the alarm clock" keep their words
 * and are refused or asked as before (docs/decisions.md, "Round O: words").
 */
function dropHouseAlarm(unknown: string[]): string[] {
  const rest = unknown.filter((w) => w !== 'alarm' && w !== 'burglar');
  return unknown.includes('alarm') && rest.length === 0 ? [] : unknown;
}

/**
 * "arm the house for the night", "lock it all down for the evening", "arm everything tonight": arming has no end, and
 * the watch it starts covers the night asked for, so the request is done and the reply says the house stays armed
 * until disarmed (docs/decisions.md, "Round T: arming"). A start ("from 10"), a length ("for an hour") or a disarm
 * for a time still changes what is meant and is asked.
 */
const ARM_SPAN = /\b(?:for (?:the )?(?:night|evening|weekend)|for tonight|tonight|overnight)\b/;

/** "arm the house", "arm everything", "disarm", "I'm home, disarm"; "is the house armed?" answered; anything else not read here. */
export function readArmRequest(message: string, ctx: HouseholdContext): Plan | undefined {
  const text = message
    .trim()
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(LOCK_DOWN, 'arm the house');
  const state = answerAlarmState(text, ctx);
  if (state) return state;
  if (!/\b(?:dis)?arm(?:ed)?\b/.test(text)) return askAboutAlarm(text, ctx) ?? confirmAlarm(text, ctx);
  const plan: Plan = { planner: 'offline', calls: [], refusals: [], confidence: 1 };
  if (STATE_QUESTION.test(text)) {
    plan.answers = [isArmed(ctx) ? 'Yes, the house is armed: every door sensor and camera is watched until you disarm it.' : "No, the house isn't armed."];
    return plan;
  }
  const { lead, said } = splitLead(text, /\b(?:dis)?arm\b/g);
  const m = /^(arm|disarm)\b(.*)$/.exec(said);
  if (!m) return undefined;
  // "we're heading to the game, disarm it": leaving said before a disarm says two things, as after it
  // (docs/decisions.md, "Round N: times, follow-ups, arming")
  if (m[1] === 'disarm' && WHOLE_LEAD.exec(lead)?.[1]) {
    plan.clarification = 'You said you are leaving but asked me to disarm the house: should I disarm it, or arm it while you are out?';
    plan.confidence = 0.3;
    return plan;
  }
  // "arm teh house": a common misspelling of a word that changes nothing is that word ("arm the house 37": a number
  // is a word too, never dropped — docs/decisions.md, "Before round T: probe leaks")
  const spanless = m[1] === 'arm' ? m[2].replace(ARM_SPAN, ' ') : m[2];
  const rest = dropAsides(spanless, m[1] === 'arm')
    .split(/[^a-z0-9']+/)
    .filter(Boolean)
    .map((w) => SPELLING_FIXES[w] ?? w);
  const unknown = dropHouseAlarm(rest.filter((w) => !WHOLE_HOUSE.has(w)));
  // "arm the alarm system", "disarm the lights": not ours to arm; the general reader says so
  if (unknown.some((w) => OUT_OF_SCOPE_NOUNS.has(w) || w === 'system')) return undefined;
  const arm = m[1] === 'arm';
  if (unknown.length) {
    plan.clarification = `I can ${m[1]} only the whole house at once: ${arm ? 'watch every door sensor and camera until you disarm it' : 'stop the watch arming it started'}, from now. Say "${m[1]} the house" if that is what you want.`;
    plan.confidence = 0.3;
    return plan;
  }
  if (arm && isArmed(ctx)) plan.answers = ['The house is already armed: every door sensor and camera is watched until you disarm it.'];
  else if (!arm && !isArmed(ctx)) plan.answers = ["The house isn't armed, so there was nothing to disarm; I changed nothing."];
  else plan.calls.push({ tool: 'arm_house', args: { arm }, subject: 'house' });
  if (arm && plan.calls.length && (spanless !== m[2] || new RegExp(AWAY_TILL).test(lead)))
    plan.answers = ['Arming has no end time: the house stays armed until you disarm it.'];
  return plan;
}

export const armHouse = defineTool({
  name: 'arm_house',
  schema: Type.Object(
    { arm: Type.Boolean({ description: 'true: arm ("arm the house"); false: disarm ("disarm", "I\'m home, disarm")' }) },
    { additionalProperties: false },
  ),
  description: 'Arm the whole house: watch every door or contact sensor and camera from now until disarmed; or disarm it, ending that watch. Owners only.',
  actionType: (a) => (a.arm ? 'house.armed' : 'house.disarmed'),
  actionTypes: ['house.armed', 'house.disarmed'],
  ownerOnly: 'arm or disarm the house',
  says: (_the, action) => (action.type === 'house.armed' ? "I've armed the house." : "I've disarmed the house."),
  read: readArmRequest,
  llmRule:
    '"Arm the house", "arm everything": arm_house with arm true; "disarm", "I\'m home, disarm": arm_house with arm false. Arming is the whole house from now until disarmed, never one room or a schedule: for those, ask. "Is the house armed?" is answered from the active watches (window "armed until disarmed"), with no tool.',
  async run({ ports, scope }, a) {
    const { principal, actor } = scope;
    assertOwner(principal, a.arm ? 'arm the house' : 'disarm the house');
    const armed = (await ports.watches.listActive(principal.tenantId)).filter((w) => w.window === ARMED_WINDOW);
    if (!a.arm) {
      if (!armed.length) throw new AgentToolError('conflict', "the house isn't armed, so nothing changed");
      for (const w of armed) await ports.watches.standDown(principal, actor, w.id);
      return {
        action: { ids: armed.map((w) => w.id), subject: 'house' },
        text: "I've disarmed the house: the doors and cameras are no longer watched for it.",
      };
    }
    if (armed.length) throw new AgentToolError('conflict', 'the house is already armed');
    const home = await ports.household.snapshot(principal.tenantId);
    const bounded = (s: { id: string; room_id: string }) => home.boundaries.some((b) => b.sensor_id === s.id || (!b.sensor_id && b.room_id === s.room_id));
    const sensors = home.sensors.filter((s) => ARMED_KINDS.has(s.kind) && !s.muted && !bounded(s));
    if (!sensors.length) throw new AgentToolError('not_found', 'this home has no door sensor or camera I may watch');
    const w = await ports.watches.create(principal, actor, {
      subject: 'house',
      sensor_ids: sensors.map((s) => s.id),
      starts_at: new Date(scope.now()).toISOString(),
      ends_at: ARMED_UNTIL,
      recurrence: 'none',
      window: ARMED_WINDOW,
      conversation_id: scope.conversationId,
    });
    const left = home.sensors.filter((s) => ARMED_KINDS.has(s.kind) && !sensors.includes(s)).map((s) => s.name);
    return {
      action: { ...describeWatch(w), sensor_ids: w.sensor_ids },
      text: `I've armed the house: I'm watching ${sensors.map((s) => s.name).join(', ')} until you disarm it.${left.length ? ` I left out ${left.join(', ')}: muted or left alone.` : ''}`,
    };
  },
});
