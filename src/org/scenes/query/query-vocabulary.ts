/**
 * The words the scene-query language understands, grouped by what they signal. Words are listed
 * in plain form; the tokenizer compares Porter stems, so "arrived", "arrivals" and "arriving" all
 * hit "arrive". Every word of a question must land in one of these groups (or be the scene's
 * location) or the question is refused: that is what keeps the interpreter from guessing.
 */
import { COUNTED_KINDS } from '../../../platform/kinds/index.ts';

/** The nouns of the counted kinds of the table of detection kinds that have no role of their own here (vehicles have). */
const OBJECT_NOUNS: readonly string[] = COUNTED_KINDS.filter((k) => k.type !== 'vehicle').flatMap((k) => k.words?.nouns ?? []);

export type WordRole =
  | 'people'
  | 'vehicles'
  | 'anomaly'
  | 'unrecognized'
  | 'loitering'
  | 'crowd'
  | 'peak'
  | 'average'
  | 'arrivals'
  | 'presence'
  | 'count'
  | 'current'
  | 'past'
  | 'future'
  | 'command'
  | 'place'
  | 'named_place'
  | 'trend_up'
  | 'trend_down'
  | 'trend'
  | 'last'
  | 'dwell'
  | 'activity'
  | 'empty'
  | 'level_busy'
  | 'level_crowded'
  | 'level_full'
  | 'level_quiet'
  | 'any_point'
  | 'departures'
  | 'comparative_up'
  | 'comparative_down'
  | 'minimum'
  | 'usual'
  | 'becoming'
  | 'vehicle_kind'
  | 'undetected_kind'
  | 'people_kind'
  | 'animals'
  | 'other_animal'
  | 'objects'
  | 'only'
  | 'first'
  | 'appearance'
  | 'device'
  | 'filler';

