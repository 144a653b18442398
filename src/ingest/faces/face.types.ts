/**
 * Types shared by the face engine, its worker thread and its callers. Self-contained on purpose
 * (no import from the video module): RgbFrame has the same shape as the video pipeline's frame,
 * so a decoded video frame can be passed as is.
 */

/** One decoded image, packed RGB24, row-major, no padding. */
export interface RgbFrame {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Axis-aligned box in normalised coordinates of the analysed image: left, top, width, height. */
export type NormalizedBox = [x: number, y: number, w: number, h: number];

/** One face found in an image. */
export interface DetectedFace {
  /** where the face is, normalised to the image given */
  box: NormalizedBox;
  /** face confidence 0..1 (the face-mesh score: the detector's box was confirmed as a face) */
  score: number;
  /** the face's side in pixels of the image given (the smaller of width and height) */
  size: number;
}

/** A face with its descriptor (faceres, 1024 numbers). */
export interface DescribedFace extends DetectedFace {
  descriptor: Float32Array;
}

/** An enrolled face: one stored descriptor of one known person. */
export interface EnrolledFace {
  personId: string;
  descriptor: Float32Array;
}

/** The best match of a descriptor among enrolled faces, when it clears the threshold. */
export interface FaceMatch {
  personId: string;
  /** cosine similarity, -1..1 (1 = same direction) */
  similarity: number;
}
