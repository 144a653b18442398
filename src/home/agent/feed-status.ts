/**
 * "is the gate camera working?", "why is the porch cam not showing anything?", "which cameras are offline?": a question
 * about a sensor's feed, answered from the status and last frame the conversation service puts on each sensor
 * (src/home/conversations/household-context.ts). A question only: it changes nothing. A sensor with no status said is
 * taken as live (an older context). The same words tell a watch's reply which of its sensors see nothing
 * (docs/decisions.md, "Before round R: feed status").
 */
import { formatMoment, sayAgo } from '../../platform/time/index.ts';
import type { ContextSensor, HouseholdContext } from './context.ts';
import type { Plan } from './plan.ts';

const LEAD = /^(?:(?:hey|hi|so|and|ok(?:ay)?|um+|uh+|hmm+|quick question|just checking|just wondering|sorry|wait)[\s,.!-]+)*/;
const TAIL = /(?:[\s,]+(?:right now|now|at the moment|currently|today|tonight|then|please|pls|at all|still|again|or not))*[\s?.!]*$/;

/** State words about a feed only: never a door's or a room's ("is the driveway working", "is the terrace door online"). */
const FEED_STATE = 'working|online|on line|offline|off line|live|recording|connected|disconnected|streaming|functioning|not working|not recording|not live';
/** State words that are about a feed only when a camera or sensor is named ("is the porch camera on", not "is the garage door up"). */
const DEVICE_STATE = 'on|up|ok|okay|alright|all right|running|down|broken|dead|off|fine';

const ASKED_ONE = new RegExp(`^(?:is|are|isn'?t|aren'?t)\\s+(.+?)\\s+(?:still\\s+|currently\\s+|actually\\s+|even\\s+)?(${FEED_STATE}|${DEVICE_STATE})$`);
const ASKED_WHY = new RegExp(
  "^why\\s+(?:is|isn'?t|is not|are|aren'?t|does|doesn'?t|won'?t|can'?t i see anything (?:on|from))\\s+(.+?)(?:\\s+(?:not\\s+)?(?:showing|show|working|work|recording|record|loading|load|streaming|stream|coming up|come up|live|online|offline|down|dead|blank|black)(?:\\s+(?:anything|nothing|any ?thing|a picture|an image|any video|the feed))?)?$",
);
const ASKED_WHICH = new RegExp(
  `^(?:which|what)\\s+(?:of (?:my|the|our)\\s+)?(cameras?|sensors?|feeds?|devices?)\\s+(?:are|is)\\s+(${FEED_STATE}|${DEVICE_STATE})$`,
);
const ASKED_ALL = new RegExp(
  `^(?:are|is|r)\\s+(?:all|any|all of|any of|none of|every(?:one of)?)?\\s*(?:the\\s+|my\\s+|our\\s+)?(cameras|sensors|feeds|camera feeds|devices)\\s+(${FEED_STATE}|${DEVICE_STATE})$`,
);
const ASKED_ANY = new RegExp(`^(?:is|are)?\\s*(?:any|anything|any of (?:the|my|our))\\s*(cameras?|sensors?|feeds?)?\\s+(${FEED_STATE}|down|dead|broken)$`);
const ASKED_EVERY = new RegExp(`^(?:is|are)\\s+(?:everything|all (?:my|the|our) (?:cameras|sensors))\\s+(${FEED_STATE})$`);

const FEED_WORDS = new Set(['feed', 'feeds', 'stream', 'streams', 'video', 'signal']);
const ARTICLES = new Set(['the', 'my', 'our', 'your', 'this', 'that', 'a', 'its', "the's"]);
const CAMERA_WORDS = new Set(['camera', 'cameras', 'cam', 'cams', 'cctv']);
const SENSOR_WORDS = new Set(['sensor', 'sensors', 'device', 'devices']);

