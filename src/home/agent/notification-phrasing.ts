/**
 * Routing said to the agent (docs/decisions.md, "Routing said to the agent"): "notify me only
 * between 11pm and 7am", "don't send me the garage ones", "stop the notifications", "send them
 * again". Read from the user's own words before the general reader, with its precision rules: a
 * request this reading is not sure of is a question, a question never changes routing, and a
 * change is one call of set_notification_routing, whose reply states the routing now in force.
 */
import type { HouseholdContext } from './context.ts';
import type { Plan } from './plan.ts';

const NOTIFY_WORD = /\b(notif(?:y|ies|ied|ying|ications?)|pings?|push notifications?)\b/;
/** "Notify me if someone comes to the back door": a watch, not routing. */
const CONDITIONAL = /\b(if|when|whenever|once|as soon as)\b/;
const NEGATIVE = /\b(don'?t|do not|dont|never|no|stop|quit|without)\b/;
const OTHER_REQUEST =
  /\b(watch|keep an eye|look after|unmute|alone|add|describe|show me|check|look at)\b|\bmute\b(?!\s+(?:the\s+|my\s+|all\s+)?(?:notif|them|those|alerts))/;
const ONLY = /\b(only|just)\b/;
const CLOCK = String.raw`(\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?|noon|midday|midnight)`;
const BETWEEN = new RegExp(String.raw`\b(?:between|from)\s+${CLOCK}\s+(?:and|to|until|till|-)\s+${CLOCK}`);
const ONE_TIME = new RegExp(String.raw`\b(?:after|before|until|till|from|at|past)\s+${CLOCK}`);
const ANY_TIME =
  /\b(at any (?:time|hour)|any ?time|all (?:the )?time|around the clock|24\/7|day and night|no (?:more )?quiet hours|(?:clear|remove|drop|cancel) (?:the |my )?quiet hours)\b/;
const PAUSE = /\b(stop|pause|turn off|switch off|disable|mute|silence|hold|no more|enough)\b/;
const RESUME =
  /\b(again|resume|back on|turn (?:them |those |the notifications |notifications )?(?:back )?on|switch (?:them |notifications )?(?:back )?on|start (?:sending|notifying)|unpause|restart)\b/;
const SEND_THEM = /\bsend (?:me )?(?:them|those|it|the notifications|notifications|my notifications)\b/;
const POLITE = /^(?:please\s+)?(?:can|could|would|will)\s+you\b/;
const QUESTION = /^(?:are|is|do|does|did|when|what|which|will|would|should|can|could|why|how|am)\b/;
const SCOPE_HOUSEHOLD = /\b(us|everyone|everybody|the household|the family|the whole (?:house|household|family)|all of us)\b/;

type Clock = { ok: true; hhmm: string } | { ok: false; said: string };

/** "11pm" → 23:00, "7 am" → 07:00, "23:30" → 23:30, "midnight" → 00:00; "11" alone is unclear. */
function readClock(raw: string): Clock {
  const s = raw.trim().replace(/\./g, '');
  if (s === 'noon' || s === 'midday') return { ok: true, hhmm: '12:00' };
  if (s === 'midnight') return { ok: true, hhmm: '00:00' };
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(s);
  if (!m) return { ok: false, said: raw };
  let h = Number(m[1]);
  const min = m[2] ? Number(m[2]) : 0;
  if (min > 59) return { ok: false, said: raw };
  if (m[3]) {
    if (h < 1 || h > 12) return { ok: false, said: raw };
    h = (h % 12) + (m[3] === 'pm' ? 12 : 0);
  } else if (!m[2] && h >= 1 && h <= 12) {
    return { ok: false, said: raw }; // "between 11 and 7": morning or night?
  } else if (h > 23) {
    return { ok: false, said: raw };
  }
  return { ok: true, hhmm: `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}` };
}

type PlaceHit = { kind: 'room'; name: string } | { kind: 'sensor'; id: string; name: string };

/** The rooms and sensors named in the message, longest names first (a sensor's name wins over its room's). */
function findPlaces(text: string, ctx: HouseholdContext): PlaceHit[] {
  let rest = ` ${text} `;
  const hits: PlaceHit[] = [];
  const names: Array<{ name: string; hit: PlaceHit }> = [
    ...ctx.sensors.map((s) => ({ name: s.name.toLowerCase(), hit: { kind: 'sensor' as const, id: s.id, name: s.name } })),
    ...ctx.rooms.map((r) => ({ name: r.name.toLowerCase(), hit: { kind: 'room' as const, name: r.name } })),
  ].sort((a, b) => b.name.length - a.name.length);
  for (const { name, hit } of names) {
    const re = new RegExp(`(^|[^a-z0-9])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^a-z0-9])`);
    if (re.test(rest)) {
      hits.push(hit);
      rest = rest.replace(re, '$1 ');
    }
  }
  return hits;
}

/** "the garage ones", "about the pool", "from the shed": a place said that the home may not have. */
const PLACE_PHRASE =
  /\b(?:the|my|our)\s+([a-z][a-z ]*?)\s+(?:ones?|notifications?|alerts?|camera|sensor)\b|\b(?:about|from|for|of)\s+(?:the|my|our)\s+([a-z][a-z ]*?)(?=$|[\s,.!?])/;

function plan(partial: Partial<Plan>): Plan {
  return { planner: 'offline', calls: [], refusals: [], ...partial };
}

function ask(text: string): Plan {
  return plan({ clarification: `${text} I haven't changed your notifications.`, confidence: 0.3 });
}

const EXAMPLES =
  'I can notify you only between two times ("only between 11pm and 7am"), leave a room or sensor out ("don\'t send me the garage ones"), stop the notifications, or send them again.';

function knownPlaces(ctx: HouseholdContext): string {
  const rooms = ctx.rooms.map((r) => r.name);
  return rooms.length ? ` The rooms are: ${rooms.join(', ')}.` : '';
}

/** The plan for a routing request, or undefined when the message is not about notification routing. */
export function planNotificationRouting(message: string, ctx: HouseholdContext): Plan | undefined {
  const text = message.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  const lastWasRouting = ctx.conversation.turns.at(-1)?.actions.some((a) => a.type === 'notification_preferences.set') ?? false;
  const aboutNotifications = NOTIFY_WORD.test(text) || /\bsend me\b/.test(text) || /\bdon'?t send\b/.test(text) || (lastWasRouting && SEND_THEM.test(text));
  if (!aboutNotifications) return undefined;
  if (CONDITIONAL.test(text)) return undefined; // "notify me if someone comes": a watch
  const question = QUESTION.test(text) && !POLITE.test(text);
  if (question) return ask(`You asked about your notifications. ${EXAMPLES}`);
  if (OTHER_REQUEST.test(text)) return ask('I change notifications on their own: ask me that first, then the rest separately.');
  // "notify me about strangers in the backyard tonight" says nothing about routing: a watch, for the general reader
  const routingSaid =
    NEGATIVE.test(text) ||
    RESUME.test(text) ||
    PAUSE.test(text) ||
    ONLY.test(text) ||
    BETWEEN.test(text) ||
    ANY_TIME.test(text) ||
    /\b(quiet|less|fewer|so many|too many|important)\b/.test(text);
  if (!routingSaid) return undefined;
  const scope = SCOPE_HOUSEHOLD.test(text) ? 'household' : undefined;
  const scoped = (args: Record<string, unknown>) => (scope ? { scope, ...args } : args);
  const negative = NEGATIVE.test(text);
  const places = findPlaces(text, ctx);

  // a window of hours
  const between = BETWEEN.exec(text);
  if (between) {
    const a = readClock(between[1]!);
    const b = readClock(between[2]!);
    const unclear = [a, b].find((c) => !c.ok) as { ok: false; said: string } | undefined;
    if (unclear) return ask(`Is "${unclear.said}" in the morning or the evening (say it like 11pm or 7am)?`);
    const [from, to] = [(a as { hhmm: string }).hhmm, (b as { hhmm: string }).hhmm];
    if (from === to) return ask('Those are the same time: which hours should I notify you in?');
    if (places.length) return ask('Hours apply to all your notifications, not to one place: should I set the hours, or leave that place out?');
    const only = ONLY.test(text);
    const quietSaid = /\bquiet\b/.test(text);
    if (only && negative) return ask(`Should I notify you only between ${between[1]} and ${between[2]}, or never between them?`);
    // "only between 11pm and 7am" → quiet from 7am to 11pm; "not between 11pm and 7am" / "quiet hours from…" → quiet then
    if (only)
      return plan({ calls: [{ tool: 'set_notification_routing', args: scoped({ quiet_hours: { from: to, to: from }, paused: false }) }], confidence: 1 });
    if (negative || quietSaid)
      return plan({ calls: [{ tool: 'set_notification_routing', args: scoped({ quiet_hours: { from, to }, paused: false }) }], confidence: 1 });
    return ask(`Should I notify you only between ${between[1]} and ${between[2]}, or not between them?`);
  }
  if (ANY_TIME.test(text) && !negative) {
    if (places.length) return ask('Should I notify you at any hour, or send that place again? Tell me one at a time.');
    return plan({ calls: [{ tool: 'set_notification_routing', args: scoped({ quiet_hours: null }) }], confidence: 1 });
  }
  if (ONE_TIME.test(text) || /\b(at night|overnight|during the day|in the daytime|in the morning|in the evening|at work|while i'?m away)\b/.test(text)) {
    return ask('From when until when should I notify you (for example "only between 11pm and 7am")?');
  }

  // a place: left out, or sent again
  const resume = RESUME.test(text) && !/\bno more\b/.test(text);
  if (places.length) {
    const rooms = places.filter((p) => p.kind === 'room').map((p) => p.name);
    const sensors = places.filter((p): p is Extract<PlaceHit, { kind: 'sensor' }> => p.kind === 'sensor').map((p) => p.id);
    const set = { ...(rooms.length ? { rooms } : {}), ...(sensors.length ? { sensors } : {}) };
    if (resume && !negative) return plan({ calls: [{ tool: 'set_notification_routing', args: scoped({ exclude_remove: set }) }], confidence: 1 });
    if (negative && !resume) return plan({ calls: [{ tool: 'set_notification_routing', args: scoped({ exclude_add: set }) }], confidence: 1 });
    const named = places.map((p) => `the ${p.name}`).join(' and ');
    return ask(`Should I stop notifying you about ${named}, or notify you about it again?`);
  }
  const said = PLACE_PHRASE.exec(text);
  const placeWord = said ? (said[1] ?? said[2])!.trim() : undefined;
  if (placeWord && !/^(notifications?|alerts?|ones?|them|those|everything|all|phone|phones)$/.test(placeWord)) {
    return ask(`I don't know a room or sensor called "${placeWord}".${knownPlaces(ctx)} Which one did you mean?`);
  }

  // everything: stopped, or sent again
  if (resume && !negative) return plan({ calls: [{ tool: 'set_notification_routing', args: scoped({ paused: false }) }], confidence: 1 });
  if (PAUSE.test(text) && !resume) return plan({ calls: [{ tool: 'set_notification_routing', args: scoped({ paused: true }) }], confidence: 1 });
  return ask(`I'm not sure how you'd like your notifications changed. ${EXAMPLES}`);
}
