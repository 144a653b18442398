/**
 * A face embedder of the user's own (VIGIL_FACE_EMBEDDER): an ONNX model that turns a square RGB
 * crop of one face into a descriptor, such as ArcFace at 112×112. It replaces FaceRes for
 * descriptors only; BlazeFace and FaceMesh still find the faces. Checked at start: the file opens
 * in ONNX Runtime, takes one image [1, 3, S, S] float32 and gives one vector [1, D]; anything else
 * refuses the start with a message naming the setting. See docs/decisions.md, 'Faces: a face
 * embedder of your own'.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { createRequire } from 'node:module';
import type { FaceEmbedderConfig } from '../../platform/config/index.ts';
import { DESCRIPTOR_LENGTH, DESCRIPTOR_MODEL } from './descriptor-codec.ts';
import { MATCH_THRESHOLD } from './face-match.ts';
import type { NormalizedBox } from './face.types.ts';

export type { FaceEmbedderConfig };

/** The onnxruntime-node API used for embedders. */
export interface EmbedderOrtTensor {
  readonly data: ArrayLike<number>;
  readonly dims: readonly number[];
}
export interface EmbedderOrt {
  Tensor: new (type: 'float32', data: Float32Array, dims: readonly number[]) => EmbedderOrtTensor;
  InferenceSession: {
    create(
      path: string,
      options?: object,
    ): Promise<{
      inputNames: readonly string[];
      outputNames: readonly string[];
      inputMetadata: ReadonlyArray<{ name: string; type?: string; shape?: ReadonlyArray<number | string> }>;
      outputMetadata: ReadonlyArray<{ name: string; type?: string; shape?: ReadonlyArray<number | string> }>;
      run(feeds: Record<string, EmbedderOrtTensor>): Promise<Record<string, EmbedderOrtTensor>>;
      release(): Promise<void>;
    }>;
  };
}

/** A checked embedder, as the face worker loads it. */
export interface OnnxEmbedderSpec {
  file: string;
  /** input side in pixels */
  input: number;
  inputName: string;
  outputName: string;
  /** descriptor length */
  length: number;
}

/** What describes faces, and how its descriptors are compared. */
export interface FaceModel {
  /** stored beside every enrolled descriptor: faces of another model are not compared */
  id: string;
  /** descriptor length */
  length: number;
  /** cosine similarity at or above which a face is the enrolled person */
  threshold: number;
  /** the user's ONNX embedder; null = the shipped FaceRes */
  onnx: OnnxEmbedderSpec | null;
}

export class FaceEmbedderError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`config: ${setting}: ${problem}`);
    this.name = 'FaceEmbedderError';
  }
}

const require = createRequire(import.meta.url);
const dimsOf = (m: { shape?: ReadonlyArray<number | string> } | undefined) => (m?.shape ?? []).map((d) => (typeof d === 'number' && d > 0 ? d : null));

const SETTING = 'VIGIL_FACE_EMBEDDER';

type EmbedderSession = Awaited<ReturnType<EmbedderOrt['InferenceSession']['create']>>;

/** The first line of an error's message. */
const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

/** The shipped FaceRes, with the threshold the configuration may override. */
export function shippedFaceModel(threshold: number | null = null): FaceModel {
  return { id: DESCRIPTOR_MODEL, length: DESCRIPTOR_LENGTH, threshold: threshold ?? MATCH_THRESHOLD, onnx: null };
}

/**
 * Checks the configured face embedder and describes it (FaceEmbedderError names the setting and
 * the problem). Runs the model once on a grey face to learn the descriptor length and see that
 * it answers with finite numbers. The shipped FaceRes needs no check.
 */
export async function loadFaceModel(config: FaceEmbedderConfig, ortModule = 'onnxruntime-node'): Promise<FaceModel> {
  if (config.file === null) return shippedFaceModel(config.threshold);
  const file = config.file;
  if (!existsSync(file)) throw new FaceEmbedderError(SETTING, `file ${file} does not exist`);
  if (!statSync(file).isFile()) throw new FaceEmbedderError(SETTING, `${file} is not a file`);
  if (config.threshold === null)
    throw new FaceEmbedderError('VIGIL_FACE_MATCH_THRESHOLD', 'is required with VIGIL_FACE_EMBEDDER (measure it with scripts/face-roc.ts)');
  const ort = loadOrt(ortModule);
  const session = await openSession(ort, file);
  try {
    const { inputName, input } = checkInput(session, config.input);
    const outputName = checkOutput(session);
    const length = await descriptorLength(ort, session, { inputName, outputName, input });
    const digest = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
    return {
      id: `onnx/${basename(file)}/${digest}/${input}`,
      length,
      threshold: config.threshold,
      onnx: { file, input, inputName, outputName, length },
    };
  } finally {
    await session.release();
  }
}

function loadOrt(ortModule: string): EmbedderOrt {
  try {
    return require(ortModule) as EmbedderOrt;
  } catch (err) {
    throw new FaceEmbedderError(SETTING, `ONNX Runtime cannot load on this machine (${firstLine(err)}); a face embedder of your own needs it`);
  }
}

async function openSession(ort: EmbedderOrt, file: string): Promise<EmbedderSession> {
  try {
    return await ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  } catch (err) {
    throw new FaceEmbedderError(SETTING, `${file} is not a model ONNX Runtime can load (${firstLine(err).slice(0, 200)})`);
  }
}