function singular(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** The sensors a phrase names ("gate camera", "driveway", "porch cam feed"), or undefined when it names none of the home's. */
function findNamedSensors(phrase: string, ctx: HouseholdContext): { sensors: ContextSensor[]; device: boolean } | undefined {
  const words = phrase
    .replace(/'s\b/g, '')
    .split(/[\s,]+/)
    .filter((w) => w && !ARTICLES.has(w));
  if (!words.length) return undefined;
  const camera = words.some((w) => CAMERA_WORDS.has(w));
  const device = camera || words.some((w) => SENSOR_WORDS.has(w) || FEED_WORDS.has(w));
  const own = words.filter((w) => !CAMERA_WORDS.has(w) && !SENSOR_WORDS.has(w) && !FEED_WORDS.has(w)).map(singular);
  const sensors = ctx.sensors.filter((s) => {
    if (camera && s.kind !== 'camera') return false;
    const known = new Set(
      `${s.name} ${s.room}`
        .toLowerCase()
        .split(/[\s-]+/)
        .map(singular),
    );
    return own.every((w) => known.has(w));
  });
  if (!sensors.length || (!own.length && !device)) return undefined;
  // ("is the garage door up"): a contact's name is the door's, so its state; a camera's or motion sensor's name is the device
  return { sensors, device: device || sensors.some((s) => s.kind !== 'contact' && s.name.toLowerCase() === own.join(' ')) };
}

function isLive(s: ContextSensor): boolean {
  return !s.status || s.status === 'live';
}

/** "The main gate camera is offline: its last frame came at 21:14, 3 hours ago." */
export function describeFeed(s: ContextSensor, ctx: HouseholdContext): string {
  const name = `The ${s.name.replace(/^\w/, (c) => c.toLowerCase())}`;
  const muted = s.muted ? " It is muted, so I'm not watching or describing it." : '';
  const camera = s.kind === 'camera';
  if (isLive(s)) return `${name} is live: ${camera ? 'its feed is coming in' : 'it is reporting'} now.${muted}`;
  const at = s.last_frame_at ? Date.parse(s.last_frame_at) : NaN;
  const frame = camera ? 'frame' : 'report';
  const last = Number.isFinite(at)
    ? `its last ${frame} came at ${formatMoment(at, ctx.timeZone, ctx.now)}, ${sayAgo(ctx.now - at)}`
    : `it has sent no ${frame} yet`;
  if (s.status === 'connecting') return `${name} has not connected yet: ${last}.${muted}`;
  if (s.status === 'reconnecting') return `${name} is reconnecting: ${last}, so it sees nothing until it is back.${muted}`;
  return `${name} is ${s.status}: ${last}, so it sees nothing until it is back.${muted}`;
}

/** Sentences about a set of sensors: each one that is not live, and the live ones counted or named. */
function describeFeeds(sensors: ContextSensor[], ctx: HouseholdContext, noun: string): string {
  if (sensors.length === 1) return describeFeed(sensors[0], ctx);
  const down = sensors.filter((s) => !isLive(s));
  const live = sensors.filter(isLive);
  const liveSaid =
    live.length <= 3
      ? `The ${live
          .map((s) => s.name)
          .join(', the ')
          .replace(/, the ([^,]+)$/, ' and the $1')}`
      : `The other ${live.length} ${noun}`;
  if (!down.length) return `All ${sensors.length} ${noun} are live: their feeds are coming in now.`;
  const said = down.map((s) => describeFeed(s, ctx));
  if (live.length) said.push(`${live.length <= 3 ? liveSaid : `The other ${live.length} ${noun}`} ${live.length === 1 ? 'is' : 'are'} live.`);
  return said.join(' ');
}

/** The home's sensors a whole-home question asks about ("cameras" → the cameras, "sensors" → every sensor). */
function sensorsOfKind(word: string | undefined, ctx: HouseholdContext): { sensors: ContextSensor[]; noun: string } {
  if (word && /^(?:cameras?|camera feeds|feeds?)$/.test(word)) return { sensors: ctx.sensors.filter((s) => s.kind === 'camera'), noun: 'cameras' };
  return { sensors: ctx.sensors, noun: 'sensors' };
}

function answer(text: string): Plan {
  return { planner: 'offline', calls: [], refusals: [], answers: [text], confidence: 1 };
}

/** A whole-home question: "which cameras are offline", "are all my cameras working", "is anything offline". */
function answerWholeHome(text: string, ctx: HouseholdContext): Plan | undefined {
  const which = ASKED_WHICH.exec(text) ?? ASKED_ALL.exec(text);
  const any = which ? undefined : ASKED_ANY.exec(text);
  const every = which || any ? undefined : ASKED_EVERY.exec(text);
  if (!which && !any && !every) return undefined;
  const kind = which?.[1] ?? any?.[1] ?? (every && /cameras/.test(text) ? 'cameras' : undefined);
  const { sensors, noun } = sensorsOfKind(kind, ctx);
  if (!sensors.length) return answer(`You have no ${noun} yet.`);
  const down = sensors.filter((s) => !isLive(s));
  if (!down.length) return answer(`All ${sensors.length} ${noun} are live: none is offline.`);
  return answer(describeFeeds(sensors, ctx, noun));
}

/**
 * The answer to a question about a feed, or undefined when the message is not one (a door's state, a scene question
 * such as "is the driveway ok", a place the home does not have: those go on to the general reader).
 */
export function answerFeedStatusQuestion(message: string, ctx: HouseholdContext): Plan | undefined {
  const text = message.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[‘’]/g, "'").replace(LEAD, '').replace(TAIL, '');
  const whole = answerWholeHome(text, ctx);
  if (whole) return whole;
  const one = ASKED_ONE.exec(text);
  const why = one ? undefined : ASKED_WHY.exec(text);
  if (!one && !why) return undefined;
  const named = findNamedSensors((one ?? why)![1], ctx);
  if (!named) return undefined;
  // "is the porch camera on", "is the hall sensor dead": about the device only when a device is named
  if (one && !new RegExp(`^(?:${FEED_STATE})$`).test(one[2]) && !named.device) return undefined;
  // "why is the garage door open" never reaches here: a why-question names a feed word or a device
  if (why && !named.device && !/\b(?:showing|show|working|work|recording|record|loading|load|streaming|stream|live|online|offline)\b/.test(text))
    return undefined;
  const noun = named.sensors.every((s) => s.kind === 'camera') ? 'cameras' : 'sensors';
  return answer(describeFeeds(named.sensors, ctx, noun));
}

/**
 * What a new watch's reply adds when some of its sensors are not live: which, and since when, so the user knows that
 * part of the watch sees nothing until it is back (a watch is still made: docs/decisions.md, "Before round R: feed status").
 */
export function describeOfflineInWatch(covered: ContextSensor[], ctx: HouseholdContext): string | undefined {
  const down = covered.filter((s) => !isLive(s));
  if (!down.length) return undefined;
  const said = down.map((s) => describeFeed(s, ctx).replace(/ It is muted.*$/, ''));
  const part =
    down.length === covered.length
      ? 'this watch sees nothing'
      : down.length === 1
        ? 'that part of the watch sees nothing'
        : 'those parts of the watch see nothing';
  return `${said.join(' ')} Until ${down.length === 1 ? 'it is' : 'they are'} back, ${part}.`.replace(/, so it sees nothing until it is back\./g, '.');
}
