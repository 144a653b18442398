/**
 * What the encoder of a transcoded recording costs a camera, ffmpeg alone (docs/decisions.md,
 * "Recordings: what a transcoded camera costs"): vtest.avi (MPEG-4 part 2, 768×576, 10 fps) decoded
 * as the ingest decodes a camera (PPM at 5 fps, 640 wide) with no second output, then with the
 * segment output of each encoder setting, read as fast as ffmpeg goes; per run the CPU time of the
 * ffmpeg and its threads (user + system, from the shell's `times`), the decode alone subtracted and
 * divided by the video's length: the cores one camera's encoder keeps busy. Rounds alternate the
 * order of the settings. Prints a table; writes nothing.
 *   BENCH_ROUNDS=3 node --import tsx bench/transcode-cost.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveFfmpegPath } from '../src/ingest/video/index.ts';
import { FfmpegFrameSource } from '../src/ingest/video/ffmpeg-frame-source.ts';
import { transcodeArgs } from '../src/org/recordings/segment-recorder.ts';

const VTEST = fileURLToPath(new URL('../../shared/fixtures/vtest.avi', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ffmpeg = resolveFfmpegPath();
const seconds = Number(execFileSync(ffmpeg.replace(/ffmpeg$/, 'ffprobe'), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', VTEST]));

/** libx264 settings after `-c:v libx264`; null: the decode alone */
const veryfast15 = ['-vf', 'fps=15', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '30'];
const SETTINGS: Record<string, string[] | null> = {
  'decode only': null,
  'veryfast, 15 fps (the old default)': veryfast15,
  'veryfast, 1 thread, 10 fps': ['-vf', 'fps=10', '-c:v', 'libx264', '-preset', 'veryfast', '-threads', '1', '-pix_fmt', 'yuv420p', '-g', '20'],
  'superfast, 1 thread, 10 fps': ['-vf', 'fps=10', '-c:v', 'libx264', '-preset', 'superfast', '-threads', '1', '-pix_fmt', 'yuv420p', '-g', '20'],
  'ultrafast, 1 thread, 10 fps, CRF 23': ['-vf', 'fps=10', '-c:v', 'libx264', '-preset', 'ultrafast', '-threads', '1', '-pix_fmt', 'yuv420p', '-g', '20'],
  'the recorder now (1280 wide, 10 fps)': transcodeArgs({ width: 1280, fps: 10 }, 10),
};

function segmentOutput(dir: string, codec: string[]): string[] {
  return ['-map', '0:v:0', ...codec, '-f', 'segment', '-segment_time', '10', '-reset_timestamps', '1', '-segment_format', 'mp4', join(dir, '%03d.mp4')];
}

/** user + system seconds of one ffmpeg run and its threads */
function cpuSeconds(args: string[]): number {
  // POSIX `times`: the shell's own times, then its children's ("0m5.120s 0m0.300s")
  const out = execFileSync('sh', ['-c', '"$@" && times', 'sh', ffmpeg, ...args], { encoding: 'utf8' });
  const [user, sys] = out
    .trim()
    .split('\n')
    .at(-1)!
    .split(' ')
    .map((t) => {
      const [, m, s] = /(\d+)m([\d.]+)s/.exec(t)!;
      return Number(m) * 60 + Number(s);
    });
  return user + sys;
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-transcode-cost-'));
const runs = new Map<string, number[]>(Object.keys(SETTINGS).map((k) => [k, []]));
const bytes = new Map<string, number>();
try {
  const decode = FfmpegFrameSource.buildArgs(`file://${VTEST}`, 5, 640).filter(
    (a, i, all) => !['-re', '-stream_loop'].includes(a) && !['-re', '-stream_loop'].includes(all[i - 1]),
  );
  decode.splice(decode.length - 1, 1, '-y', '/dev/null');
  for (let r = 0; r < ROUNDS; r++) {
    const names = Object.keys(SETTINGS);
    for (const name of r % 2 ? names.reverse() : names) {
      const out = join(dir, String(r), name.replace(/\W+/g, '-'));
      mkdirSync(out, { recursive: true });
      const codec = SETTINGS[name];
      runs.get(name)!.push(cpuSeconds([...decode, ...(codec ? segmentOutput(out, codec) : [])]));
      bytes.set(
        name,
        readdirSync(out).reduce((n, f) => n + statSync(join(out, f)).size, 0),
      );
      console.log(`round ${r + 1} ${name}: ${runs.get(name)!.at(-1)!.toFixed(2)} s CPU, load ${loadavg()[0].toFixed(1)}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const base = median(runs.get('decode only')!);
console.log(`\nvtest.avi, ${seconds} s; the decode alone ${base.toFixed(2)} s CPU (median of ${ROUNDS})`);
for (const [name, v] of runs) {
  if (name === 'decode only') continue;
  const cores = (median(v) - base) / seconds;
  console.log(`${name}: ${cores.toFixed(3)} cores a camera, ${(bytes.get(name)! / 1e6).toFixed(1)} MB (runs ${v.map((x) => x.toFixed(2)).join(', ')} s)`);
}
