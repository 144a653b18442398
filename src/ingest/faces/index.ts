/**
 * Face recognition engine: detection (BlazeFace), descriptors (FaceRes) in worker
 * threads, matching against enrolled faces, and a per-track cache for live video.
 */
export { createFaceEngine, FaceEngineOverloadedError, MIN_ENROL_FACE_PX, MIN_FACE_PX, SEVERAL_FACES_RATIO } from './face-engine.ts';
export type { BestFace, FaceEngine, FaceEngineOptions, FaceEngineStats } from './face-engine.ts';
export { cropRgb, decodeJpeg, FaceImageError, MAX_FACE_JPEG_BYTES } from './face-image.ts';
export { cosineSimilarity, match, MATCH_THRESHOLD } from './face-match.ts';
export { DESCRIPTOR_LENGTH, DESCRIPTOR_MODEL, descriptorFromBytes, descriptorToBytes } from './descriptor-codec.ts';
export { recognizeImage } from './recognize-image.ts';
export type { ImageFaceVerdict } from './recognize-image.ts';
export { faceSearchRegion, faceWeight, SETTLE_AFTER, TrackRecognizer, VOTE_WINDOW, voteIdentity } from './track-recognizer.ts';
export type { FaceVerdict, TrackRecognizerOptions } from './track-recognizer.ts';
export type { DescribedFace, DetectedFace, EnrolledFace, FaceMatch, NormalizedBox, RgbFrame } from './face.types.ts';
export { pairSimilarities, roc } from './face-roc.ts';
export type { LabelledDescriptor, Roc, RocPoint } from './face-roc.ts';
export { embedderInput, FaceEmbedderError, loadFaceModel, shippedFaceModel } from './face-embedder.ts';
export type { FaceModel, OnnxEmbedderSpec } from './face-embedder.ts';
