/**
 * Stored form of a face descriptor: 1024 float32 for FaceRes (a user's embedder: its own length), little-endian (4096 bytes), for a BLOB
 * (SQLite) or BYTEA (PostgreSQL) column. Explicit byte order so a database moved between
 * machines reads the same numbers.
 */
export const DESCRIPTOR_LENGTH = 1024;

/**
 * What produced the descriptors. Descriptors from another model or preprocessing are not
 * comparable: store this beside each one and re-enrol faces whose version differs.
 */
export const DESCRIPTOR_MODEL = 'human-3.3.6/faceres/equalized';

/** `length`: the model's descriptor length (FaceRes's by default; a user's embedder has its own). */
export function descriptorToBytes(descriptor: Float32Array, length = DESCRIPTOR_LENGTH): Buffer {
  if (descriptor.length !== length) throw new Error(`a descriptor has ${length} numbers, not ${descriptor.length}`);
  const out = Buffer.alloc(length * 4);
  for (let i = 0; i < length; i++) out.writeFloatLE(descriptor[i], i * 4);
  return out;
}

export function descriptorFromBytes(bytes: Uint8Array, length = DESCRIPTOR_LENGTH): Float32Array {
  if (bytes.length !== length * 4) throw new Error(`a stored descriptor is ${length * 4} bytes, not ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const v = view.getFloat32(i * 4, true);
    if (!Number.isFinite(v)) throw new Error(`stored descriptor has a non-finite number at ${i}`);
    out[i] = v;
  }
  return out;
}
