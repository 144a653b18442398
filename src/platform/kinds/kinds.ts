/**
 * The one table of detection kinds (docs/decisions.md, 'One table of detection kinds'). For each
 * kind: the detector labels that become it and the score they need, how the tracker and the frame
 * pipeline treat it, its alert rule conditions (schema and evaluator), its watch condition and
 * event type, and the words the language layer knows it by. The detector's label map, the frame
 * pipeline, the Detection type and its OpenAPI enum, alert rule conditions, watch conditions and
 * events, the sandbox's injection checks and the vocabularies read this table; adding a kind the
 * detector already sees is one entry here.
 */
import { Type, type TObject } from '@sinclair/typebox';
import type { DetectionRecord } from './detection.ts';

/** What an alert condition is checked against: the detection's scene as it counts now. */
export interface SceneReading {
  people: number;
  crowdDensity: number;
  /** objects of each counted kind present (vehicle, bicycle, …), the scene's streams combined */
  counts: Readonly<Record<string, number>>;
}

/** One alert rule condition a kind offers: its request schema and whether a detection meets it. */
export interface AlertCondition {
  /** an object schema whose `type` is a literal (the condition's name) */
  schema: TObject;
  /**
   * The value that met the condition, null when it matched without a number to report, or
   * undefined when it did not match. `ownStream`: the rule is limited to streams, so a count is
   * the stream's own reading, not the scene's.
   */
  observe(condition: Record<string, unknown>, rec: DetectionRecord, scene: SceneReading, ownStream: boolean): number | null | undefined;
}

/** How a kind is watched in a household: the watch condition, its event and what the event says. */
export interface WatchSpec {
  condition: string;
  event: string;
  /** what the sensor saw, completing "<sensor> saw … in the <room>." */
  seen(rec: DetectionRecord): string;
}

/** How the detector finds a kind and the frame pipeline reports it. */
export interface DetectorSpec {
  /** detector (COCO) label → tracker class; each class is tracked apart (a cat never continues a dog's track) */
  labels: Readonly<Record<string, string>>;
  /** per tracker class, the score an object needs to be tracked */
  minScore: Readonly<Record<string, number>>;
  /**
   * 'track': every tracked object is reported (track_id, dwell, box; the subtype is its class when
   * the kind has subtypes); 'count': the number present, in `count`, whenever it changes (the
   * detection names the object when exactly one came or went).
   */
  report: 'track' | 'count';
  /** count kinds: reported from a stream's first detector run, even at 0 (else once one was seen) */
  countFromStart?: boolean;
}

export interface DetectionKind {
  /** the detection type (Detection.type) */
  type: string;
  /** how the OpenAPI enum describes it */
  description: string;
  /** what a sandbox injection of this type must carry */
  requires?: 'value' | 'count';
  /** the subtypes a detection of this kind must have (the tracker classes it is told apart by) */
  subtypes?: readonly string[];
  detector?: DetectorSpec;
  alert?: readonly AlertCondition[];
  watch?: WatchSpec;
  /** the words the language layer knows it by: the nouns (singular and plural) that name it */
  words?: { singular: string; plural: string; nouns: readonly string[] };
}

/** A counted kind's condition: more than N present (the scene's count, or the stream's own for stream-limited rules). */
function countAbove(type: string, singular: string, plural: string): AlertCondition {
  return {
    schema: Type.Object(
      { type: Type.Literal(type), above: Type.Integer({ minimum: 0, maximum: 100_000, description: `fires when more than this many ${plural} are present` }) },
      { additionalProperties: false, title: `${singular} count above N` },
    ),
    observe(c, rec, scene, ownStream) {
      if (rec.type !== type) return undefined;
      const n = ownStream ? (rec.count ?? 0) : (scene.counts[type] ?? 0);
      return n > (c.above as number) ? n : undefined;
    },
  };
}

/** A tracked kind's condition: one was seen (of one subtype when it says so). */
function seen(type: string, title: string, subtypes?: readonly string[], subtypeDescription?: string): AlertCondition {
  return {
    schema: Type.Object(
      {
        type: Type.Literal(type),
        ...(subtypes
          ? {
              subtype: Type.Optional(
                Type.Union(
                  subtypes.map((k) => Type.Literal(k)),
                  { description: subtypeDescription },
                ),
              ),
            }
          : {}),
      },
      { additionalProperties: false, title },
    ),
    observe(c, rec) {
      if (rec.type !== type || (c.subtype !== undefined && rec.subtype !== c.subtype)) return undefined;
      return null;
    },
  };
}

/** An enrolled person's id, as platform/http's prefixedId writes it (the kernel stands below http). */
const personId = Type.String({
  pattern: '^person_[0-9a-z]{26}$',
  description: 'only this enrolled person (POST /v1/people), recognized by face; implies subtype recognized',
  examples: ['person_01jd3k8e7f9g2h4j6k8m0n2p4q'],
});

/**
 * The table. Order is the order of the Detection type enum and of the alert condition union in
 * openapi.json. See docs/decisions.md, 'One table of detection kinds', for what each field does
 * and what adding a kind takes.
 */
