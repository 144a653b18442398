/**
 * "Add the back door sensor, it's zigbee2mqtt/back_door": a real sensor added by its MQTT topic
 * alone, on the household's default broker (docs/decisions.md, "A household's default broker").
 * Read from the user's own words before the general reader (a topic is not a word it knows), with
 * the same precision rules: an unclear name, kind or topic (a wildcard, a space) is a question and
 * nothing is added; without a default broker the agent asks for the broker's address.
 */
import type { HouseholdContext } from './context.ts';
import type { Plan } from './plan.ts';

const ADD_VERB = /\b(add|connect|set up|setup|pair|register|hook up|install|plug in)\b/;
const NEGATION = /\b(don'?t|do not|never|no need to|not)\b/;
/** A whole broker address and nothing else: the answer to "what is your broker's address?". */
const BROKER_ANSWER = /^\s*(?:(?:it'?s|it is|the broker is|my broker is|broker(?: is)?:?|use|at|on)\s+)?(mqtts?:\/\/[^\s/]+)\/?\s*[.!]?\s*$/i;

const SENSOR_NOUNS = new Set(['sensor', 'contact', 'detector', 'pir']);
const KIND_ONLY = new Set(['contact', 'motion', 'occupancy', 'pir', 'presence', 'magnet', 'magnetic', 'reed', 'movement']);
const CONTACT_EXPLICIT = /\b(contact|magnet|magnetic|reed)\b/;
const CONTACT_PLACE = /\b(door|window|gate|letterbox|mailbox|hatch)\b/;
const MOTION = /\b(motion|movement|occupancy|pir|presence)\b/;
const UNSUPPORTED = /\b(leak|water|flood|smoke|fire|vibration|temperature|humidity|co2|gas|button|switch|plug|light|bulb|lock|thermostat)\b/;
/** Words a request to add a sensor may hold besides its name, room, kind and topic. */
const FILLERS = new Set([
  'please',
  'can',
  'could',
  'would',
  'will',
  'you',
  'i',
  'we',
  "i'd",
  "we'd",
  'want',
  'like',
  'to',
  'now',
  'also',
  'new',
  'my',
  'our',
  'the',
  'a',
  'an',
  'it',
  "it's",
  'its',
  'is',
  'on',
  'at',
  'topic',
  'mqtt',
  'zigbee2mqtt',
  'zigbee',
  'device',
  'hey',
  'ok',
  'okay',
  'just',
  'thanks',
  'thank',
  'for',
  'me',
  'us',
  'add',
  'connect',
  'set',
  'up',
  'setup',
  'pair',
  'register',
  'hook',
  'install',
  'plug',
  'in',
  'as',
  'called',
  'named',
  'this',
  'that',
  'which',
  'there',
  "there's",
  'publishes',
  'reports',
  'under',
  'with',
  'one',
  'sensor',
  'contact',
  'motion',
  'occupancy',
  'pir',
  'presence',
  'detector',
  'magnet',
  'magnetic',
  'reed',
  'movement',
]);
const NAME_STOP = new Set([
  'in',
  'it',
  "it's",
  'its',
  'on',
  'at',
  'topic',
  'as',
  'called',
  'named',
  'please',
  'and',
  'with',
  'to',
  'under',
  'which',
  'that',
  'publishes',
  'reports',
  'is',
  '@topic',
]);
const ARTICLES = new Set(['the', 'a', 'an', 'my', 'our', 'this', 'new']);

export interface TopicRequest {
  topic: string;
  kind: 'contact' | 'motion';
  name: string;
  room: string;
}

type Reading = { ok: true; request: TopicRequest } | { ok: false; ask: string } | undefined;

function cleanToken(t: string): string {
  return t
    .replace(/^["'`“”‘’(<]+/, '')
    .replace(/["'`“”‘’)>]+$/, '')
    .replace(/[.,;!?:]+$/, '');
}

/** The message as lower-case words with the topic replaced by "@topic". */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[\s,;!?]+|\.(?=\s|$)/)
    .map((w) => w.replace(/^["'`“”(]+|["'`“”)]+$/g, '').replace(/[.:]+$/, ''))
    .filter(Boolean);
}

function phraseAfter(words: string[], at: number): string[] {
  const out: string[] = [];
  let k = at;
  while (k < words.length && ARTICLES.has(words[k]!)) k++;
  for (; k < words.length && !NAME_STOP.has(words[k]!); k++) out.push(words[k]!);
  return out;
}

/** The words that look like an MQTT topic (a slash inside, or after "topic"), and where the first is. */
function findTopicCandidates(tokens: string[]): { candidates: string[]; topicAt: number } {
  const candidates: string[] = [];
  let topicAt = -1;
  tokens.forEach((raw, k) => {
    const t = cleanToken(raw);
    const afterTopicWord = /^topic:?$/i.test(tokens[k - 1] ?? '');
    // a slash between words ("and/or", "on/off") or numbers ("24/7", "11/27") is not a topic
    const slashWords = /^(and\/or|either\/or|on\/off|open\/closed?|yes\/no|in\/out|he\/she|his\/her|w\/o|n\/a)$/i.test(t) || !/[a-z_]/i.test(t);
    if ((t.includes('/') && !slashWords && /^[\w$.\-+#/]+$/.test(t) && /[\w+#]/.test(t)) || (afterTopicWord && /^[\w$.\-+#]+$/.test(t))) {
      candidates.push(t);
      if (topicAt < 0) topicAt = k;
    }
  });
  return { candidates, topicAt };
}

/** Reads a request to add a sensor by topic; undefined when the message is not one (a URL, no topic). */
export function readTopicRequest(message: string): Reading {
  const text = message.replace(/[’‘]/g, "'");
  if (text.includes('://')) return undefined; // a whole address: the general add_sensor reading
  const lower = text.toLowerCase();
  const tokens = text.split(/\s+/).filter(Boolean);
  const { candidates, topicAt } = findTopicCandidates(tokens);
  if (!candidates.length) return undefined;
  const hasAdd = ADD_VERB.test(lower);
  if (!hasAdd) {
    if (!/\b(sensor|contact|detector|pir)\b/.test(lower)) return undefined;
    return {
      ok: false,
      ask: `Would you like me to add a sensor on the topic ${candidates[0]}? Say, for example, "add the back door sensor, it's ${candidates[0]}". I haven't added anything.`,
    };
  }
  if (NEGATION.test(lower)) return { ok: false, ask: "All right, I haven't added anything. What would you like me to do?" };
  const unclear = askAboutTopic(text, tokens, candidates, topicAt);
  if (unclear) return unclear;
  const topic = candidates[0]!;

  const words = wordsOf(tokens.map((t, k) => (k === topicAt ? '@topic' : t)).join(' '));
  const withoutTopic = words.filter((w) => w !== '@topic').join(' ');
  const kind = readTopicKind(withoutTopic);
  if (typeof kind === 'object') return kind;
  const { name, namedAt } = readTopicName(words);
  let room: string[] = [];
  const inAt = words.findIndex((w, k) => w === 'in' && words[k + 1] !== '@topic' && !(words[k - 1] === 'plug'));
  if (inAt >= 0) room = phraseAfter(words, inAt + 1).filter((w) => !SENSOR_NOUNS.has(w) && !KIND_ONLY.has(w));
  // the words the reading used: fillers, the name and the room; anything else is asked about
  const nameWords = new Set([...name, ...room]);
  const unknown = words.filter((w) => w !== '@topic' && !FILLERS.has(w) && !nameWords.has(w));
  if (unknown.length) {
    return {
      ok: false,
      ask: `I can add the sensor on ${topic}, but I didn't follow "${unknown.join(' ')}". Say the sensor on its own, for example "add the back door sensor, it's ${topic}"; I haven't added anything.`,
    };
  }
  if (!room.length) room = name.filter((w) => !SENSOR_NOUNS.has(w) && !KIND_ONLY.has(w));
  if (!room.length) return { ok: false, ask: `Which room is the sensor on ${topic} in, and what should I call it? I haven't added anything.` };
  if (!kind)
    return {
      ok: false,
      ask: `Is the ${name.length ? name.join(' ') : `sensor on ${topic}`} a door or window contact, or a motion sensor? I haven't added anything.`,
    };
  // "the back door sensor" names it; "a motion sensor" only says its kind
  const isNamed = namedAt >= 0 || (name.some((w) => SENSOR_NOUNS.has(w) || KIND_ONLY.has(w)) && name.some((w) => !SENSOR_NOUNS.has(w) && !KIND_ONLY.has(w)));
  const finalName = isNamed && name.length ? name.join(' ') : `${room.join(' ')} ${kind === 'contact' ? 'contact' : 'motion sensor'}`;
  return { ok: true, request: { topic, kind, name: finalName, room: room.join(' ') } };
}

/** The question a topic that cannot be one device's asks (a space, two topics, a wildcard, an empty level), or undefined when it is clear. */
function askAboutTopic(text: string, tokens: string[], candidates: string[], topicAt: number): Reading {
  // a quoted topic with a space in it: asked, never guessed
  const quoted = /["“'`]([^"”'`]*\/[^"”'`]*)["”'`]/.exec(text);
  if (quoted && /\s/.test(quoted[1]!.trim())) {
    return {
      ok: false,
      ask: `MQTT topics here have no spaces, so I can't use "${quoted[1]}". What is the device's topic exactly (for example zigbee2mqtt/back_door)? I haven't added anything.`,
    };
  }
  if (new Set(candidates).size > 1)
    return { ok: false, ask: `I add one sensor at a time: which topic is it, ${candidates.join(' or ')}? I haven't added anything.` };
  const topic = candidates[0]!;
  if (/[+#]/.test(topic)) {
    return {
      ok: false,
      ask: `${topic} has an MQTT wildcard (+ or #), which covers many devices; a sensor is one device. What is its own topic (for example zigbee2mqtt/back_door)? I haven't added anything.`,
    };
  }
  if (topic.startsWith('/') || topic.endsWith('/') || topic.includes('//')) {
    return { ok: false, ask: `${topic} has an empty level. What is the device's topic exactly (for example zigbee2mqtt/back_door)? I haven't added anything.` };
  }
  // a topic followed by a word that is not a joining word: a topic with a space ("zigbee2mqtt/back door")
  const rawTopic = tokens[topicAt]!;
  const next = tokens[topicAt + 1]?.toLowerCase();
  if (
    next !== undefined &&
    !/[.,;!?:]$/.test(rawTopic) &&
    !['in', 'as', 'and', 'please', 'for', 'on', 'at', 'called', 'named', 'it', "it's", 'its', 'which', 'to', '-', '—'].includes(next.replace(/[.,;!?:]+$/, ''))
  ) {
    return {
      ok: false,
      ask: `MQTT topics have no spaces: is the topic ${topic}, or something like ${topic}_${next.replace(/[^\w-]/g, '')}? Tell me the exact topic. I haven't added anything.`,
    };
  }
  return undefined;
}

/** The kind, as said, never guessed from the topic: a contact, a motion sensor, undefined when not said, or the question a kind it cannot add asks. */
function readTopicKind(withoutTopic: string): TopicRequest['kind'] | undefined | { ok: false; ask: string } {
  const unsupported = UNSUPPORTED.exec(withoutTopic);
  if (unsupported) {
    return {
      ok: false,
      ask: `By topic I can add a door or window contact, or a motion sensor; a ${unsupported[1]} sensor isn't one I can add to the household yet, so I haven't added anything.`,
    };
  }
  const explicitContact = CONTACT_EXPLICIT.test(withoutTopic);
  const motion = MOTION.test(withoutTopic);
  if (explicitContact && motion) return { ok: false, ask: "Is it a door or window contact, or a motion sensor? I haven't added anything." };
  return motion ? 'motion' : explicitContact || CONTACT_PLACE.test(withoutTopic) ? 'contact' : undefined;
}

/** The name: "as (the) X", "called X", "named X"; else the phrase after the verb ("the back door sensor"); and where a naming word is. */
function readTopicName(words: string[]): { name: string[]; namedAt: number } {
  let name: string[] = [];
  const namedAt = words.findIndex((w) => w === 'as' || w === 'called' || w === 'named');
  if (namedAt >= 0) name = phraseAfter(words, namedAt + 1);
  if (!name.length) {
    const verbAt = words.findIndex(
      (w) =>
        ['add', 'connect', 'pair', 'register', 'install', 'setup'].includes(w) ||
        ((w === 'set' || w === 'hook' || w === 'plug') && ['up', 'in'].includes(words[words.indexOf(w) + 1] ?? '')),
    );
    if (verbAt >= 0) {
      const start = ['set', 'hook', 'plug'].includes(words[verbAt]!) ? verbAt + 2 : verbAt + 1;
      name = phraseAfter(words, start);
    }
  }
  return { name: name.filter((w) => w !== '@topic'), namedAt };
}

function plan(partial: Partial<Plan>): Plan {
  return { planner: 'offline', calls: [], refusals: [], ...partial };
}

function sayNoBroker(r: TopicRequest): string {
  return `To add the ${r.name} by its topic I need your MQTT broker's address, and this household has none set. What is it (for example mqtt://192.168.1.10:1883)? You can also give the whole address, such as mqtt://192.168.1.10:1883/${r.topic}. I haven't added anything.`;
}

/** The plan for a request to add a sensor by topic, or undefined when the message is not one. */
export function planSensorByTopic(message: string, ctx: HouseholdContext): Plan | undefined {
  const answer = BROKER_ANSWER.exec(message);
  if (answer) return planBrokerAnswer(answer[1]!, ctx);
  const reading = readTopicRequest(message);
  if (!reading) return undefined;
  if (!reading.ok) return plan({ clarification: reading.ask, confidence: 0.3 });
  const r = reading.request;
  const taken = ctx.sensors.find((s) => s.name.toLowerCase() === r.name.toLowerCase());
  if (taken)
    return plan({
      clarification: `There is already a sensor called the ${taken.name}. What should I call the one on ${r.topic}? I haven't added anything.`,
      confidence: 0.4,
    });
  if (!ctx.mqttBroker) return plan({ clarification: sayNoBroker(r), confidence: 0.5 });
  return plan({ calls: [{ tool: 'add_sensor_by_topic', args: { name: r.name, kind: r.kind, room: r.room, topic: r.topic }, subject: r.name }], confidence: 1 });
}

/**
 * "mqtt://192.168.1.10:1883" in answer to the question above: the request of the turn before,
 * added at that broker's address. Anything else (no such question just asked) is left to the
 * general reader.
 */
function planBrokerAnswer(broker: string, ctx: HouseholdContext): Plan | undefined {
  const last = ctx.conversation.turns[ctx.conversation.turns.length - 1];
  if (!last || last.actions.length) return undefined;
  const before = readTopicRequest(last.message);
  if (!before?.ok) return undefined;
  const r = before.request;
  if (ctx.sensors.some((s) => s.name.toLowerCase() === r.name.toLowerCase())) return undefined;
  const sourceUrl = `${broker.replace(/\/+$/, '')}/${r.topic.split('/').map(encodeURIComponent).join('/')}`;
  return plan({
    calls: [
      {
        tool: 'add_sensor',
        args: { name: r.name, kind: r.kind, room: r.room, source_url: sourceUrl, source_type: 'mqtt' },
        subject: r.name,
        say: `I've added the ${r.name} in the ${r.room}, reading ${r.topic} on ${broker}.`,
      },
    ],
    confidence: 1,
  });
}
