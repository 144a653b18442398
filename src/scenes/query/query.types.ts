import type { DetectionRecord } from '../../domain/detection.ts';

/** What the service knows when a question arrives (POST /v1/scenes/:scene_id/query). */
export interface QueryContext {
  /** epoch ms the question is answered at */
  now: number;
  /** the request's `window`, already parsed with parseWindow */
  windowMs: number;
  /** IANA zone of the scene, e.g. 'America/New_York' */
  timeZone: string;
  /** the scene's location label, snake_case, e.g. 'lobby' or 'parking_lot' */
  location: string;
}

export type Metric = 'people' | 'vehicles' | 'anomalies' | 'crowd_density';
export type Aggregate = 'current' | 'peak' | 'average' | 'arrivals' | 'presence' | 'list';

/**
 * What a question was understood to ask. `from === to` marks a question about one moment
 * ("how many people are here now", "was anyone here at 9:30"); otherwise it is about a span.
 */
export interface Interpretation {
  metric: Metric;
  aggregate: Aggregate;
  from: number;
  to: number;
  /** 'unrecognized' when the question asks about unrecognized people only */
  subtype?: string;
  /** set when the question asks about loitering: persons whose dwell_s reached this */
  min_dwell_s?: number;
  /** the phrase of the question that set the range, if any ("since 9am", "last 10 minutes") */
  time_phrase?: string;
  /** e.g. "peak people count in lobby from 09:00 to 10:14" */
  summary: string;
  /** the scene location the answer talks about */
  location: string;
  /** the scene's IANA zone; times in the answer are written in it */
  time_zone: string;
  /** how the answer names the range: "in the last hour", "since 09:00", "now (10:14)" */
  range_label: string;
}

export type InterpretResult =
  | { ok: true; interpretation: Interpretation }
  | { ok: false; reason: string; examples: string[] };

/** The scene's live state, as the scene engine holds it. */
export interface SceneSnapshot {
  people: number;
  vehicles: number;
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
}
