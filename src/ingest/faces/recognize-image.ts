import { MIN_FACE_PX, type FaceEngine } from './face-engine.ts';
import { MATCH_THRESHOLD, match } from './face-match.ts';
import type { EnrolledFace, NormalizedBox, RgbFrame } from './face.types.ts';

export interface ImageFaceVerdict {
  box: NormalizedBox;
  size: number;
  status: 'recognized' | 'unrecognized';
  /** the enrolled person, when recognized */
  personId: string | null;
  /** similarity to the best enrolled face; null when nobody is enrolled */
  similarity: number | null;
}

/**
 * Recognition on one still image (a phone frame), with no track to cache on: every face at
 * least `minFacePx` across, largest first, recognized or not. Smaller faces are left out (no
 * verdict), as in live video.
 */
export async function recognizeImage(
  engine: Pick<FaceEngine, 'describeFaces'>,
  image: RgbFrame,
  enrolled: readonly EnrolledFace[],
  o: { minFacePx?: number; threshold?: number } = {},
): Promise<ImageFaceVerdict[]> {
  const minFacePx = o.minFacePx ?? MIN_FACE_PX;
  const threshold = o.threshold ?? MATCH_THRESHOLD;
  const faces = await engine.describeFaces(image);
  return faces
    .filter((f) => f.size >= minFacePx)
    .map((f) => {
      const found = match(f.descriptor, enrolled, threshold);
      const best = found ?? match(f.descriptor, enrolled, -Infinity);
      return {
        box: f.box,
        size: f.size,
        status: found ? 'recognized' : 'unrecognized',
        personId: found?.personId ?? null,
        similarity: best?.similarity ?? null,
      };
    });
}
