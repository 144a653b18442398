import sharp from 'sharp';
import { decodeRequestJpeg } from '../../platform/lib/index.ts';
import type { NormalizedBox, RgbFrame } from './face.types.ts';

/** Largest enrolment JPEG accepted, like a phone frame. */
export const MAX_FACE_JPEG_BYTES = 2 * 1024 * 1024;

/**
 * Why an image cannot give a face. The HTTP layer maps `code` onto the error catalogue like
 * VideoInputError: invalid_image → 400 and payload_too_large → 413 (both exist); no_face,
 * several_faces and face_too_small are new codes (422: a valid JPEG that cannot be enrolled).
 */
export class FaceImageError extends Error {
  constructor(
    readonly code: 'invalid_image' | 'payload_too_large' | 'image_too_large' | 'no_face' | 'several_faces' | 'face_too_small',
    message: string,
  ) {
    super(message);
    this.name = 'FaceImageError';
  }
}

/**
 * Decodes a JPEG into RGB no larger than maxSide on its longer side, applying EXIF orientation
 * (phones store portrait shots rotated). Anything that is not a decodable JPEG is invalid_image.
 */
export async function decodeJpeg(buf: Buffer, maxSide = 1280): Promise<RgbFrame> {
  return decodeRequestJpeg(
    buf,
    { noun: 'image', maxBytes: MAX_FACE_JPEG_BYTES, resize: { width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true } },
    (code, message) => new FaceImageError(code, message),
  );
}

/** Pixel rectangle of a normalised box in an image, clamped to it, at least 1×1. */
export function pixelRect(image: { width: number; height: number }, box: NormalizedBox) {
  const left = Math.max(0, Math.min(image.width - 1, Math.floor(box[0] * image.width)));
  const top = Math.max(0, Math.min(image.height - 1, Math.floor(box[1] * image.height)));
  const right = Math.max(left + 1, Math.min(image.width, Math.ceil((box[0] + box[2]) * image.width)));
  const bottom = Math.max(top + 1, Math.min(image.height, Math.ceil((box[1] + box[3]) * image.height)));
  return { left, top, width: right - left, height: bottom - top };
}

/** Copies a region of a frame (no scaling: one crop pixel is one frame pixel). */
export function cropRgb(frame: RgbFrame, box: NormalizedBox): RgbFrame {
  const r = pixelRect(frame, box);
  const out = new Uint8Array(r.width * r.height * 3);
  const rowBytes = r.width * 3;
  for (let y = 0; y < r.height; y++) {
    const from = ((r.top + y) * frame.width + r.left) * 3;
    out.set(frame.data.subarray(from, from + rowBytes), y * rowBytes);
  }
  return { width: r.width, height: r.height, data: out };
}

/** Grows a box about its centre by `factor` (1 = unchanged), clamped to the image. */
export function growBox(box: NormalizedBox, factor: number): NormalizedBox {
  const cx = box[0] + box[2] / 2;
  const cy = box[1] + box[3] / 2;
  const w = box[2] * factor;
  const h = box[3] * factor;
  const x = Math.max(0, cx - w / 2);
  const y = Math.max(0, cy - h / 2);
  return [x, y, Math.min(1 - x, cx + w / 2 - x), Math.min(1 - y, cy + h / 2 - y)];
}

/** A JPEG of one region of an image (the face crop kept with an enrolment when asked). */
export async function encodeCropJpeg(image: RgbFrame, box: NormalizedBox, quality = 85): Promise<Buffer> {
  const region = cropRgb(image, box);
  return sharp(region.data, { raw: { width: region.width, height: region.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}
