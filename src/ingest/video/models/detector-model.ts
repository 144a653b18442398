/**
 * Detection models as plugins (in the manner of Frigate's detectors): a model is an ONNX file, an
 * input size, a decoder (how its outputs become boxes) and a label map (its class numbers →
 * names). Vigil ships CenterNet (models/centernet.onnx, converted from @vladmandic/human's
 * weights by scripts/centernet-to-onnx.ts); a user brings a YOLO-layout model through
 * VIGIL_DETECTOR_* settings (README, 'Bring your own detection model'). A model that cannot serve
 * stops the server at start with the setting and the problem named (docs/decisions.md,
 * 'Detection models as plugins').
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COCO_LABELS } from './coco-labels.ts';
import type { ObjectLabel } from '../video.types.ts';
import { DETECTOR_LABEL_CLASSES as KIND_LABEL_CLASSES } from '../../../platform/kinds/index.ts';
import type { DetectorDecoder, DetectorModelConfig } from '../../../platform/config/index.ts';

export type { DetectorDecoder, DetectorModelConfig };

/** A checked model, ready to hand to the detector's workers. */
export interface DetectorModel {
  decoder: DetectorDecoder;
  /** absolute path of the .onnx file */
  file: string;
  /** model input side; CenterNet takes any multiple of 32 up to this, YOLO exactly this */
  input: number;
  /** class index → name */
  labels: string[];
  /** true for Vigil's own CenterNet */
  shipped: boolean;
  /** ONNX input and output names the decoder uses */
  io: { input: string; outputs: string[] };
}

/** The file Vigil ships, converted from the packaged tfjs weights (models/README.md). */
export const SHIPPED_CENTERNET = fileURLToPath(new URL('../../../../models/centernet.onnx', import.meta.url));

/**
 * Detector label names → Vigil's object classes: the table of detection kinds (platform/kinds). A
 * model's classes not named there are ignored. See docs/decisions.md, 'Detection models as plugins'.
 */
export const DETECTOR_LABEL_CLASSES: Readonly<Record<string, ObjectLabel>> = KIND_LABEL_CLASSES;

/** A model setting that cannot serve: names the setting and what is wrong with it. */
export class DetectorModelError extends Error {
  constructor(
    readonly setting: string,
    readonly problem: string,
  ) {
    super(`config: ${setting}: ${problem}`);
  }
}

/** The parts of onnxruntime-node read here (loaded by the caller, so a missing native library is the caller's to handle). */
export interface OrtLike {
  InferenceSession: {
    create(path: string, options?: object): Promise<{
      inputNames: readonly string[];
      outputNames: readonly string[];
      inputMetadata: ReadonlyArray<{ name: string; isTensor: boolean; type?: string; shape?: ReadonlyArray<number | string> }>;
      outputMetadata: ReadonlyArray<{ name: string; isTensor: boolean; type?: string; shape?: ReadonlyArray<number | string> }>;
      release(): Promise<void>;
    }>;
  };
}

