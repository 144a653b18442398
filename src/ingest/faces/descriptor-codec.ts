/**
 * Stored form of a face descriptor: 1024 float32, little-endian (4096 bytes), for a BLOB
 * (SQLite) or BYTEA (PostgreSQL) column. Explicit byte order so a database moved between
 * machines reads the same numbers.
 */
export const DESCRIPTOR_LENGTH = 1024;

/**
 * What produced the descriptors. Descriptors from another model or preprocessing are not
 * comparable: store this beside each one and re-enrol faces whose version differs.
 */
export const DESCRIPTOR_MODEL = 'human-3.3.6/faceres/equalized';

export function descriptorToBytes(descriptor: Float32Array): Buffer {
  if (descriptor.length !== DESCRIPTOR_LENGTH) throw new Error(`a descriptor has ${DESCRIPTOR_LENGTH} numbers, not ${descriptor.length}`);
  const out = Buffer.alloc(DESCRIPTOR_LENGTH * 4);
  for (let i = 0; i < DESCRIPTOR_LENGTH; i++) out.writeFloatLE(descriptor[i], i * 4);
  return out;
}

export function descriptorFromBytes(bytes: Uint8Array): Float32Array {
  if (bytes.length !== DESCRIPTOR_LENGTH * 4) throw new Error(`a stored descriptor is ${DESCRIPTOR_LENGTH * 4} bytes, not ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(DESCRIPTOR_LENGTH);
  for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
    const v = view.getFloat32(i * 4, true);
    if (!Number.isFinite(v)) throw new Error(`stored descriptor has a non-finite number at ${i}`);
    out[i] = v;
  }
  return out;
}
