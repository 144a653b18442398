/**
 * Shared by the language benches (agent plan time, scene-question interpretation): percentiles of
 * wall and CPU time per call (results are written by bench/machine.ts with the machine's state).
 */
function getPercentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round3 = (x: number) => Number(x.toFixed(3));

/** p50/p95/p99/max of wall time and p50/p95 of CPU time, in ms, and whether p95 is within budget. */
export function summarizeLatency(wall: number[], cpu: number[], budgetMs: number) {
  const w = [...wall].sort((a, b) => a - b);
  const c = [...cpu].sort((a, b) => a - b);
  return {
    p50_ms: round3(getPercentile(w, 50)),
    p95_ms: round3(getPercentile(w, 95)),
    p99_ms: round3(getPercentile(w, 99)),
    max_ms: round3(w[w.length - 1]),
    cpu_p50_ms: round3(getPercentile(c, 50)),
    cpu_p95_ms: round3(getPercentile(c, 95)),
    budget_ms: budgetMs,
    within_budget: getPercentile(w, 95) <= budgetMs,
    cpu_within_budget: getPercentile(c, 95) <= budgetMs,
  };
}
