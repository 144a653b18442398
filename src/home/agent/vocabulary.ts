/**
 * The offline planner's English vocabulary: the phrases that signal each intent, and the word
 * classes (conditions, sensor kinds, fillers, out-of-scope things). Data, not code: growing the
 * planner's understanding is mostly adding a line here and a corpus case for it.
 *
 * Function words and spelling fixes are shared with scene questions (src/platform/language/words.ts).
 *
 * Cue syntax: words match a token's surface form or its lemma (compromise); "…" allows up to six
 * other tokens in between; "a|b" is either word.
 */
import { WATCH_CONDITION_WORDS } from '../../platform/kinds/index.ts';

export type IntentKind =
  | 'create_watch'
  | 'update_watch'
  | 'stand_down'
  | 'list_watches'
  | 'mute'
  | 'unmute'
  | 'set_boundary'
  | 'clear_boundary'
  | 'describe'
  | 'list_events'
  | 'add_sensor'
  | 'set_location'
  | 'rename_room'
  | 'out_of_scope'
  | 'help'
  /** Not from cues: what a clause becomes once scope is read (planner). */
  | 'keep'
  | 'exclude'
  | 'ask_watch'
  | 'ask_muted'
  | 'ask_boundary'
  | 'ask_home';

export const INTENT_CUES: { intent: IntentKind; cues: string[] }[] = [
  {
    intent: 'clear_boundary',
    cues: [
      'can watch … again',
      'can look … again',
      'can monitor … again',
      'can see … again',
      'can check … again',
      'may watch … again',
      'okay to watch',
      'ok to watch',
      'fine to watch',
      'allow … again',
      'fine … to watch … again',
      'ok … to watch … again',
      'okay … to watch … again',
      'alright … to watch … again',
      // "it's fine for you to look at the study again", "ok to check on the den again": the boundary lifted in other words
      'fine|ok|okay|alright … to look|check|monitor|see … again',
      'can keep … eye … again',
      'lift … boundary',
      'remove … boundary',
      'clear … boundary',
      'drop … boundary',
      'lift … restriction',
      'no longer off limit|limits',
      'not off limit|limits',
      'stop ignore|ignoring',
      'unignore',
    ],
  },
  {
    intent: 'set_boundary',
    cues: [
      'leave … alone',
      'stay out',
      'keep out',
      'do not look',
      'do not ever look',
      'never look',
      'never watch',
      'do not ever watch',
      'off limit|limits',
      'privacy',
      'stop look|looking at',
      'stop look|looking in',
      'ignore',
      'do not check on',
      'keep away from',
    ],
  },
  {
    intent: 'stand_down',
    cues: [
      'stop watch|watching',
      'stop monitor|monitoring',
      'stand down',
      'stand … down',
      'call off',
      'call … off',
      'cancel',
      'no need to watch',
      'no longer need … watch',
      'do not need … watch',
      'turn off … watch',
      'switch off … watch',
      'end … watch',
      'stop … watch',
      'kill … watch',
      'remove … watch',
      'delete … watch',
      'forget about',
      'never mind',
      'nevermind',
      'do not watch … anymore',
      'stop … anymore',
      'stop',
      'drop',
      'quit watch|watching',
      'quit',
      'knock off watch|watching',
      'knock … off',
      // cancellation and homecoming (see docs/decisions.md, "Coverage before action"): never a watch
      'forget',
      'scrap',
      'no need',
      'relax',
      'can relax',
      'we be back',
      'we be home',
      'i be back',
      'i be home',
      'abort',
      'stand … down',
      'call it off',
      // idioms for stopping: "knock the porch one on the head", "pack it in", "give … a rest"
      // "leave the nursery out of it", "take the garage off the watch": a place out of a running watch
      'leave … out',
      'take … off',
      'take … out',
      'count … out',
      'knock … on the head',
      'knock it on the head',
      'pack in',
      'pack … in',
      'give … a rest',
      'put … to bed',
      'wind … down',
      // "bin the gate watch", "ditch the porch one", "kill the rest": slang for standing down a watch said by name
      'bin … watch',
      'bin … one|ones',
      'bin the rest|others',
      'ditch … watch',
      'ditch … one|ones',
      'ditch the rest|others',
      'kill … one|ones',
      'kill the rest|others',
      // "get rid of the pool watch altogether": a watch said by name, gone
      'get rid of … watch|watches|one|ones',
      // "the gate watch can go", "clear all the watches", "wipe the watches": standing down said other ways
      // (docs/decisions.md, "Before round Q: words")
      'watch|watches can go',
      'clear … watch|watches',
      'wipe … watch|watches',
    ],
  },
  {
    intent: 'update_watch',
    cues: [
      'make it',
      'make that',
      'change it',
      'change that',
      'change … watch',
      'switch it',
      'extend',
      // "stretch it to 9 in the morning": the end moved (docs/decisions.md, "Before round Q: times")
      'stretch it|that',
      'stretch … watch|one',
      'lengthen',
      'push it',
      'push',
      'cut … off at',
      'push … back',
      'move it',
      'shorten',
      'make … watch last',
      'make … watch',
      'only watch … from now on',
      'actually start',
      'start it',
      'end it at',
      'finish it at',
      // "the garage watch can end saturday at noon instead", "the porch one should stop at 9"
      'watch can|could|should|will|must end|finish|stop',
      'one can|could|should|will|must end|finish|stop',
      // "make the driveway one finish at 7", "change the porch one to end at 6": an edit of the watch named by its place
      'make the … one',
      'make … watch end|finish|start|stop|run',
      'change the … one',
      'move the … one',
      // "move the driveway watch", "shift the porch one": an edit verb on a watch named as a noun is
      // an edit of it, never a new watch; said without what to change, the planner asks what
      'move|shift|reschedule|adjust|update|edit|bring|alter|modify|tweak … watch|watches',
      'shift|reschedule|adjust|update|edit|bring|alter|modify|tweak the … one',
    ],
  },
  {
    intent: 'unmute',
    cues: [
      'unmute',
      'unmuted',
      'un mute',
      'turn … back on',
      'switch … back on',
      'turn on',
      'switch on',
      're enable',
      'reenable',
      're-enable',
      'enable',
      'unsilence',
      'reactivate',
      'bring … back',
      // "the orchard camera can come back on now", "you can listen to the porch again": unmuting said
      // other ways (docs/decisions.md, "Round Q: verbs")
      'come|comes back on',
      'listen to … again',
    ],
  },
  {
    intent: 'mute',
    cues: [
      'mute',
      'muted',
      'silence',
      'shh',
      'shush',
      'hush',
      'sshh',
      'turn off',
      'switch off',
      'turn … off',
      'switch … off',
      'disable',
      'shut off',
      'deactivate',
      'stop record|recording',
      // "stop the living room camera from recording anything": the camera kept from seeing is muted
      'stop … from record|recording|filming',
      // "the lounge motion keeps going off, stop telling me about it": the sensor's alerts are what is stopped
      'stop tell|telling me about',
    ],
  },
  {
    intent: 'list_watches',
    cues: [
      'what … you watch|watching',
      'what be you monitor|monitoring',
      'list … watch|watches',
      'which watch|watches',
      'show … watch|watches',
      'what watch|watches',
      'active watch|watches',
      'how many watch|watches',
      'what be … watch|watched',
      'what be be watch|watched',
      'you watch|watching anything',
      // "what have you got on tonight?", "what's on tonight?"
      'what … you got on',
      'what … you got going',
      'what be on tonight',
      'what be run|running',
      // "what's still on?", "what have you got set up for tonight?"
      'what be still on',
      'what be still run|running|going',
      'what … you got set up',
      'what … you set up',
      'what be set up',
      // "what's the schedule for tonight?", "what have you got planned?": the watches are the plan
      'what be … schedule|scheduled|rota|agenda',
      'what be … plan|planned',
      'what … you plan|planned',
      'what … you got planned|scheduled|lined',
      'what be … line|lined up',
      'show … schedule',
      'anything schedule|scheduled|planned',
      // "what's it covering?", "what does the armed watch cover?" (docs/decisions.md, "Before round Q: words")
      'what be … cover|covering|covered',
      'what do … cover',
    ],
  },
  {
    intent: 'list_events',
    cues: [
      'what happened',
      'what … happened',
      // "tell me if anything happened out there today": said of the past, a question, never a watch
      'tell me if|whether … happened|came|went|was|were|did',
      'let me know if|whether … happened|came|went|was|were|did',
      'anything happen',
      'anything happened',
      // "what went on between 2 and 4?": said of the past, unlike "what's going on"
      'what went on',
      'what … went on',
      'did anyone',
      'did anybody',
      'did someone',
      'did … open',
      'did … come',
      'were there',
      'was there',
      'any alert|alerts',
      'alert|alerts',
      'event|events',
      'what did you see',
      'what … you see since',
      'anything on … watch',
      'what … you catch',
      'did … see',
      'did … happen',
      'history',
      'show … event|events',
      'show … alert|alerts',
      'list … event|events',
      // "tell me what it picked up", "anything the shed sensor caught?": what a watch or sensor saw
      'what … pick|picked up',
      'anything … pick|picked up',
      'what … catch|caught|spot|spotted|detect|detected',
    ],
  },
  {
    intent: 'describe',
    cues: [
      'be … shut',
      'be … locked',
      'be … unlocked',
      'what be happen|happening',
      'what be go on',
      'what be going on',
      'what do … see',
      'what … show|showing',
      'show me',
      'be … ok|okay|alright|fine|safe',
      // "all quiet out on the drive?", "everything calm at the gate?", "is it quiet in the loft?" (docs/decisions.md, "Before round Q: words")
      'all|everything quiet|calm',
      'be … quiet|calm',
      'be anyone',
      'be anybody',
      'be someone',
      'be there',
      'anyone in|at|on',
      'anybody in|at|on',
      'anything move|moving',
      'who be at|in|on',
      'check',
      'how be',
      'how … look|looking',
      'what be on',
      'what be in',
      'look like',
      'be … open',
      'be … closed',
      'take a look',
      'describe',
      'status of',
      'what be up',
      'can you see',
      'do you see',
    ],
  },
  {
    intent: 'create_watch',
    cues: [
      'watch',
      'keep … eye',
      'eye on',
      'monitor',
      'guard',
      // "the gate watch can go ahead tonight": the watch goes on, never "can go" standing it down
      'watch|watches can go ahead',
      'look out for',
      'keep watch',
      'let me know',
      'tell me if',
      'tell me when',
      'alert me',
      'notify me',
      'ping me',
      'warn me',
      'observe',
      'surveil',
      // "warn me if there's anyone…": the request wins over the question it contains ('be anyone')
      'alert me if|when',
      'notify me if|when',
      'ping me if|when',
      'warn me if|when',
      'keep tab|tabs',
      'set up … watch',
      'start watch|watching',
      'keep watch|watching',
      'keep … safe',
      'mind',
      'watched',
      'want to know if',
      'want to know when',
      'like to know if',
      'know if',
      'know when',
      'text me if|when',
      'message me if|when',
    ],
  },
  {
    intent: 'add_sensor',
    cues: ['add', 'hook up', 'hook … up', 'connect', 'install', 'installed', 'register', 'set up … camera', 'new camera', 'new sensor'],
  },
  {
    intent: 'set_location',
    cues: [
      'live in',
      'living in',
      'move to',
      'moved to',
      'home be in',
      'house be in',
      'we be in',
      'located in',
      'based in',
      'coordinate|coordinates',
      'time zone',
      'timezone',
      'location be',
    ],
  },
  { intent: 'rename_room', cues: ['rename', 'call the … from now on', 'call … instead'] },
  {
    intent: 'help',
    cues: ['what can you do', 'help', 'hi', 'hello', 'hey', 'thanks', 'thank you', 'what do you have', 'not sure', 'hold on', 'wait'],
  },
];