export const WORDS_BY_ROLE: Record<WordRole, readonly string[]> = {
  people: [
    'face', 'faces', 'passerby', 'passersby', 'shopper', 'shoppers', 'tenant', 'tenants', 'resident', 'residents', 'patron', 'patrons', 'client', 'clients', 'crowds',
    'people', 'person', 'persons', 'folk', 'folks', 'human', 'humans', 'visitor', 'visitors', 'guest', 'guests',
    'individual', 'individuals', 'occupant', 'occupants', 'staff', 'employee', 'employees', 'worker', 'workers',
    'customer', 'customers', 'man', 'woman', 'guy', 'guys', 'bloke', 'blokes', 'chap', 'chaps', 'fella', 'fellas',
    'fellow', 'dude', 'dudes', 'gent', 'punter', 'punters',
    'who', 'pedestrian', 'pedestrians', 'body', 'bodies', 'headcount', 'busiest',
    // presence words that can only mean people
    'anyone', 'anybody', 'someone', 'somebody', 'nobody', 'everyone', 'everybody', 'empty', 'occupied', 'vacant',
    'deserted', 'unoccupied',
  ],
  vehicles: [
    'vehicle', 'vehicles', 'car', 'cars', 'truck', 'trucks', 'van', 'vans', 'bus', 'buses', 'suv', 'suvs',
    'motorcycle', 'motorcycles', 'motorbike', 'motorbikes', 'auto', 'autos', 'automobile', 'automobiles',
    'lorry', 'lorries', 'pickup', 'pickups', 'taxi', 'taxis', 'cab', 'cabs', 'traffic',
  ],
  /**
   * Cats and dogs (detection type animal). Other nouns whose usual WordNet sense is a cat, a dog
   * or an animal in general ("pooch", "tabby", "critter") are added by the tokenizer; nouns for
   * animals the cameras do not report ("bird") get `other_animal` there and are refused.
   */
  animals: [
    'animal', 'animals', 'pet', 'pets', 'cat', 'cats', 'dog', 'dogs', 'kitten', 'kittens', 'kitty', 'kitties',
    'puppy', 'puppies', 'pup', 'pups', 'doggy', 'doggie', 'critter', 'critters',
  ],
  other_animal: [],
  /** counted kinds without a role of their own (bicycles, …): the nouns of the table of detection kinds (platform/kinds), answered by query-kinds.ts */
  objects: OBJECT_NOUNS,
  /** "was it only the cat": with animals, whether nothing but animals was seen; otherwise not understood */
  only: ['only'],
  anomaly: [
    'allclear',
    'unusual', 'anomaly', 'anomalies', 'anomalous', 'abnormal', 'strange', 'suspicious', 'weird', 'odd',
    'unexpected', 'wrong', 'sketchy', 'concerning', 'alarming', 'threat', 'threats', 'problem', 'problems',
    'issue', 'issues', 'incident', 'incidents', 'off', 'shady', 'dodgy', 'sus',
  ],
  unrecognized: [
    'intrusion', 'intrusions', 'breach', 'breaches', 'breakin', 'breakins',
    'unfamiliar',
    'unrecognized', 'unrecognised', 'unknown', 'unidentified', 'stranger', 'strangers', 'intruder', 'intruders',
    'trespasser', 'trespassers', 'unfamiliar', 'unauthorized', 'unauthorised',
  ],
  loitering: ['longstay', 'loiter', 'loitering', 'loiterer', 'loiterers', 'linger', 'lingering', 'lurk', 'lurking', 'lurker'],
  crowd: [
    'percentage', 'percent', 'nearlyfull',
    'crowd', 'crowded', 'busy', 'packed', 'full', 'fullest', 'capacity', 'occupancy', 'density', 'dense',
    'quiet', 'jammed', 'rammed', 'cramped', 'calm', 'dead', 'overcrowded', 'heaving', 'mobbed', 'swamped', 'busier',
    'quieter', 'calmer', 'fuller', 'emptier', 'quietest', 'emptiest', 'leastbusy', 'bustling', 'hectic',
  ],
  peak: [
    'peak', 'peaked', 'max', 'maximum', 'most', 'highest', 'busiest', 'fullest', 'top', 'greatest', 'biggest',
    'largest', 'high',
  ],
  average: ['average', 'avg', 'mean', 'typical', 'typically', 'usually', 'normally', 'generally', 'averagedwell'],
  /** "how many people are usually here?": the same time on earlier days when no span is named */
  usual: ['typical', 'typically', 'usually', 'normally', 'generally', 'usual', 'normal', 'ordinarily'],
  /** the lowest count: "quietest it got today", "fewest people since 9" */
  minimum: ['minimum', 'min', 'lowest', 'fewest', 'quietest', 'emptiest', 'slowest', 'leastbusy'],
  arrivals: [
    'inandout',
    'arrive', 'arrived', 'arrival', 'arrivals', 'enter', 'entered', 'entering', 'entry', 'entries', 'visit',
    'visited', 'total', 'unique', 'distinct', 'different', 'came', 'come', 'walk', 'walked', 'drive', 'drove',
    'pull', 'pulled',
    // "how many times did Anna pass the gate": going through the place is arriving at it
    'pass', 'passed', 'passing',
  ],
  presence: [
    'any', 'anyone', 'anybody', 'someone', 'somebody', 'nobody', 'empty', 'occupied', 'vacant', 'present',
  ],
  count: ['howmany', 'howmuch', 'count', 'number', 'tally', 'headcount'],
  current: ['now', 'currently', 'presently', 'still', 'live', 'moment'],
  past: [
    'was', 'were', 'did', 'had', 'been', 'got', 'saw', 'seen', 'went', 'came', 'peaked', 'earlier', 'lately',
    'recently', 'recent',
  ],
  future: [
    'will', 'shall', 'tomorrow', 'next', 'later', 'upcoming', 'soon', 'expect', 'expected', 'forecast',
    'predict', 'prediction', 'gonna',
  ],
  command: [
    'open', 'close', 'shut', 'lock', 'unlock', 'turn', 'switch', 'call', 'dispatch', 'notify', 'send',
    'alert', 'page', 'text', 'email', 'message', 'delete', 'remove', 'start', 'stop', 'arm', 'disarm',
    'trigger', 'sound', 'play', 'set', 'create', 'add', 'mute', 'unmute', 'enable', 'disable',
    'pause', 'resume', 'escalate', 'activate', 'deactivate', 'reset', 'kick', 'ban', 'block', 'zoom', 'pan',
  ],
  /** words that mean "this scene", whatever its location */
  place: [
    'here', 'there', 'area', 'place', 'scene', 'camera', 'cam', 'site', 'premises', 'zone', 'spot', 'inside',
    'outside', 'location', 'view', 'feed', 'stream', 'property',
  ],
  /** specific places: accepted only when they are part of the scene's location label */
  named_place: [
    'lobby', 'lot', 'parking', 'carpark', 'garage', 'driveway', 'entrance', 'exit', 'hall', 'hallway',
    'corridor', 'office', 'kitchen', 'yard', 'backyard', 'garden', 'gate', 'room', 'door', 'doorway', 'porch',
    'foyer', 'reception', 'warehouse', 'dock', 'loading', 'street', 'road', 'floor', 'stairs', 'stairwell',
    'elevator', 'lift', 'store', 'shop', 'basement', 'roof', 'rooftop',
    'perimeter', 'fence', 'patio', 'deck', 'pool', 'atrium', 'plaza', 'gym', 'bar', 'restaurant', 'cafe',
    'school', 'classroom', 'bedroom', 'bathroom', 'cashier', 'checkout', 'counter', 'desk', 'bay',
    'platform', 'terminal', 'upstairs', 'downstairs', 'wing',
  ],
  /** the count rising: "has the crowd been growing?", "is it getting busier" */
  trend_up: [
    'gathering', 'forming', 'buildingup', 'ramping',
    'growing', 'grow', 'grew', 'grown', 'increasing', 'increase', 'increased', 'rising', 'rise', 'rose', 'risen',
    'climbing', 'climbed', 'swelling', 'swelled', 'filling', 'goingup', 'pickingup', 'more_and_more',
  ],
  /** the count falling: "is it quieting down", "has the crowd thinned out" */
  trend_down: [
    'shrinking', 'shrink', 'shrank', 'decreasing', 'decrease', 'decreased', 'dropping', 'dropped', 'falling',
    'fell', 'thinning', 'thinned', 'slowing', 'slowed', 'declining',
    'declined', 'dwindling', 'goingdown', 'dyingdown', 'calmingdown', 'quietingdown', 'clearingout',
  ],
  trend: ['trend', 'trending', 'trends', 'trajectory'],
  /**
   * Comparatives say "more than something": a trend with "getting"/"becoming" ("getting busier"),
   * otherwise the question must say than what ("busier than usual"), or it is refused.
   */
  comparative_up: ['busier', 'fuller', 'crowdeder', 'packeder', 'heavier'],
  comparative_down: ['quieter', 'calmer', 'emptier', 'slower', 'lighter'],
  /**
   * Kinds of vehicle the detections do not tell apart (a vehicle row has no kind): a question
   * about trucks only must not be answered with every car.
   */
  vehicle_kind: [
    'truck', 'trucks', 'van', 'vans', 'bus', 'buses', 'motorcycle', 'motorcycles', 'motorbike', 'motorbikes',
    'lorry', 'lorries', 'pickup', 'pickups', 'taxi', 'taxis', 'cab', 'cabs', 'suv', 'suvs', 'ambulance', 'police', 'delivery',
  ].filter((w) => !OBJECT_NOUNS.includes(w)), // a kind the table counts on its own is not a kind of vehicle
  /** things the detector does not report at all; a kind the table of detection kinds counts (bicycle) is left out */
  undetected_kind: ['bike', 'bikes', 'bicycle', 'bicycles', 'cyclist', 'cyclists', 'scooter', 'scooters', 'skateboard', 'skateboards', 'pram', 'prams', 'stroller', 'strollers', 'wheelchair', 'wheelchairs'].filter(
    (w) => !OBJECT_NOUNS.includes(w),
  ),
  /**
   * Kinds of people the cameras do not tell apart (no age, no sex): "how many kids" must not be
   * answered with every person. A singular "that guy", "that bloke" points at a person and is people.
   */
  people_kind: [
    'kid', 'kids', 'kiddie', 'kiddies', 'child', 'children', 'toddler', 'toddlers', 'baby', 'babies', 'infant', 'infants',
    'teen', 'teens', 'teenager', 'teenagers', 'youth', 'youths', 'adult', 'adults', 'boy', 'boys',
    'girl', 'girls', 'men', 'women', 'ladies', 'gentlemen', 'elderly', 'pensioner', 'pensioners', 'male', 'males', 'female', 'females',
  ],
  /** leaving: "how many people left", "when did the last car leave" */
  departures: ['inandout', 'leave', 'left', 'leaving', 'leaves', 'depart', 'departed', 'departing', 'departure', 'departures', 'walkedout', 'droveoff'],
  /** "when was the last car seen?", "latest arrival", "most recent" */
  last: ['last', 'latest', 'mostrecent', 'lasttime'],
  /** "when was the first car seen this morning?", "earliest arrival" */
  first: ['first', 'earliest', 'firsttime'],
  /** "how long" something stayed */
  dwell: ['averagedwell', 'howlong', 'dwell', 'dwelling', 'dwelled', 'dwelt', 'longest', 'spend', 'spent', 'spends', 'spending'],
  /** a general "what happened" question */
  activity: [
    'summary', 'overview', 'rundown', 'recap', 'sitrep', 'status', 'update', 'report', 'situation', 'goings','activity', 'activities', 'movement', 'movements', 'motion', 'happen', 'happened', 'happening', 'goingon', 'event', 'events'],
  /** presence asked as absence */
  empty: ['empty', 'vacant', 'deserted', 'unoccupied', 'nobody'],
  /** crowd levels a yes/no question can name */
  level_busy: ['busy', 'bustling', 'hectic'],
  level_crowded: [
    'nearlyfull', 'crowded', 'packed', 'jammed', 'rammed', 'cramped', 'overcrowded', 'heaving', 'mobbed', 'swamped'],
  level_full: ['full'],
  level_quiet: ['quiet', 'calm', 'dead'],
  /** "getting busy", "becoming crowded": a change, not a level */
  becoming: ['getting', 'becoming', 'gotten', 'turning', 'growing', 'grown'],
  /** "ever", "at any point": the question is about any moment of the range */
  any_point: ['ever', 'anypoint'],
  /**
   * What someone looked like or wore: the cameras count and track people, they keep no
   * description of them (docs/decisions.md, "Scene questions: round D's causes").
   */
  appearance: [
    'lookslike', 'describe', 'described', 'description', 'wearing', 'wore', 'worn', 'dressed', 'clothes', 'clothing',
    'outfit', 'colour', 'color', 'height', 'tall', 'hair', 'jacket', 'hoodie', 'hat', 'carrying', 'carried',
  ],
  /**
   * Devices and systems outside the camera's data ("did the alarm go off?"): an alarm is not an
   * unusual sighting. "alarm" is rewritten to 'alarmsystem' before stemming, since its stem is
   * the stem of "alarming" (an anomaly word).
   */
  device: ['alarmsystem', 'siren', 'sirens', 'sensor', 'sensors', 'sprinkler', 'sprinklers', 'doorbell', 'buzzer', 'intercom'],
  filler: [
    'acting', 'behaving', 'act', 'should', 'have', 'been', 'seem', 'seems', 'seemed', 'appear', 'appears', 'currently',
    'a', 'an', 'the', 'is', 'are', 'am', 'be', 'being', 'do', 'does', 'has', 'have', 'having', 'it', 'its',
    'this', 'that', 'these', 'those', 'i', 'me', 'my', 'we', 'us', 'our', 'you', 'your', 'they', 'them',
    'their', 'he', 'she', 'on', 'at', 'of', 'to', 'for', 'from', 'by', 'with', 'into', 'within', 'during',
    'over', 'throughout', 'through', 'since', 'after', 'before', 'until', 'till', 'between', 'around', 'about',
    'near', 'up', 'out', 'in', 'what', 'whats', 'how', 'hows', 'when', 'many', 'much', 'plenty', 'can', 'could',
    'would', 'please', 'tell', 'show', 'give', 'let', 'know', 'get', 'check', 'see', 'look', 'looking',
    'find', 'wondering', 'wonder', 'want', 'need', 'quick', 'question', 'hey', 'hi', 'hello', 'yo', 'ok',
    'okay', 'so', 'well', 'like', 'just', 'um', 'uh', 'lol', 'thanks', 'thank', 'and', 'or', 'not', 'no',
    'yes', 'all', 'some', 'one', 'ones', 'every', 'each', 'ever', 'yet', 'already', 'again', 'time', 'times',
    'point', 'level', 'levels', 'very', 'really', 'pretty', 'kinda', 'sort', 'kind', 'actually', 'exactly',
    'roughly', 'approximately', 'approx', 'right', 'anything', 'something', 'thing', 'things',
    'going', 'go', 'gone', 'hanging', 'sitting', 'standing', 'waiting',
    'spotted', 'detected', 'noticed', 'notice', 'observed', 'picked', 'recorded', 'caught',
    'today', 'far', 'back', 'guess', 'say', 'said',
    'status', 'update', 'report', 'info', 'situation', 'looks', 'feel', 'think', 'other', 'than', 'more',
    'less', 'same', 'shift', 'if', 'then', 'whether', 'too', 'also', 'stuff', 'gotten',
    'gets', 'getting', 'become', 'became', 'stay', 'stayed', 'staying', 'long', 'longer', 'while', 'period',
    'window', 'stretch', 'span', 'hour', 'hours', 'minute', 'minutes', 'stay', 'stayed', 'visit', 'visits', 'visitor', 'sighting', 'sightings', 'overall', 'altogether', 'together', 'amount', 'figure', 'figures', 'stats',
  ],
};

