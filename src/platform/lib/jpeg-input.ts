import sharp, { type ResizeOptions } from 'sharp';
import { IMAGE_DECODES } from './bounded-queue.ts';

/**
 * Largest decoded image accepted from a request (see docs/decisions.md, "Bodies"): far above any
 * phone frame, a 12 MP phone photo or a 24 MP camera one; a 2 MiB JPEG can claim 8000×8000
 * (192 MB of RGB) and is refused from its header.
 */
export const MAX_INPUT_PIXELS = 24_000_000;
// libvips keeps recent operations (up to 50 MB) for reuse; one-off request images gain nothing from it
sharp.cache(false);

export type JpegInputCode = 'payload_too_large' | 'invalid_image' | 'image_too_large';

/** An RGB image, three bytes a pixel, row after row. */
export interface DecodedRgb {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Decodes a JPEG from a request (a phone frame, an enrolment photo) into RGB, applying its EXIF
 * orientation (phones store portrait shots rotated) and `resize`. Before any of it is decoded, its
 * byte size, start marker and the pixels its header declares are checked, so a decompression bomb
 * costs no memory; decodes go through one bounded queue (503 with Retry-After when it is full).
 * Anything wrong is thrown as `fail(code, message)`, the caller's own error; `noun` names the
 * image in the message ("frame", "image").
 */
export async function decodeRequestJpeg(
  buf: Buffer,
  opts: { noun: string; maxBytes: number; resize: ResizeOptions },
  fail: (code: JpegInputCode, message: string) => Error,
): Promise<DecodedRgb> {
  const { noun, maxBytes } = opts;
  if (buf.length > maxBytes) throw fail('payload_too_large', `${noun} is ${buf.length} bytes; the limit is ${maxBytes}`);
  // JPEG files start with SOI (FF D8) followed by a marker (FF xx)
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8 || buf[2] !== 0xff) throw fail('invalid_image', `${noun} is not a JPEG image`);
  const meta = await sharp(buf)
    .metadata()
    .catch((err: Error) => {
      throw fail('invalid_image', `${noun} could not be decoded as a JPEG: ${err.message}`);
    });
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS) {
    throw fail('image_too_large', `${noun} is ${meta.width}×${meta.height} (${(pixels / 1e6).toFixed(1)} MP); the limit is ${MAX_INPUT_PIXELS / 1e6} MP`);
  }
  return IMAGE_DECODES.run(async () => {
    try {
      const { data, info } = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(opts.resize)
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels`);
      return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
    } catch (err) {
      throw fail('invalid_image', `${noun} could not be decoded as a JPEG: ${(err as Error).message}`);
    }
  });
}