export const DETECTION_KINDS: readonly DetectionKind[] = [
  {
    type: 'person_count',
    description: 'the number of people present, in value',
    requires: 'value',
    alert: [
      {
        schema: Type.Object(
          {
            type: Type.Literal('person_count'),
            above: Type.Integer({ minimum: 0, maximum: 100_000, description: 'fires when more than this many people are present' }),
          },
          { additionalProperties: false, title: 'person_count above N' },
        ),
        observe(c, rec, scene, ownStream) {
          if (rec.type !== 'person_count') return undefined;
          const people = ownStream ? (rec.value ?? 0) : scene.people;
          return people > (c.above as number) ? people : undefined;
        },
      },
      {
        schema: Type.Object(
          {
            type: Type.Literal('crowd_density'),
            at_least: Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'fires when people ÷ capacity reaches this fraction' }),
          },
          { additionalProperties: false, title: 'crowd_density at or above x' },
        ),
        observe(c, rec, scene) {
          if (rec.type !== 'person_count') return undefined;
          return scene.crowdDensity >= (c.at_least as number) ? scene.crowdDensity : undefined;
        },
      },
    ],
  },
  {
    type: 'vehicle',
    description: 'the number of vehicles present, in count',
    requires: 'count',
    detector: {
      labels: { car: 'vehicle', motorcycle: 'vehicle', bus: 'vehicle', truck: 'vehicle' },
      // measured on vtest.avi: small parked vehicles score 0.33–0.45
      minScore: { vehicle: 0.33 },
      report: 'count',
      countFromStart: true,
    },
    alert: [countAbove('vehicle', 'vehicle', 'vehicles')],
    watch: { condition: 'vehicle', event: 'vehicle_detected', seen: () => 'a vehicle arrive' },
    words: {
      singular: 'vehicle',
      plural: 'vehicles',
      nouns: ['car', 'cars', 'vehicle', 'vehicles', 'truck', 'trucks', 'van', 'vans', 'motorbike'],
    },
  },
  {
    type: 'person',
    description: 'one tracked person; subtype recognized or unrecognized once a face was seen',
    detector: {
      labels: { person: 'person' },
      // measured on vtest.avi: real people score 0.45–0.75, background clutter up to ~0.35
      minScore: { person: 0.45 },
      report: 'track',
    },
    alert: [
      {
        schema: Type.Object(
          {
            type: Type.Literal('person'),
            subtype: Type.Optional(
              Type.Union([Type.Literal('recognized'), Type.Literal('unrecognized')], {
                description:
                  'recognized: the face matched an enrolled person; unrecognized: a face was seen and matched nobody (needs face_recognition on). Any person, face seen or not, when absent',
                examples: ['unrecognized'],
              }),
            ),
            person_id: Type.Optional(personId),
          },
          { additionalProperties: false, title: 'a person (of a subtype)' },
        ),
        observe(c, rec) {
          if (rec.type !== 'person' || (c.subtype !== undefined && rec.subtype !== c.subtype)) return undefined;
          if (c.person_id !== undefined && (rec.subtype !== 'recognized' || rec.person_id !== c.person_id)) return undefined;
          return null;
        },
      },
      {
        schema: Type.Object(
          {
            type: Type.Literal('dwell'),
            min_s: Type.Number({
              exclusiveMinimum: 0,
              maximum: 86_400,
              description: 'fires when a tracked person has stayed at least this many seconds (loitering)',
            }),
          },
          { additionalProperties: false, title: 'dwell (loitering) of at least S seconds' },
        ),
        observe(c, rec) {
          if (rec.type !== 'person' || rec.dwell_s == null) return undefined;
          return rec.dwell_s >= (c.min_s as number) ? rec.dwell_s : undefined;
        },
      },
    ],
  },
  {
    type: 'door_open',
    description: 'a household contact sensor opened',
    alert: [seen('door_open', 'a door or window opened (a contact sensor)')],
  },
  {
    type: 'motion',
    description: 'a household motion sensor fired',
    alert: [seen('motion', 'motion (a motion sensor)')],
  },
  // sensors over MQTT (docs/decisions.md, 'Sensors over MQTT'): a contact reports both ways, so the
  // door's state is known; the other sensor kinds report when they turn active
  { type: 'door_closed', description: 'a contact sensor closed (sensors over MQTT report both ways)' },
  {
    type: 'vibration',
    description: 'a vibration sensor fired',
    alert: [seen('vibration', 'vibration (a vibration sensor)')],
    watch: { condition: 'vibration', event: 'vibration_detected', seen: () => 'vibration' },
  },
  {
    type: 'water_leak',
    description: 'a water leak sensor got wet',
    alert: [seen('water_leak', 'a water leak (a leak sensor)')],
    watch: { condition: 'water_leak', event: 'water_leak_detected', seen: () => 'a water leak' },
  },
  {
    type: 'smoke',
    description: 'a smoke detector went off',
    alert: [seen('smoke', 'smoke (a smoke detector)')],
    watch: { condition: 'smoke', event: 'smoke_detected', seen: () => 'smoke' },
  },
  {
    type: 'animal',
    description: 'one tracked cat or dog; subtype says which',
    subtypes: ['cat', 'dog'],
    detector: {
      labels: { cat: 'cat', dog: 'dog' },
      // the darknet dog photos (fixtures dog.jpg, person.jpg) score 0.42–0.43 as dog; 40 frames of
      // vtest.avi give no cat or dog candidate even at 0.1
      minScore: { cat: 0.4, dog: 0.4 },
      report: 'track',
    },
    alert: [seen('animal', 'an animal (cat or dog)', ['cat', 'dog'], 'only this animal; a cat or a dog when absent')],
    watch: {
      condition: 'animal',
      event: 'animal_detected',
      seen: (rec) => (rec.subtype === 'cat' || rec.subtype === 'dog' ? `a ${rec.subtype}` : 'an animal'),
    },
    words: {
      singular: 'animal',
      plural: 'animals',
      nouns: ['dog', 'dogs', 'puppy', 'puppies', 'pup', 'doggy', 'cat', 'cats', 'kitten', 'kittens', 'kitty', 'pet', 'pets', 'animal', 'animals'],
    },
  },
  {
    type: 'bicycle',
    description: 'the number of bicycles present, in count',
    requires: 'count',
    detector: {
      labels: { bicycle: 'bicycle' },
      // measured on the darknet dog photo (fixture dog.jpg): its bicycle scores 0.46–0.48 (whole frame,
      // aspect and square), a spurious part of it 0.31
      minScore: { bicycle: 0.4 },
      report: 'count',
    },
    alert: [countAbove('bicycle', 'bicycle', 'bicycles')],
    watch: { condition: 'bicycle', event: 'bicycle_detected', seen: () => 'a bicycle arrive' },
    words: { singular: 'bicycle', plural: 'bicycles', nouns: ['bicycle', 'bicycles', 'bike', 'bikes', 'cycle', 'cycles'] },
  },
];

