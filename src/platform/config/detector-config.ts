/**
 * VIGIL_DETECTOR_*: the object detection model (README, 'Bring your own detection model'). Read
 * here for syntax only; the detector (src/ingest/video/models/detector-model.ts) opens the files
 * at start and refuses a model that cannot serve.
 */
export const DETECTOR_DECODERS = ['centernet', 'yolo'] as const;
export type DetectorDecoder = (typeof DETECTOR_DECODERS)[number];

/** What the configuration says; nulls mean the shipped CenterNet's. */
export interface DetectorModelConfig {
  /** VIGIL_DETECTOR_MODEL: an .onnx file; null = the shipped CenterNet */
  readonly file: string | null;
  /** VIGIL_DETECTOR_DECODER: how the outputs are read; default centernet for the shipped file, yolo for a user's */
  readonly decoder: DetectorDecoder | null;
  /** VIGIL_DETECTOR_INPUT: model input side in pixels (YOLO: its export size, e.g. 640); default 512 for CenterNet, the model's own for YOLO */
  readonly input: number | null;
  /** VIGIL_DETECTOR_LABELS: a text file, one class name per line in class order; default the 80 COCO names */
  readonly labels: string | null;
}

export function readDetectorConfig(env: NodeJS.ProcessEnv): DetectorModelConfig {
  const text = (name: string) => {
    const v = (env[name] ?? '').trim();
    return v === '' ? null : v;
  };
  const decoder = text('VIGIL_DETECTOR_DECODER');
  if (decoder !== null && !(DETECTOR_DECODERS as readonly string[]).includes(decoder)) {
    throw new Error(`config: VIGIL_DETECTOR_DECODER must be one of ${DETECTOR_DECODERS.join(', ')}, got ${JSON.stringify(decoder)}`);
  }
  const rawInput = text('VIGIL_DETECTOR_INPUT');
  let input: number | null = null;
  if (rawInput !== null) {
    input = Number(rawInput);
    if (!Number.isInteger(input) || input < 32 || input > 2048 || input % 32 !== 0) {
      throw new Error(`config: VIGIL_DETECTOR_INPUT must be a multiple of 32 between 32 and 2048, got ${JSON.stringify(rawInput)}`);
    }
  }
  const file = text('VIGIL_DETECTOR_MODEL');
  const labels = text('VIGIL_DETECTOR_LABELS');
  if (file === null && (decoder !== null || labels !== null)) {
    throw new Error('config: VIGIL_DETECTOR_DECODER and VIGIL_DETECTOR_LABELS describe a model of your own: set VIGIL_DETECTOR_MODEL to its .onnx file too');
  }
  return Object.freeze({ file, decoder: decoder as DetectorDecoder | null, input, labels });
}
