import type { DetectionRecord } from '../../detections/index.ts';

/** What the service knows when a question arrives (POST /v1/scenes/:scene_id/query). */
export interface QueryContext {
  /** epoch ms the question is answered at */
  now: number;
  /** the request's `window`, already parsed with parseWindow; DEFAULT_QUERY_WINDOW_MS when the request has none */
  windowMs: number;
  /** 'default' when the request gave no `window` (the interpretation then says the default was used); 'request' otherwise */
  windowSource?: 'request' | 'default';
  /** IANA zone of the scene, e.g. 'America/New_York' */
  timeZone: string;
  /** the scene's location label, snake_case, e.g. 'lobby' or 'parking_lot' */
  location: string;
  /**
   * animal subtypes other than cat and dog that the scene's detections hold and the question named
   * (InterpretResult.animals, looked up by the caller): such a question is answered from them (other-animals.ts)
   */
  animalsSeen?: readonly string[];
}

/** objects: a counted kind of the table of detection kinds without a metric of its own (bicycles, …; `kind` says which; query-kinds.ts) */
export type Metric = 'people' | 'vehicles' | 'anomalies' | 'crowd_density' | 'activity' | 'animals' | 'objects' | 'camera';

/** metric camera: a question about the cameras themselves (camera-status.ts) */
export interface CameraQuestion {
  /** the words the question names the camera by ("car park", "gate"); empty: the scene's cameras */
  name: string[];
  /** when its last picture came, whether it works, or whether it is down */
  asks: 'last_frame' | 'working' | 'not_working';
}

export type Aggregate =
  | 'current'
  | 'peak'
  | 'average'
  | 'arrivals'
  | 'presence'
  | 'list'
  /** the lowest count in the range ("when was it quietest today?") */
  | 'minimum'
  /** is the count rising or falling over the range ("has the crowd been growing?") */
  | 'trend'
  /** when the metric was last seen ("when was the last car seen?") */
  | 'last_seen'
  /** two times compared ("compare this morning with yesterday morning") */
  | 'compare'
  /** when the metric was first seen in the range ("when was the first car seen this morning?") */
  | 'first_seen'
  /** when the latest arrival was ("when did someone last come in") */
  | 'last_arrival'
  /** how many left ("how many people left since 9") */
  | 'departures'
  /** when the latest departure was ("when did the last car leave") */
  | 'last_departure'
  /** a yes/no comparison with a number ("more than 5 people at any point") */
  | 'threshold'
  /** how long tracked people (or vehicles) have stayed ("how long has that guy been hanging around") */
  | 'dwell'
  /** the range (or now) against the same time of day on earlier days ("more people than usual?") */
  | 'vs_usual'
  /** an overview: arrivals, peak, vehicles, anomalies ("what happened this afternoon?") */
  | 'summary'
  /** animals: whether only animals and no people were seen ("was it just the cat?") */
  | 'only';

export type Comparison = '>' | '>=' | '<' | '<=';

export interface Threshold {
  op: Comparison;
  /** the number compared with; for `capacity` questions, the scene capacity (filled in by the answerer) */
  value: number;
  /** "over capacity": compare with the scene's capacity instead of a number */
  capacity?: boolean;
  /** "over 50%": `value` is a percentage of the scene's capacity */
  share?: boolean;
  /**
   * which reading is compared: the one now/at the moment, the highest, the lowest, the arrivals,
   * or the first reading of the range that meets it ("when did it first go above 30?")
   */
  basis: 'current' | 'peak' | 'minimum' | 'arrivals' | 'first';
}

/**
 * What a question was understood to ask. `from === to` marks a question about one moment
 * ("how many people are here now", "was anyone here at 9:30"); otherwise it is about a span.
 */