/** Verbs that start requests the agent cannot do (say so, take no action). */
export const OUT_OF_SCOPE_VERBS = new Set([
  'lock',
  'unlock',
  'open',
  'close',
  'shut',
  'order',
  'buy',
  'call',
  'phone',
  'ring',
  'dial',
  'play',
  'delete',
  'erase',
  'send',
  'email',
  'text',
  'message',
  'whatsapp',
  'share',
  'arm',
  'disarm',
  'book',
  'cook',
  'vacuum',
  'water',
  'feed',
  'dim',
  'brighten',
  'record',
  'download',
  'save',
  'upload',
  'zoom',
  'pan',
  'tilt',
]);

/** Devices in a home that Vigil never sets ("turn the heating down", "switch the lights off"): it only watches. */
export const DEVICE_NOUNS: ReadonlySet<string> = new Set([
  'light',
  'lights',
  'lamp',
  'lamps',
  'thermostat',
  'heating',
  'heater',
  'temperature',
  'blinds',
  'curtains',
  'tv',
  'television',
  'music',
  'lock',
  'locks',
]);

/** Things that are not sensors or rooms and that the agent cannot act on. */
export const OUT_OF_SCOPE_NOUNS = new Set([
  ...DEVICE_NOUNS,
  'degrees',
  'weather',
  'pizza',
  'food',
  'song',
  'songs',
  'playlist',
  'police',
  'ambulance',
  'alarm',
  'footage',
  'video',
  'videos',
  'recording',
  'recordings',
  'clip',
  'clips',
  'fire',
  'guards',
  'garda',
  'gardai',
  'cops',
]);

