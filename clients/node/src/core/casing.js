// camelCase on the JavaScript side, snake_case on the wire (the spec's Node example reads
// `result.respondersNotified` for the wire field `responders_notified`). Only object keys are
// renamed, at every depth; values (ids, enum strings, free text) are never touched.

/** `responders_notified` → `respondersNotified`; `last_24h` keeps its underscore so it round-trips. */
export function camelCaseKey(key) {
  return key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

/** `respondersNotified` → `responders_notified`. */
export function snakeCaseKey(key) {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function renameKeysDeep(value, rename) {
  if (Array.isArray(value)) return value.map((v) => renameKeysDeep(v, rename));
  if (!isPlainObject(value)) return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[rename(k)] = renameKeysDeep(v, rename);
  }
  return out;
}

export function camelizeKeys(value) {
  return renameKeysDeep(value, camelCaseKey);
}

export function snakeizeKeys(value) {
  return renameKeysDeep(value, snakeCaseKey);
}
