/**
 * "is the hall emptying out since the peak?": "since the peak" is from the peak's time to now
 * (docs/decisions.md, "Before round T: scene questions"). The words are read as "today" (the span the
 * peak is looked for in) and the interpretation carries `since_peak`; the answerer finds the day's
 * peak and tells the trend from its time.
 */
const SINCE_PEAK =
  /\b(?:since|from|after)\s+(?:the|its|today'?s)\s+(?:peak|high point|highest point|busiest point|busiest moment|busiest time)\b|\bsince\s+it\s+peaked\b/i;

/** The question with "since the peak" read as "today", and whether it was said. */
export function readSincePeak(query: string): { query: string; sincePeak: boolean } {
  if (!SINCE_PEAK.test(query)) return { query, sincePeak: false };
  return { query: query.replace(SINCE_PEAK, 'today'), sincePeak: true };
}
