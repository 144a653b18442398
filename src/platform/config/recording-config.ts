/**
 * Recordings and clips (docs/decisions.md, "Recordings: a second output of the decoding ffmpeg";
 * README "Recordings"). Read once from the environment like the rest of the configuration.
 */
export interface RecordingConfig {
  /** VIGIL_RECORDINGS (default 1): real streams are recorded */
  readonly enabled: boolean;
  /** VIGIL_RECORDINGS_DIR; null = <VIGIL_DATA_DIR>/recordings. May be shared storage (docs/deployment.md) */
  readonly dir: string | null;
  /** VIGIL_RECORDINGS_DAYS (default 7): segments older than this are deleted, oldest first */
  readonly days: number;
  /** VIGIL_RECORDINGS_QUOTA_MB: the recordings may use at most this much disk; null = no quota */
  readonly quotaBytes: number | null;
  /** VIGIL_RECORDINGS_MIN_FREE_MB (default 256): below this much free disk, recording pauses (recording.storage_low) */
  readonly minFreeBytes: number;
  /** VIGIL_RECORDINGS_HOLD_DAYS (default 30): held segments are kept this long after the incident closes or its hold is released */
  readonly holdDays: number;
  /** VIGIL_RECORDINGS_SEGMENT_SECONDS (default 10) */
  readonly segmentSeconds: number;
  /** VIGIL_RECORDINGS_TRANSCODE_WIDTH (default 1280) and _FPS (default 10): codecs browsers do not play are transcoded to H.264 at this size and rate */
  readonly transcodeWidth: number;
  readonly transcodeFps: number;
  /**
   * VIGIL_RECORDINGS_MAX_TRANSCODES (default 6): at most this many streams are transcoded for recording on this node at once; more
   * are decoded and detected without recording, each saying so, until one stops (docs/decisions.md, "Recordings: a node's limit on
   * transcoded cameras"). 0: no stream is transcoded. Copy recordings are never limited.
   */
  readonly maxTranscodes: number;
  /** VIGIL_CLIP_PRE_ROLL_SECONDS (default 10) and VIGIL_CLIP_POST_ROLL_SECONDS (default 20): an incident's or alert's clip around its time */
  readonly preRollMs: number;
  readonly postRollMs: number;
  /** VIGIL_CLIP_MAX_SECONDS (default 3600): the longest range a clip or a listing may ask for */
  readonly maxClipMs: number;
}

type IntReader = (env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) => number;
type BoolReader = (env: NodeJS.ProcessEnv, name: string, fallback: boolean) => boolean;

export function readRecordingConfig(env: NodeJS.ProcessEnv, readInt: IntReader, readBool: BoolReader): RecordingConfig {
  const dir = (env.VIGIL_RECORDINGS_DIR ?? '').trim();
  const quota = readInt(env, 'VIGIL_RECORDINGS_QUOTA_MB', 0, 0, 1_000_000_000);
  return {
    enabled: readBool(env, 'VIGIL_RECORDINGS', true),
    dir: dir === '' ? null : dir,
    days: readInt(env, 'VIGIL_RECORDINGS_DAYS', 7, 1, 3650),
    quotaBytes: quota === 0 ? null : quota * 1024 * 1024,
    minFreeBytes: readInt(env, 'VIGIL_RECORDINGS_MIN_FREE_MB', 256, 0, 1_000_000) * 1024 * 1024,
    holdDays: readInt(env, 'VIGIL_RECORDINGS_HOLD_DAYS', 30, 0, 3650),
    segmentSeconds: readInt(env, 'VIGIL_RECORDINGS_SEGMENT_SECONDS', 10, 2, 300),
    transcodeWidth: readInt(env, 'VIGIL_RECORDINGS_TRANSCODE_WIDTH', 1280, 160, 3840),
    transcodeFps: readInt(env, 'VIGIL_RECORDINGS_TRANSCODE_FPS', 10, 1, 60),
    maxTranscodes: readInt(env, 'VIGIL_RECORDINGS_MAX_TRANSCODES', 6, 0, 10_000),
    preRollMs: readInt(env, 'VIGIL_CLIP_PRE_ROLL_SECONDS', 10, 0, 3600) * 1000,
    postRollMs: readInt(env, 'VIGIL_CLIP_POST_ROLL_SECONDS', 20, 0, 3600) * 1000,
    maxClipMs: readInt(env, 'VIGIL_CLIP_MAX_SECONDS', 3600, 10, 86_400) * 1000,
  };
}
