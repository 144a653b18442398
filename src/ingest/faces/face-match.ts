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
 * Cosine similarity at or above which a face is taken to be the enrolled person (FaceRes; a user's
 * embedder brings its own, VIGIL_FACE_MATCH_THRESHOLD). Calibrated from the ROC measured in
 * tests/faces/face-roc.test.ts on the labelled set the tests ship (tests/faces/README.md): the
 * FAR-0 point, the lowest threshold no different-person pair reaches (highest 0.709: two women of
 * one group photo, same light and camera), rounded up to 0.01. There the same-photo variants all
 * match (lowest 0.79) but a different photo of the same man does not (0.59-0.64): FaceRes does not
 * carry identity well across very different photos, so enrol several photos like what the cameras
 * see (a person is compared through their best face) and let live video decide over several
 * frames (track-recognizer.ts, voteIdentity). A false match silently lets a stranger pass as
 * staff, a missed one costs one needless "unrecognized" alert: the threshold sits on the
 * strangers' edge, not below it. See docs/decisions.md, 'Faces: the threshold from a measured ROC'.
 */
export const MATCH_THRESHOLD = 0.71;

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
