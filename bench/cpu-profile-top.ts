import { readFileSync } from 'node:fs';

/**
 * Top self-time functions and files of a V8 .cpuprofile (from `node --cpu-prof`), so a bench's
 * profile can be read without DevTools: `node --import tsx bench/cpu-profile-top.ts FILE [N]`.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
const [file, nArg] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const self = new Map<number, number>();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const n of prof.nodes) {
  const t = self.get(n.id) ?? 0;
  const url = n.callFrame.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, 'nm:')
    .replace(/.*\/wt-[^/]+\//, '');
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  const f = url || n.callFrame.functionName;
  byFile.set(f, (byFile.get(f) ?? 0) + t);
}
const n = Number(nArg ?? 25);
const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`total ${(total / 1000).toFixed(0)} ms sampled\n-- self time by function`);
for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(pct(t), k);
console.log('-- self time by file');
for (const [k, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(pct(t), k);