/**
 * Names people use interchangeably for one kind of place: a scene whose location label contains
 * one of them also answers to the others ("car park" for 'parking_lot').
 */
export const PLACE_ALIASES: ReadonlyArray<readonly string[]> = [
  ['lot', 'parking', 'carpark'],
  ['lobby', 'foyer', 'reception'],
  ['shop', 'store'],
  ['hall', 'hallway', 'corridor'],
  ['entrance', 'entry', 'doorway', 'door', 'doors', 'entryway', 'doorstep'],
  ['yard', 'backyard', 'garden'],
  ['stairs', 'stairwell'],
  ['elevator', 'lift'],
  ['roof', 'rooftop'],
];

/**
 * Casual spellings and typos, replaced word for word before anything else reads the question
 * (time phrases included, so "2day" and "ystrday" reach chrono as "today" and "yesterday").
 */
export const WORD_REPLACEMENTS: Readonly<Record<string, string>> = {
  ppl: 'people', ppls: 'people', pple: 'people', peeps: 'people', pax: 'people',
  peopel: 'people', poeple: 'people', ppel: 'people',
  rn: 'now', atm: 'now', nw: 'now',
  r: 'are', u: 'you', ur: 'your', ya: 'you', n: 'and', wat: 'what', wut: 'what', wht: 'what', hw: 'how',
  mny: 'many', mnay: 'many', abt: 'about', pls: 'please', plz: 'please', thx: 'thanks', ty: 'thanks',
  veh: 'vehicle', vehs: 'vehicles', vehicals: 'vehicles', vehicels: 'vehicles', vehicules: 'vehicles',
  vehical: 'vehicle', vechicle: 'vehicle', vechicles: 'vehicles', cnt: 'count',
  '2day': 'today', tday: 'today', '2nite': 'tonight', tonite: 'tonight', '2morrow': 'tomorrow',
  tmrw: 'tomorrow', tmr: 'tomorrow', tomoz: 'tomorrow', yday: 'yesterday', yest: 'yesterday',
  ystrday: 'yesterday', yesterdy: 'yesterday', hr: 'hour', hrs: 'hours', mins: 'minutes', min: 'minutes',
  secs: 'seconds', sec: 'seconds', any1: 'anyone', some1: 'someone', sum1: 'someone', ne1: 'anyone',
  smth: 'something', sth: 'something', lotta: 'plenty', gonna: 'will', wanna: 'want', unrecognised: 'unrecognized',
  // "emptying" shares its stem with "empty": read it as the fall it is, before stemming
  emptying: 'clearingout', emptied: 'clearingout',
  // the device, not "alarming" (which shares its stem): see the 'device' role
  alarm: 'alarmsystem', alarms: 'alarmsystem',
  thru: 'through',
  // apostrophes people skip: read as the contraction would be
  dont: 'do not', doesnt: 'does not', didnt: 'did not', isnt: 'is not', wasnt: 'was not', arent: 'are not',
  werent: 'were not', hasnt: 'has not', havent: 'have not', cant: 'can not', wont: 'will not', whats: 'what is',
  hows: 'how is', whens: 'when is', wheres: 'where is', whos: 'who is', thats: 'that is', theres: 'there is',
  parked: 'present', exited: 'left', exiting: 'leaving', exits: 'leaves', percent: 'percent', pct: 'percent', loiterin: 'loitering', happenin: 'happening', goin: 'going', hangin: 'hanging',
};

