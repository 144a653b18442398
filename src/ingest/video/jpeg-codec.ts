import sharp from 'sharp';
import { IMAGE_DECODES } from '../../platform/lib/index.ts';
import { VideoInputError } from './video.errors.ts';
import type { RgbFrame } from './video.types.ts';

/** Largest phone frame accepted (issue 6 "Phones": ≤ 2 MiB). */
export const MAX_JPEG_BYTES = 2 * 1024 * 1024;

/**
 * Largest decoded frame accepted (see docs/decisions.md, "Bodies"): far above any phone camera's
 * video frame; a 2 MiB JPEG can claim 8000×8000 (192 MB of RGB) and is refused from its header.
 */
export const MAX_INPUT_PIXELS = 24_000_000;
// libvips keeps recent operations (up to 50 MB) for reuse; one-off request frames gain nothing from it
sharp.cache(false);

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
  // the header says how large the frame decodes; a bomb is refused before anything is decoded
  const meta = await sharp(buf).metadata().catch((err: Error) => {
    throw new VideoInputError('invalid_image', `frame could not be decoded as a JPEG: ${err.message}`);
  });
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS) {
    throw new VideoInputError('image_too_large', `frame is ${meta.width}×${meta.height} (${(pixels / 1e6).toFixed(1)} MP); the limit is ${MAX_INPUT_PIXELS / 1e6} MP`);
  }
  // decodes go through one bounded queue (503 with Retry-After when it is full)
  return IMAGE_DECODES.run(async () => {
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
  });
}
