/** ISO 8601 UTC with milliseconds (DESIGN.md "Times"). */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
