import sharp from 'sharp';
import { decodeRequestJpeg } from '../../platform/lib/index.ts';
import { VideoInputError } from './video.errors.ts';
import type { RgbFrame } from './video.types.ts';

/** Largest phone frame accepted (≤ 2 MiB). */
export const MAX_JPEG_BYTES = 2 * 1024 * 1024;

/** Encodes a frame as the JPEG snapshot kept with a detection. */
export async function encodeJpeg(frame: RgbFrame, quality = 80): Promise<Buffer> {
  return sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .jpeg({ quality, mozjpeg: false })
    .toBuffer();
}

/**
 * Decodes a phone's JPEG into an RGB frame no wider than maxWidth, applying its EXIF
 * orientation (phones store portrait shots rotated). Anything that is not a decodable JPEG is
 * an invalid_image error.
 */
export async function decodeJpegFrame(buf: Buffer, maxWidth: number): Promise<RgbFrame> {
  return decodeRequestJpeg(
    buf,
    { noun: 'frame', maxBytes: MAX_JPEG_BYTES, resize: { width: maxWidth, withoutEnlargement: true } },
    (code, message) => new VideoInputError(code, message),
  );
}
