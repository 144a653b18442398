import sharp from 'sharp';
import { VideoInputError } from './video.errors.ts';
import type { RgbFrame } from './video.types.ts';

/** Largest phone frame accepted (issue 6 "Phones": ≤ 2 MiB). */
export const MAX_JPEG_BYTES = 2 * 1024 * 1024;

// phone cameras make 12–50 MP images; refuse decompression bombs beyond that
const MAX_INPUT_PIXELS = 64 * 1024 * 1024;

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
  if (buf.length > MAX_JPEG_BYTES) {
    throw new VideoInputError('payload_too_large', `frame is ${buf.length} bytes; the limit is ${MAX_JPEG_BYTES}`);
  }
  // JPEG files start with SOI (FF D8) followed by a marker (FF xx)
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8 || buf[2] !== 0xff) {
    throw new VideoInputError('invalid_image', 'frame is not a JPEG image');
  }
  try {
    const { data, info } = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: maxWidth, withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels`);
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (err) {
    throw new VideoInputError('invalid_image', `frame could not be decoded as a JPEG: ${(err as Error).message}`);
  }
}