/** The kind of a detection type, or undefined. */
export function kindOf(type: string): DetectionKind | undefined {
  return KIND_BY_TYPE.get(type);
}
const KIND_BY_TYPE = new Map(DETECTION_KINDS.map((k) => [k.type, k]));

/** Detector label → tracker class, over every kind the detector finds. A model's other labels are ignored. */
export const DETECTOR_LABEL_CLASSES: Readonly<Record<string, string>> = Object.fromEntries(
  DETECTION_KINDS.flatMap((k) => Object.entries(k.detector?.labels ?? {})),
);

/** Every tracker class, in table order. */
export const TRACK_CLASSES: readonly string[] = [...new Set(Object.values(DETECTOR_LABEL_CLASSES))];

/** The score each tracker class needs to be tracked. */
export const TRACK_MIN_SCORE: Readonly<Record<string, number>> = Object.fromEntries(DETECTION_KINDS.flatMap((k) => Object.entries(k.detector?.minScore ?? {})));

/** The kind each tracker class is reported as. */
export function kindOfClass(cls: string): DetectionKind | undefined {
  return KIND_BY_CLASS.get(cls);
}
const KIND_BY_CLASS = new Map(DETECTION_KINDS.flatMap((k) => [...new Set(Object.values(k.detector?.labels ?? {}))].map((c) => [c, k] as const)));

/** Kinds the detector reports as a count of objects present (vehicle, …): the scene keeps one count each. */
export const COUNTED_KINDS: readonly DetectionKind[] = DETECTION_KINDS.filter((k) => k.detector?.report === 'count');

/** Every alert rule condition, in table order. */
export const ALERT_CONDITIONS: readonly AlertCondition[] = DETECTION_KINDS.flatMap((k) => k.alert ?? []);

/** The condition of a given `type`, or undefined. */
export function alertConditionOf(type: string): AlertCondition | undefined {
  return CONDITION_BY_TYPE.get(type);
}
const CONDITION_BY_TYPE = new Map(ALERT_CONDITIONS.map((c) => [(c.schema.properties.type as unknown as { const: string }).const, c]));

/** Kinds a household watch reports through the table's watch spec (one event per tracked object, when first seen). */
export const WATCHED_KINDS: readonly DetectionKind[] = DETECTION_KINDS.filter((k) => k.watch);

/** Noun → the watch condition of the kind it names ("bike" → bicycle), for the household agent. */
export const WATCH_CONDITION_WORDS: Readonly<Record<string, string>> = Object.fromEntries(
  WATCHED_KINDS.flatMap((k) => (k.words?.nouns ?? []).map((w) => [w, k.watch!.condition])),
);

/** Noun → detection type, for every kind the language layer knows by name. */
export const KIND_WORDS: Readonly<Record<string, string>> = Object.fromEntries(DETECTION_KINDS.flatMap((k) => (k.words?.nouns ?? []).map((w) => [w, k.type])));