export interface Interpretation {
  metric: Metric;
  aggregate: Aggregate;
  from: number;
  to: number;
  /** when the question was asked (epoch ms): a range ending here is about "now" */
  asked_at: number;
  /** true when the question expects a yes or no ("is the lobby crowded?"): the answer starts with one */
  yes_no?: boolean;
  /** presence asked the other way round ("is the lobby empty?"): "yes" means nobody is there */
  expect_empty?: boolean;
  /** presence asked "ever empty" over a span ("was it ever empty this morning"): yes when any reading in it counted none */
  ever_empty?: boolean;
  /** arrivals asked in the present ("how many people are here today"): the latest count is said beside them */
  present_too?: boolean;
  /** crowd yes/no: which level the question names ("crowded", "full", "quiet") */
  level?: 'busy' | 'crowded' | 'full' | 'quiet';
  /** trend and vs_usual: the direction the question asks about; none for "how is it trending" */
  direction?: 'up' | 'down';
  /** dwell: asked about a stay still going on ("how long has he been here") rather than past stays ("how long did people stay") */
  ongoing?: boolean;
  /**
   * dwell: the stay of the one most recently seen ("how long did the intruder stay?": a definite
   * person in the past tense with no time named), looked for over the last day rather than the
   * request window, which may well have begun after that stay ended
   */
  latest?: boolean;
  /** dwell: the stay asked about is the one that began at (about) this moment ("the person who came in at 10:20") */
  arrived_at?: number;
  /**
   * arrivals at a clock moment ("how many vans pulled in at ten to one"): the rises within that clock
   * minute; none there is asked back for a span (docs/decisions.md, "Before round R: scene questions")
   */
  arrival_minute?: boolean;
  /** threshold questions */
  threshold?: Threshold;
  /** vs_usual: the earlier same-time-of-day spans the range is compared with */
  baseline?: Array<{ from: number; to: number }>;
  /** 'unrecognized' when the question asks about unrecognized people only; animals: 'cat' or 'dog' when one is named */
  subtype?: string;
  /** metric objects: the detection type asked about (bicycle, …) */
  kind?: string;
  /** set when the question asks about loitering: persons whose dwell_s reached this */
  min_dwell_s?: number;
  /**
   * "how many cars were there at 8:30 yesterday?": a clock time said without morning or evening,
   * when both readings have passed. The answer gives both; `baseline[0]` is this moment, so its
   * history is loaded like any other span.
   */
  other_reading?: { at: number; label: string };
  /** compare: the second time of "compare this morning with yesterday" (its history is `baseline[0]`) */
  compare_with?: { from: number; to: number; label: string };
  /**
   * peak with no time of its own, answered over the window: today so far, whose history is
   * `baseline[0]`; the answer adds today's peak when it is higher than the window's
   * (docs/decisions.md, "Round K: scene questions")
   */
  day_peak?: { from: number; to: number };
  /**
   * trend over the window with no time of its own: the last hours, whose history is `baseline[0]`;
   * when the window holds too few counts, the trend is read from the last few counts in it and the
   * answer says from when (docs/decisions.md, "Round P: scene questions")
   */
  trend_wide?: { from: number; to: number };
  /**
   * a past afternoon or evening whose end people also set an hour or two later (afternoon 17:00 or
   * 18:00): the span to that later end, whose history is `baseline[0]`; when the answer differs
   * over it, the question is asked back (docs/decisions.md, "Round L: scene questions")
   */
  late_end?: { from: number; to: number };
  /** peak of people where cars park asked as "busiest": the vehicles' peak over the same span is said too */
  vehicle_peak_too?: boolean;
  /** compare: the figure the question names ("was yesterday's peak higher than today's?"): that figure alone decides */
  compare_by?: 'peak' | 'average';
  /** kinds of vehicle a count named ("how many trucks"): the cameras count every kind together, and the answer says so */
  vehicle_kinds?: string[];
  /** arrivals/departures: also as a rate per hour over the range ("how many cars per hour") */
  per_hour?: boolean;
  /** "the guy by the gate": a spot inside the scene; the answer is for the whole scene and says so */
  landmark?: string;
  /** "the boarding lane": a part of the scene's place; the answer is for the whole scene and says so (sub-areas.ts) */
  sub_area?: string;
  /** "stray": a word for a cat or a dog the camera cannot see; the answer is for every one seen and says so (animal-modifiers.ts) */
  animal_modifier?: string;
  /**
   * "any buses at the stand now?": a yes or no asked of a vehicle kind the cameras do not tell apart
   * (vehicle_kinds); every vehicle is counted, and only a count of none carries over as a "no"
   */
  any_of_kind?: boolean;
  /** trend: "since the peak": told from the time of the peak in [from, to] to `to` (since-peak.ts) */
  since_peak?: boolean;
  /** arrivals: "how many different people": the answer says a track is counted, not an identity */
  distinct?: boolean;
  /** the phrase of the question that set the range, if any ("since 9am", "last 10 minutes") */
  time_phrase?: string;
  /**
   * set when the range is the window looked back from now (the question named no time): the
   * request's `window`, or the default when the request gave none, which is never silent
   */
  window?: { duration: string; source: 'request' | 'default' };
  /** metric camera: which camera and what of it (camera-status.ts) */
  camera?: CameraQuestion;
  /** e.g. "peak people count in lobby from 09:00 to 10:14" */
  summary: string;
  /** the scene location the answer talks about */
  location: string;
  /** the scene's IANA zone; times in the answer are written in it */
  time_zone: string;
  /** how the answer names the range: "in the last hour", "since 09:00", "now (10:14)" */
  range_label: string;
}

/** `animals`: the question was refused for naming animals the detector does not label (their subtypes): QueryContext.animalsSeen */
export type InterpretResult = { ok: true; interpretation: Interpretation } | { ok: false; reason: string; examples: string[]; animals?: string[] };

/** The scene's live state, as the scene engine holds it. */
export interface SceneSnapshot {
  people: number;
  vehicles: number;
  /** objects present of each counted kind (vehicle, bicycle, …), when the engine holds the scene */
  counts?: Readonly<Record<string, number>>;
  /** people the location holds; 0 when unknown */
  capacity: number;
  active_anomalies: number;
}

export interface QueryAnswer {
  /** one plain sentence */
  answer: string;
  /** the detections that support the answer, newest first, at most 50 */
  detections: DetectionRecord[];
  crowd_density: number;
  anomaly_flag: boolean;
  /** the data cannot pick what the question names ("the person who came in at 10:20" when none or two did): the service asks this back (422) */
  ask?: string;
}