/** The model takes one float32 image [1, 3, S, S]; its side is the model's fixed one, else the configured one, else 112. */
function checkInput(session: EmbedderSession, configured: number | null): { inputName: string; input: number } {
  const inputs = session.inputMetadata;
  if (inputs.length !== 1)
    throw new FaceEmbedderError(SETTING, `has ${inputs.length} inputs (${session.inputNames.join(', ')}); a face embedder takes one image [1, 3, size, size]`);
  const shape = dimsOf(inputs[0]);
  const [n, c, h, w] = shape;
  if (shape.length !== 4 || (n !== null && n !== 1) || (c !== null && c !== 3)) {
    throw new FaceEmbedderError(
      SETTING,
      `input ${inputs[0].name} has shape [${(inputs[0].shape ?? []).join(', ')}]; a face embedder takes [1, 3, size, size] (NCHW, RGB)`,
    );
  }
  if (inputs[0].type && inputs[0].type !== 'float32')
    throw new FaceEmbedderError(SETTING, `input ${inputs[0].name} is ${inputs[0].type}; a face embedder takes float32`);
  if (h !== null && w !== null && h !== w) throw new FaceEmbedderError(SETTING, `input ${inputs[0].name} is ${w}×${h}; face crops are square`);
  const fixed = h ?? w;
  const input = configured ?? fixed ?? 112;
  if (fixed !== null && input !== fixed) throw new FaceEmbedderError('VIGIL_FACE_EMBEDDER_INPUT', `is ${input} but the model's input is ${fixed}×${fixed}`);
  return { inputName: inputs[0].name, input };
}

/** The model gives one vector [1, length] (or [length]); returns the first output's name. */
function checkOutput(session: EmbedderSession): string {
  const outputs = session.outputMetadata;
  if (outputs.length < 1) throw new FaceEmbedderError(SETTING, 'has no output');
  const out = dimsOf(outputs[0]);
  if (out.length < 1 || out.length > 2 || (out.length === 2 && out[0] !== null && out[0] !== 1)) {
    throw new FaceEmbedderError(
      SETTING,
      `output ${outputs[0].name} has shape [${(outputs[0].shape ?? []).join(', ')}]; a face embedder gives one vector [1, length]`,
    );
  }
  return outputs[0].name;
}

/** Runs the model once on a grey face: the descriptor's length, once it is one vector of 16 to 4096 finite numbers. */
async function descriptorLength(ort: EmbedderOrt, session: EmbedderSession, io: { inputName: string; outputName: string; input: number }): Promise<number> {
  const { inputName, outputName, input } = io;
  let result: EmbedderOrtTensor;
  try {
    const grey = new Float32Array(3 * input * input);
    result = (await session.run({ [inputName]: new ort.Tensor('float32', grey, [1, 3, input, input]) }))[outputName];
  } catch (err) {
    throw new FaceEmbedderError(SETTING, `failed on a ${input}×${input} face (${firstLine(err).slice(0, 200)})`);
  }
  const got = result.dims.filter((d) => d !== 1);
  if (got.length !== 1)
    throw new FaceEmbedderError(SETTING, `output ${outputName} has shape [${result.dims.join(', ')}]; a face embedder gives one vector [1, length]`);
  const length = result.data.length;
  if (length < 16 || length > 4096) throw new FaceEmbedderError(SETTING, `gives ${length} numbers per face; a descriptor has 16 to 4096`);
  if (!Array.from(result.data).every(Number.isFinite)) throw new FaceEmbedderError(SETTING, 'gives numbers that are not finite');
  return length;
}

/**
 * The embedder's input for one face: a square around the face box (its longer side), resized
 * bilinearly to S×S, RGB planes (NCHW) scaled to -1..1 as (v - 127.5) / 127.5, the ArcFace
 * convention; outside the image is grey (0). The crop is not landmark-aligned: README, 'Bring
 * your own face embedder'.
 */
export function embedderInput(req: { width: number; height: number; data: Uint8Array }, box: NormalizedBox, side: number): Float32Array {
  const { width, height, data } = req;
  const cx = (box[0] + box[2] / 2) * width;
  const cy = (box[1] + box[3] / 2) * height;
  const span = Math.max(box[2] * width, box[3] * height, 1);
  const x0 = cx - span / 2;
  const y0 = cy - span / 2;
  const step = span / side;
  const plane = side * side;
  const out = new Float32Array(3 * plane);
  const px = (x: number, y: number, c: number) => (x < 0 || y < 0 || x >= width || y >= height ? 127.5 : data[(y * width + x) * 3 + c]);
  for (let j = 0; j < side; j++) {
    const sy = y0 + (j + 0.5) * step - 0.5;
    const yi = Math.floor(sy);
    const fy = sy - yi;
    for (let i = 0; i < side; i++) {
      const sx = x0 + (i + 0.5) * step - 0.5;
      const xi = Math.floor(sx);
      const fx = sx - xi;
      for (let c = 0; c < 3; c++) {
        const top = px(xi, yi, c) * (1 - fx) + px(xi + 1, yi, c) * fx;
        const bottom = px(xi, yi + 1, c) * (1 - fx) + px(xi + 1, yi + 1, c) * fx;
        out[c * plane + j * side + i] = (top * (1 - fy) + bottom * fy - 127.5) / 127.5;
      }
    }
  }
  return out;
}
