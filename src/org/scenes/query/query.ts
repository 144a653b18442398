/**
 * Natural-language scene queries (POST /v1/scenes/:scene_id/query).
 * The route/service parses `window`, calls interpretQuery, loads history for the interpreted range
 * (see answerQuery for the lookback it needs) and calls answerQuery.
 */
export { parseWindow, MAX_WINDOW_MS } from '../../../platform/language/time/query-window.ts';
export { interpretQuery, buildExamples, LOITERING_DWELL_S, DEFAULT_QUERY_WINDOW_MS, formatWindow } from './query-interpreter.ts';
export { answerQuery, vehicleKindsNote, subAreaNote, MAX_ANSWER_DETECTIONS } from './query-answerer.ts';
export { answerCameraStatus } from './camera-status.ts';
/** Kept under its query-facing name; the check is lib/zoned-time's isValidTimeZone. */
export { isValidTimeZone as isKnownTimeZone } from '../../../platform/time/zoned-time.ts';
export type { Aggregate, Interpretation, InterpretResult, Metric, QueryAnswer, QueryContext, SceneSnapshot } from './query.types.ts';