/** Parses a label map: one class name per line, in class order (blank lines at the end ignored). */
export function parseLabelMap(text: string): string[] {
  const lines = text.replace(/\r/g, '').split('\n').map((l) => l.trim());
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const dimsOf = (m: { shape?: ReadonlyArray<number | string> } | undefined) => (m?.shape ?? []).map((d) => (typeof d === 'number' && d > 0 ? d : null));

/**
 * Checks the configured model against its settings: the file opens in ONNX Runtime, its inputs
 * and outputs have the decoder's layout, the label map has one name per class and names at least
 * one class Vigil detects. Throws DetectorModelError naming the setting.
 */
export async function loadDetectorModel(config: DetectorModelConfig, ort: OrtLike): Promise<DetectorModel> {
  const shipped = config.file === null;
  const file = shipped ? SHIPPED_CENTERNET : config.file!;
  const fileSetting = shipped ? 'the shipped model (models/centernet.onnx)' : 'VIGIL_DETECTOR_MODEL';
  const decoder: DetectorDecoder = config.decoder ?? (shipped ? 'centernet' : 'yolo');
  if (!existsSync(file)) throw new DetectorModelError(fileSetting, `file ${file} does not exist`);
  if (!statSync(file).isFile()) throw new DetectorModelError(fileSetting, `${file} is not a file`);

  let labels: string[] = [...COCO_LABELS];
  if (config.labels !== null) {
    if (!existsSync(config.labels)) throw new DetectorModelError('VIGIL_DETECTOR_LABELS', `file ${config.labels} does not exist`);
    labels = parseLabelMap(readFileSync(config.labels, 'utf8'));
    if (!labels.length) throw new DetectorModelError('VIGIL_DETECTOR_LABELS', `${config.labels} names no class (one name per line, in class order)`);
    const blank = labels.findIndex((l) => l === '');
    if (blank >= 0) throw new DetectorModelError('VIGIL_DETECTOR_LABELS', `line ${blank + 1} of ${config.labels} is empty (one name per line, in class order)`);
  }
  if (!labels.some((l) => DETECTOR_LABEL_CLASSES[l])) {
    throw new DetectorModelError('VIGIL_DETECTOR_LABELS', `no class Vigil detects is named (one of ${Object.keys(DETECTOR_LABEL_CLASSES).join(', ')})`);
  }

  let session: Awaited<ReturnType<OrtLike['InferenceSession']['create']>>;
  try {
    session = await ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  } catch (err) {
    throw new DetectorModelError(fileSetting, `${file} is not a model ONNX Runtime can load (${String((err as Error).message ?? err).split('\n')[0].slice(0, 200)})`);
  }
  try {
    const inputs = session.inputMetadata;
    const outputs = session.outputMetadata;
    if (decoder === 'centernet') {
      const names = ['scores', 'indices', 'wh'];
      if (!inputs.some((i) => i.name === 'image') || !inputs.some((i) => i.name === 'size') || !names.every((n) => outputs.some((o) => o.name === n))) {
        throw new DetectorModelError(fileSetting, `has inputs (${session.inputNames.join(', ')}) and outputs (${session.outputNames.join(', ')}); the centernet decoder needs inputs image, size and outputs scores, indices, wh (scripts/centernet-to-onnx.ts)`);
      }
      if (labels.length !== 80) throw new DetectorModelError('VIGIL_DETECTOR_LABELS', `has ${labels.length} names; CenterNet has 80 classes`);
      const input = config.input ?? 512;
      return { decoder, file, input, labels, shipped, io: { input: 'image', outputs: names } };
    }
    // yolo: one image input [1, 3, S, S], one output [1, 4 + classes, boxes] (or its transpose, or with an objectness column)
    if (inputs.length !== 1) throw new DetectorModelError(fileSetting, `has ${inputs.length} inputs (${session.inputNames.join(', ')}); a YOLO model takes one image [1, 3, size, size]`);
    const [n, c, h, w] = dimsOf(inputs[0]);
    if (dimsOf(inputs[0]).length !== 4 || (c !== null && c !== 3) || (n !== null && n !== 1)) {
      throw new DetectorModelError(fileSetting, `input ${inputs[0].name} has shape [${(inputs[0].shape ?? []).join(', ')}]; a YOLO model takes [1, 3, size, size] (NCHW, RGB)`);
    }
    if (inputs[0].type && inputs[0].type !== 'float32') throw new DetectorModelError(fileSetting, `input ${inputs[0].name} is ${inputs[0].type}; a YOLO model takes float32`);
    if (h !== null && w !== null && h !== w) throw new DetectorModelError(fileSetting, `input ${inputs[0].name} is ${w}×${h}; Vigil runs square inputs`);
    const fixed = h ?? w;
    const input = config.input ?? fixed ?? 640;
    if (fixed !== null && input !== fixed) throw new DetectorModelError('VIGIL_DETECTOR_INPUT', `is ${input} but the model's input is ${fixed}×${fixed}`);
    if (outputs.length < 1) throw new DetectorModelError(fileSetting, 'has no output');
    const [b, a1, a2] = dimsOf(outputs[0]);
    if (dimsOf(outputs[0]).length !== 3 || (b !== null && b !== 1)) {
      throw new DetectorModelError(fileSetting, `output ${outputs[0].name} has shape [${(outputs[0].shape ?? []).join(', ')}]; the YOLO layout is [1, 4 + classes, boxes] or [1, boxes, 5 + classes]`);
    }
    const k = labels.length;
    const fits = [a1, a2].some((d) => d === null || d === 4 + k || d === 5 + k);
    if (!fits) {
      const classesSeen = [a1, a2].filter((d): d is number => d !== null).map((d) => `${d - 4} (or ${d - 5} with objectness)`).join(' or ');
      throw new DetectorModelError('VIGIL_DETECTOR_LABELS', `has ${k} names but the model's output [1, ${a1}, ${a2}] has ${classesSeen} classes`);
    }
    return { decoder, file, input, labels, shipped, io: { input: inputs[0].name, outputs: [outputs[0].name] } };
  } finally {
    await session.release();
  }
}