/**
 * Fixed multi-word expressions that mean one thing, rewritten after the time phrase is removed.
 * Longest match wins. An empty replacement drops the words ("at once" adds nothing).
 */
export const PHRASE_REPLACEMENTS: ReadonlyArray<[phrase: string, replacement: string]> = [
  ['right now', 'now'],
  // "what did the intruder look like?": a description the cameras do not keep
  ['look like', 'lookslike'],
  ['looks like', 'lookslike'],
  ['looked like', 'lookslike'],
  ['as of now', 'now'],
  ['as of right now', 'now'],
  ['as it stands', 'now'],
  ['as things stand', 'now'],
  ['at this moment', 'now'],
  ['at this very moment', 'now'],
  ['this minute', 'now'],
  // "clear of people", "free of vehicles": empty of them
  ['clear of', 'empty'],
  ['free of', 'empty'],
  ['devoid of', 'empty'],
  // "no. of people", "nr of cars", "# of vehicles" (the "#" is dropped by the normaliser)
  ['no of', 'howmany'],
  ['nr of', 'howmany'],
  ['num of', 'howmany'],
  ['the first time', 'firsttime'],
  ['first time', 'firsttime'],
  ['at the moment', 'now'],
  ['at present', 'now'],
  ['as we speak', 'now'],
  ['how many', 'howmany'],
  ['how much', 'howmuch'],
  ['number of', 'howmany'],
  ['on average', 'average'],
  ['in total', 'total'],
  ['a lot of', 'plenty'],
  ['lots of', 'plenty'],
  ['any one', 'anyone'],
  ['no one', 'nobody'],
  ['not recognized', 'unrecognized'],
  ['not recognize', 'unrecognized'],
  ['do not recognize', 'unrecognized'],
  ['not recognise', 'unrecognized'],
  ['do not recognise', 'unrecognized'],
  ['did not recognise', 'unrecognized'],
  ['not recognised', 'unrecognized'],
  ['someone you did not recognize', 'stranger'],
  ['someone you did not recognise', 'stranger'],
  ['someone we did not recognize', 'stranger'],
  ['someone we did not recognise', 'stranger'],
  ['anyone you did not recognize', 'stranger'],
  ['anyone you did not recognise', 'stranger'],
  ['anyone we did not recognize', 'stranger'],
  ['anyone we did not recognise', 'stranger'],
  ['someone you do not recognize', 'stranger'],
  ['someone you do not recognise', 'stranger'],
  ['anyone you do not recognize', 'stranger'],
  ['anyone you do not recognise', 'stranger'],
  ['down there', 'there'],
  ['over there', 'there'],
  ['up there', 'there'],
  ['down here', 'here'],
  ['did not recognize', 'unrecognized'],
  ['do not know', 'unrecognized'],
  ['break in', 'intruder'],
  ['break ins', 'intruder'],
  ['after hours', 'afterhours'],
  ['out of hours', 'afterhours'],
  ['outside business hours', 'afterhours'],
  ['outside opening hours', 'afterhours'],
  ['broke in', 'intruder'],
  ['broken in', 'intruder'],
  ['breaking in', 'intruder'],
  ['all quiet', 'allclear'],
  ['all clear', 'allclear'],
  ['all good', 'allclear'],
  ['all ok', 'allclear'],
  ['all okay', 'allclear'],
  ['everything ok', 'allclear'],
  ['everything okay', 'allclear'],
  ['everything alright', 'allclear'],
  ['everything all right', 'allclear'],
  ['everything fine', 'allclear'],
  ['everything normal', 'allclear'],
  ['near capacity', 'nearlyfull'],
  ['least busy', 'leastbusy'],
  ['least crowded', 'leastbusy'],
  ['least people', 'fewest'],
  ['least amount of people', 'fewest'],
  ['close to capacity', 'nearlyfull'],
  ['nearly full', 'nearlyfull'],
  ['almost full', 'nearlyfull'],
  ['near full', 'nearlyfull'],
  ['building up', 'buildingup'],
  ['built up', 'buildingup'],
  ['ramping up', 'ramping'],
  ['not recognised', 'unrecognized'],
  ['out of the ordinary', 'unusual'],
  ['up to no good', 'suspicious'],
  ['hanging around', 'loitering'],
  ['hanging round', 'loitering'],
  ['hang round', 'loitering'],
  ['hung round', 'loitering'],
  ['hanging out', 'loitering'],
  ['standing around', 'loitering'],
  ['waiting around', 'loitering'],
  ['hanging about', 'loitering'],
  ['hang about', 'loitering'],
  ['hung about', 'loitering'],
  ['hang around', 'loitering'],
  ['hung around', 'loitering'],
  ['sticking around', 'loitering'],
  ['stuck around', 'loitering'],
  ['in and out', 'inandout'],
  ['came in and out', 'inandout'],
  ['come in and out', 'inandout'],
  ['coming in and out', 'inandout'],
  ['going in and out', 'inandout'],
  ['went in and out', 'inandout'],
  ['coming and going', 'inandout'],
  ['comings and goings', 'inandout'],
  ['came in', 'arrive'],
  ['come in', 'arrive'],
  ['walked in', 'arrive'],
  ['showed up', 'arrive'],
  ['show up', 'arrive'],
  ['shown up', 'arrive'],
  ['turned up', 'arrive'],
  ['pulled in', 'arrive'],
  ['drove in', 'arrive'],
  ['checked in', 'arrive'],
  ['came through', 'arrive'],
  ['came by', 'arrive'],
  ['stopped by', 'arrive'],
  ['dropped by', 'arrive'],
  ['passed through', 'arrive'],
  ['went through', 'arrive'],
  ['car park', 'carpark'],
  ['walked out', 'walkedout'],
  ['went out', 'walkedout'],
  ['drove off', 'droveoff'],
  ['drove away', 'droveoff'],
  ['pulled out', 'droveoff'],
  ['pulled away', 'droveoff'],
  ['at once', ''],
  ['at one time', ''],
  ['at a time', ''],
  ['at any point', 'anypoint'],
  ['at any one time', 'anypoint'],
  ['at any time', 'anypoint'],
  ['at some point', 'anypoint'],
  ['at one point', 'anypoint'],
  ['how long', 'howlong'],
  // "anyone been hanging around for a long time?": a stay long enough to be loitering
  ['for a long time', 'longstay'],
  ['a long time', 'longstay'],
  ['for ages', 'longstay'],
  ['for a while', 'longstay'],
  // "the average stay", "length of stay", "time spent here": how long people stayed, not how many
  ['average stay', 'averagedwell'],
  ['average length of stay', 'averagedwell'],
  ['mean stay', 'averagedwell'],
  ['typical stay', 'averagedwell'],
  ['average visit length', 'averagedwell'],
  ['average visit', 'averagedwell'],
  ['length of stay', 'dwell'],
  ['length of the stay', 'dwell'],
  ['longest stay', 'longest'],
  ['longest visit', 'longest'],
  ['time spent', 'dwell'],
  ['how many minutes', 'howlong'],
  ['how many hours', 'howlong'],
  ['for how many minutes', 'howlong'],
  ['for how many hours', 'howlong'],
  ['most recent', 'mostrecent'],
  ['most recently', 'mostrecent'],
  ['last time', 'lasttime'],
  ['going on', 'goingon'],
  ['went on', 'goingon'],
  ['going up', 'goingup'],
  ['gone up', 'goingup'],
  ['went up', 'goingup'],
  ['picking up', 'pickingup'],
  ['more and more', 'more_and_more'],
  ['going down', 'goingdown'],
  ['gone down', 'goingdown'],
  ['went down', 'goingdown'],
  ['dying down', 'dyingdown'],
  ['died down', 'dyingdown'],
  ['calming down', 'calmingdown'],
  ['calmed down', 'calmingdown'],
  ['quieting down', 'quietingdown'],
  ['quietened down', 'quietingdown'],
  ['quieted down', 'quietingdown'],
  // British spellings and other inflections of the same phrasal verbs
  ['quietening down', 'quietingdown'],
  ['quietens down', 'quietingdown'],
  ['quiets down', 'quietingdown'],
  ['calms down', 'calmingdown'],
  ['dies down', 'dyingdown'],
  ['goes down', 'goingdown'],
  ['settling down', 'calmingdown'],
  ['settled down', 'calmingdown'],
  ['easing off', 'goingdown'],
  ['eased off', 'goingdown'],
  ['tailing off', 'goingdown'],
  ['tailed off', 'goingdown'],
  ['winding down', 'goingdown'],
  ['wound down', 'goingdown'],
  ['letting up', 'goingdown'],
  ['let up', 'goingdown'],
  ['thins out', 'thinning'],
  ['clears out', 'clearingout'],
  ['fills up', 'filling'],
  ['goes up', 'goingup'],
  ['picks up', 'pickingup'],
  ['slowing down', 'slowing'],
  ['slowed down', 'slowing'],
  ['thinning out', 'thinning'],
  ['thinned out', 'thinning'],
  ['cleared out', 'clearingout'],
  ['clearing out', 'clearingout'],
  ['emptied out', 'emptied'],
  ['emptying out', 'emptying'],
  ['filling up', 'filling'],
  ['filled up', 'filling'],
  ['foot traffic', 'pedestrians'],
  ['footfall', 'pedestrians'],
  ['so far', ''],
  ['in here', 'here'],
  ['in there', 'there'],
  ['out there', 'there'],
];
