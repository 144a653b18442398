/**
 * Retry policy of webhook deliveries (docs/design.md "Webhooks": retried
 * with backoff for 24 hours, after which they are dropped). Exponential backoff from 10 s, doubling,
 * capped at 1 h, with full jitter (each delay uniform in [1 s, cap]) so receivers coming back from
 * an outage are not hit by every sender at once. The window runs from the series' FIRST attempt;
 * the last retry is scheduled at the window's end, after which the delivery is dropped.
 */
export const RETRY_WINDOW_MS = 24 * 3600_000;
export const RETRY_BASE_MS = 10_000;
export const RETRY_CAP_MS = 3600_000;
const MIN_DELAY_MS = 1000;

/** Delay before retry number `failedAttempts` (1 = after the first failure). */
export function computeRetryDelay(failedAttempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(30, Math.max(0, failedAttempts - 1)));
  return Math.max(MIN_DELAY_MS, Math.floor(random() * ceiling));
}

export type RetryPlan = { retryAt: number } | { drop: true };

/** After a failed attempt at `now`: when to try again, or drop once the 24 h window is spent. */
export function planRetry(now: number, firstAttemptAt: number, failedAttempts: number, random?: () => number): RetryPlan {
  const deadline = firstAttemptAt + RETRY_WINDOW_MS;
  if (now >= deadline) return { drop: true };
  return { retryAt: Math.min(now + computeRetryDelay(failedAttempts, random), deadline) };
}