export const CONDITION_WORDS: Record<string, string> = {
  person: 'person',
  people: 'person',
  who: 'person',
  someone: 'person',
  somebody: 'person',
  anyone: 'person',
  anybody: 'person',
  visitor: 'person',
  visitors: 'person',
  visitor_s: 'person',
  persons: 'person',
  delivery: 'person',
  courier: 'person',
  stranger: 'unrecognized_person',
  strangers: 'unrecognized_person',
  intruder: 'unrecognized_person',
  intruders: 'unrecognized_person',
  unknown: 'unrecognized_person',
  unfamiliar: 'unrecognized_person',
  unrecognized: 'unrecognized_person',
  unrecognised: 'unrecognized_person',
  burglar: 'unrecognized_person',
  burglars: 'unrecognized_person',
  // what the cameras report (cars, cats and dogs, …): the nouns of the table of detection kinds (platform/kinds)
  ...WATCH_CONDITION_WORDS,
  open: 'door_open',
  opens: 'door_open',
  opened: 'door_open',
  opening: 'door_open',
  motion: 'motion',
  movement: 'motion',
  moves: 'motion',
  moving: 'motion',
  move: 'motion',
  loitering: 'loitering',
  loiter: 'loitering',
  loiters: 'loitering',
  lingering: 'loitering',
  linger: 'loitering',
  lurking: 'loitering',
  lurk: 'loitering',
  hanging: 'loitering',
};

