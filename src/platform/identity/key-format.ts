import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key format (docs/design.md "Auth"): vk_live_<30 base62 random><6 base62 CRC32 of the prefix+random>.
 * The checksum lets us reject a mistyped or truncated key without a database lookup and lets
 * secret scanners recognise our keys. Only the SHA-256 is stored.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LEN = 30;
const CRC_LEN = 6;
/** every key's length: `vk_live_` or `vk_test_`, then the random part and the checksum */
export const KEY_LENGTH = 'vk_live_'.length + RANDOM_LEN + CRC_LEN;
export type KeyMode = 'live' | 'test';

function toBase62(n: number, width: number): string {
  let s = '';
  let v = n;
  for (let i = 0; i < width; i++) {
    s = ALPHABET[v % 62] + s;
    v = Math.floor(v / 62);
  }
  return s;
}

function randomBase62(len: number): string {
  // rejection sampling keeps the distribution uniform
  let out = '';
  while (out.length < len) {
    for (const b of randomBytes(len * 2)) {
      if (b < 248 && out.length < len) out += ALPHABET[b % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  return toBase62(crc32(body), CRC_LEN);
}

export function generateKey(mode: KeyMode): string {
  const body = `vk_${mode}_${randomBase62(RANDOM_LEN)}`;
  return body + checksum(body);
}

/** Parses a presented key; null when the shape or checksum is wrong. */
export function parseKey(key: string): { mode: KeyMode } | null {
  const m = /^vk_(live|test)_([0-9A-Za-z]{36})$/.exec(key);
  if (!m) return null;
  const body = key.slice(0, key.length - CRC_LEN);
  if (checksum(body) !== key.slice(-CRC_LEN)) return null;
  return { mode: m[1] as KeyMode };
}

/** One-shot `crypto.hash` (Node ≥ 20.12): half the cost of a Hash object, on every authenticated request. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function previewKey(key: string): string {
  return `${key.slice(0, 12)}…${key.slice(-4)}`;
}
