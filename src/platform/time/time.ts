let lastMs = Number.NaN;
let lastIso = '';

/**
 * ISO 8601 UTC with milliseconds (docs/design.md "Times"). The last result is kept: the detection
 * pipeline formats the same millisecond for many detections and audit entries in a row.
 */
export function toIso(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString(); // throws RangeError on an invalid time, before the cache changes
    lastMs = ms;
  }
  return lastIso;
}