/** Words that name a kind of sensor rather than a place. "sensor" fits any kind. */
export const KIND_WORDS: Record<string, 'camera' | 'contact' | 'motion' | 'any'> = {
  camera: 'camera',
  cameras: 'camera',
  cam: 'camera',
  cams: 'camera',
  webcam: 'camera',
  contact: 'contact',
  contacts: 'contact',
  motion: 'motion',
  pir: 'motion',
  sensor: 'any',
  sensors: 'any',
  device: 'any',
  devices: 'any',
};

/** Words meaning "every sensor in the home". */
export const WHOLE_HOME_WORDS = new Set(['everything', 'everywhere', 'house', 'home', 'place', 'all', 'whole', 'entire', 'every']);

/** Subjects too vague to act on: ask which. */
export const VAGUE_SUBJECTS = new Set(['things', 'thing', 'stuff', 'something', 'area', 'areas', 'outside', 'inside']);

/** References to something said before. */
export const REFERENCE_WORDS = new Set(['it', 'that', 'this', 'them', 'those', 'one', 'ones', 'there']);

/** Words that never name a place even when tagged as nouns. */
export const NON_PLACE_WORDS = new Set([
  'watch',
  'watches',
  'watching',
  'eye',
  'eyes',
  'tab',
  'tabs',
  'night',
  'nights',
  'morning',
  'evening',
  'hour',
  'hours',
  'minute',
  'minutes',
  'min',
  'mins',
  'day',
  'days',
  'time',
  'week',
  'weekend',
  'weekends',
  'weekday',
  'weekdays',
  'today',
  'tonight',
  'tomorrow',
  'yesterday',
  'now',
  'moment',
  'while',
  'holiday',
  'holidays',
  'vacation',
  'work',
  'trip',
  'alert',
  'alerts',
  'event',
  'events',
  'notification',
  'notifications',
  'boundary',
  'boundaries',
  'restriction',
  'limit',
  'limits',
  'privacy',
  'me',
  'you',
  'i',
  'we',
  'us',
  'please',
  'pls',
  'thanks',
  'thank',
  'ok',
  'okay',
  // tags said after a request ("mute the balcony cam na", "…, innit", "…, eh", "…, yaar"): no place's words
  'na',
  'innit',
  'eh',
  'yaar',
  'way',
  'bit',
  'sunset',
  'sunrise',
  'dusk',
  'dawn',
  'dark',
  'midnight',
  'noon',
  'half',
  'couple',
  'instead',
  'again',
  'anymore',
  'lot',
  'kind',
  'dog',
  'cat',
  'everyone',
  'nobody',
  'anything',
  'nothing',
  'name',
  'address',
  'url',
  'stream',
  'mind',
  'least',
  'next',
  'last',
  'past',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'pm',
  'am',
  'daybreak',
  'nightfall',
  'sundown',
  'hr',
  'hrs',
  'look',
  'status',
  'history',
  'earlier',
  'check',
  'sure',
  'which',
  'what',
  'who',
]);

