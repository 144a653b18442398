import { TRACK_CLASSES, type DetectionInput } from '../../platform/kinds/index.ts';

/** A point in normalised image coordinates: x and y in 0..1 from the top-left corner. */
export type Point = [x: number, y: number];
/** A closed polygon in normalised coordinates (at least three points). */
export type Polygon = Point[];

/** A named area inside one camera view; detections are placed by their box's bottom-centre. */
export interface Zone {
  name: string;
  polygon: Polygon;
}

/** Axis-aligned box in normalised coordinates: left, top, width, height. */
export type NormalizedBox = [x: number, y: number, w: number, h: number];

/** One decoded video frame, packed RGB24, row-major, no padding. */
export interface RgbFrame {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The classes Vigil tracks; the detector maps its own labels onto these through the table of
 * detection kinds (platform/kinds). Cats and dogs are tracked apart (a cat never continues a dog's
 * track) and become `animal` detections. */
export const OBJECT_LABELS: readonly string[] = TRACK_CLASSES;
export type ObjectLabel = string;

/** One object the detector found in one frame. */
export interface DetectedObject {
  label: ObjectLabel;
  /** 0..1 */
  score: number;
  box: NormalizedBox;
}

/**
 * Stream states: `connecting` until the first frame, `live` while frames arrive,
 * `reconnecting` after a loss while retrying with backoff, `offline` once the loss has lasted
 * longer than the offline threshold (retries continue at the slowest backoff).
 */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** What the stream resource shows about its ingest (`status`, `last_frame_at`, `fps_in`, ...). */
export interface IngestStats {
  status: StreamStatus;
  /** epoch ms of the last decoded frame, null before the first */
  last_frame_at: number | null;
  /** decoded frames per second over the last few seconds */
  fps_in: number;
  /** frames per second that went through the detector over the last few seconds */
  detector_fps: number;
  /** last source or detector error (credentials redacted), null while healthy */
  error: string | null;
  frames_in: number;
  frames_detected: number;
  /** frames not sent to the detector because the motion gate saw nothing */
  frames_skipped_no_motion: number;
  /** frames dropped because this stream's previous frame was still being detected */
  frames_dropped_busy: number;
  /** times the stream was lost after being live */
  reconnects: number;
  /** epoch ms of the next reconnect attempt while reconnecting or offline, else null */
  retry_at: number | null;
}

/** A detection produced by the video pipeline, with the frame it came from as a JPEG. */
export interface VideoDetection extends DetectionInput {
  /** JPEG of the whole frame at detect size; set on person, animal and vehicle detections */
  snapshot?: Buffer;
  // `box` (DetectionInput) is the object's box in the frame: person or animal, the tracked one;
  // vehicle, the newest arrival (or the one that left)
}

/**
 * What face recognition says about one tracked person: their face matched an enrolled
 * person, or a face was seen and matched nobody. No identity (undefined) means no usable face
 * has been seen on the track: nothing can be said, so the detection carries no subtype.
 */
export type TrackIdentity = { subtype: 'recognized'; personId: string } | { subtype: 'unrecognized'; personId: null };

/**
 * Live face recognition of one stream's tracked people (a port: org/people implements it over the
 * face engine and the tenant's enrolled faces). It decides itself whether a track is due for a
 * descriptor (at most every N frames, never again once recognized) and whether the tenant has
 * recognition on (when off it computes nothing and answers undefined).
 */
export interface TrackFaces {
  /** The track's identity after this frame; `frame` counts the stream's frames (for "every N frames"). */
  observe(trackId: string, frame: number, image: RgbFrame, personBox: NormalizedBox): Promise<TrackIdentity | undefined>;
  /** the track ended */
  forget(trackId: string): void;
  /** the stream stopped */
  close(): void;
}
