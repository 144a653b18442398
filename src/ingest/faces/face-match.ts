import type { EnrolledFace, FaceMatch } from './face.types.ts';

/**
 * Cosine similarity of two face descriptors, -1..1. FaceRes descriptors are not normalised (their
 * length varies with image contrast and size), so the angle between them is what carries
 * identity; Human's own `match.similarity` (a rescaled Euclidean distance) moves with that length.
 */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`descriptors differ in length (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Cosine similarity at or above which a face is taken to be the enrolled person. Measured in
 * bench/faces.bench.ts on the fixtures (five people of one group photo, eleven variants each:
 * crops, scales, mirror, ±30% brightness, rotation, blur, JPEG q25): the lowest same-person
 * similarity is ~0.79 and the highest different-person one ~0.71 (two women of the same photo,
 * same light and camera). 0.75 sits in that gap, a little nearer the strangers' side would be
 * unsafe: a false match silently lets a stranger pass as staff (no alert at all), a missed
 * match costs one needless "unrecognized" alert, so the threshold errs towards not matching.
 * FaceRes does not carry identity well across very different photos (same man, webcam vs party
 * photo years apart: 0.59–0.66), so enrol from a photo like what the camera sees, or enrol
 * several faces per person (the best one counts).
 */
export const MATCH_THRESHOLD = 0.75;

/**
 * The enrolled person most similar to `descriptor`, or null when nobody reaches `threshold`
 * (the face is then "unrecognized"). A person enrolled with several faces is compared through
 * their best one.
 */
export function match(descriptor: Float32Array, enrolled: readonly EnrolledFace[], threshold = MATCH_THRESHOLD): FaceMatch | null {
  let best: FaceMatch | null = null;
  for (const e of enrolled) {
    const similarity = cosineSimilarity(descriptor, e.descriptor);
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { personId: e.personId, similarity };
  }
  return best;
}