/** The notices the agent sends: "send me a notification", "drop us a text" are its own way of telling. */
export const NOTICE_WORDS = new Set([
  'notification',
  'notifications',
  'alert',
  'alerts',
  'message',
  'messages',
  'text',
  'texts',
  'ping',
  'note',
  'heads',
  'push',
]);

/** How a new camera streams ("add the MJPEG camera…", "a WebRTC camera"): read by planAddSensor (offline-planner.ts). */
const STREAM_WORDS = ['mjpeg', 'mjpg', 'hls', 'whip', 'webrtc', 'publish', 'publishes', 'publisher', 'browser', 'rtsp', 'http', 'https', 'stream', 'feed'];

/** The parts of a watch a change names ("push the end to 1", "make the start earlier"). */
const WATCH_PART_WORDS = ['start', 'end', 'finish', 'beginning', 'time', 'times', 'window', 'hours', 'schedule'];

let plannerWords: Set<string> | undefined;

/**
 * Words the planner reads by itself: its cue words (not the verbs of what it cannot do, "text",
 * "call"), conditions, sensor kinds, references, whole-home and vague subjects, words that never
 * name a place, the parts of a watch and how a camera streams. Left over, such a word is no action
 * or thing the reading missed (src/platform/language/content-words.ts).
 */
export function isPlannerWord(word: string): boolean {
  if (!plannerWords) {
    plannerWords = new Set([
      ...INTENT_CUES.flatMap(({ cues }) => cues.flatMap((cue) => cue.split(/[ |]/))).filter((w) => w !== '…' && !OUT_OF_SCOPE_VERBS.has(w)),
      ...Object.keys(CONDITION_WORDS),
      ...Object.keys(KIND_WORDS),
      ...REFERENCE_WORDS,
      ...WHOLE_HOME_WORDS,
      ...VAGUE_SUBJECTS,
      ...NON_PLACE_WORDS,
      ...WATCH_PART_WORDS,
      ...STREAM_WORDS,
    ]);
  }
  return plannerWords.has(word);
}

/** Words the typo corrector may correct towards (beyond room and sensor names). */
export function listCorrectableWords(): string[] {
  const words = new Set<string>();
  for (const { cues } of INTENT_CUES) {
    for (const cue of cues) for (const part of cue.split(' ')) for (const w of part.split('|')) if (w !== '…') words.add(w);
  }
  for (const w of Object.keys(CONDITION_WORDS)) words.add(w);
  for (const w of Object.keys(KIND_WORDS)) words.add(w);
  for (const w of [
    'tonight',
    'tomorrow',
    'sunset',
    'sunrise',
    'midnight',
    'morning',
    'until',
    'happening',
    'watching',
    'monitoring',
    'everything',
    'overnight',
    'weekdays',
    'weekends',
    'every',
    'nightly',
    'boundary',
    'alone',
    'again',
    'minutes',
    'hours',
    'yesterday',
    'weekend',
    'evening',
    'sundown',
    'daybreak',
    'happened',
    'please',
    'anymore',
    'instead',
  ])
    words.add(w);
  return [...words].filter((w) => w.length >= 3);
}

/**
 * Where people arrive at a home: a camera whose room or name holds one of these watches the way
 * in ("let me know when Maria arrives" → the porch and driveway cameras, not the nursery).
 */
export const ENTRANCE_WORDS = new Set([
  'porch',
  'driveway',
  'drive',
  'door',
  'doorway',
  'doorstep',
  'front',
  'gate',
  'entrance',
  'entry',
  'entryway',
  'foyer',
  'hall',
  'hallway',
  'stoop',
  'doorbell',
  'carport',
  'lobby',
]);

/** Arriving: "arrives", "gets home", "comes by", "shows up", "pulls in" (the verb, any form). */
export const ARRIVAL_PHRASES =
  /\b(arriv\w*|(?:gets?|getting|got|comes?|coming|came) (?:home|back|here|by|over|round|around)|(?:shows?|showing|showed|turns?|turning|turned) up|(?:drops?|dropping|dropped|stops?|stopping|stopped|pops?|popping|popped) (?:by|in|round)|(?:pulls?|pulling|pulled) (?:in|up)|is (?:home|here|back)|returns?|returning|reach\w* (?:home|here))\b/;
