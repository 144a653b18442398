/**
 * VIGIL_FACE_*: the face embedder and its match threshold (README, 'Bring your own face
 * embedder'). Read here for syntax only; the face engine (src/ingest/faces/face-embedder.ts)
 * opens the model at start and refuses one that cannot serve, naming the setting.
 */
export interface FaceEmbedderConfig {
  /** VIGIL_FACE_EMBEDDER: an .onnx face embedder (e.g. ArcFace); null = the shipped FaceRes */
  readonly file: string | null;
  /** VIGIL_FACE_EMBEDDER_INPUT: its input side in pixels; default the model's own, else 112 */
  readonly input: number | null;
  /**
   * VIGIL_FACE_MATCH_THRESHOLD: cosine similarity at or above which a face is the enrolled person;
   * default the shipped FaceRes's calibrated one; required with VIGIL_FACE_EMBEDDER (each model
   * has its own scale: measure it with scripts/face-roc.ts)
   */
  readonly threshold: number | null;
}

export function readFaceConfig(env: NodeJS.ProcessEnv): FaceEmbedderConfig {
  const text = (name: string) => {
    const v = (env[name] ?? '').trim();
    return v === '' ? null : v;
  };
  const file = text('VIGIL_FACE_EMBEDDER');
  const rawInput = text('VIGIL_FACE_EMBEDDER_INPUT');
  let input: number | null = null;
  if (rawInput !== null) {
    input = Number(rawInput);
    if (!Number.isInteger(input) || input < 32 || input > 512) {
      throw new Error(`config: VIGIL_FACE_EMBEDDER_INPUT must be a whole number of pixels between 32 and 512, got ${JSON.stringify(rawInput)}`);
    }
    if (file === null)
      throw new Error('config: VIGIL_FACE_EMBEDDER_INPUT describes a face embedder of your own: set VIGIL_FACE_EMBEDDER to its .onnx file too');
  }
  const rawThreshold = text('VIGIL_FACE_MATCH_THRESHOLD');
  let threshold: number | null = null;
  if (rawThreshold !== null) {
    threshold = Number(rawThreshold);
    if (!Number.isFinite(threshold) || threshold <= -1 || threshold >= 1 || rawThreshold.startsWith('0x')) {
      throw new Error(`config: VIGIL_FACE_MATCH_THRESHOLD must be a cosine similarity between -1 and 1 (exclusive), got ${JSON.stringify(rawThreshold)}`);
    }
  }
  if (file !== null && threshold === null) {
    throw new Error(
      'config: VIGIL_FACE_MATCH_THRESHOLD is required with VIGIL_FACE_EMBEDDER: a model of your own has its own similarity scale (measure it with scripts/face-roc.ts)',
    );
  }
  return Object.freeze({ file, input, threshold });
}
