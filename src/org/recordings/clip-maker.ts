import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SegmentRow } from './recording.repository.ts';

const run = promisify(execFile);

export interface Clip {
  file: string;
  contentType: 'video/mp4' | 'video/webm';
  bytes: number;
}

/** how long a made clip is kept for the next request of the same range (Range requests, the bundle) */
const CLIP_CACHE_MS = 3600_000;

function quote(path: string): string {
  return `'${path.replace(/'/g, "'\\''")}'`;
}

/**
 * The concat demuxer's list for phone stills: each shown until the next one (at least 0.2 s, at
 * most 5 s; the last one until the range ends, at most 1 s).
 */
function stillsConcatList(root: string, parts: SegmentRow[], to: number): string[] {
  const lines: string[] = [];
  parts.forEach((p, i) => {
    const next = parts[i + 1]?.start_at ?? Math.min(to, p.start_at + 1000);
    lines.push(`file ${quote(join(root, p.path))}`, `duration ${Math.max(0.2, Math.min(5, (next - p.start_at) / 1000)).toFixed(3)}`);
  });
  // the concat demuxer takes the last file's duration only when the file is named once more
  lines.push(`file ${quote(join(root, parts[parts.length - 1].path))}`);
  return lines;
}

/** The concat demuxer's list for video segments, the first and last trimmed to the range. */
function segmentsConcatList(root: string, parts: SegmentRow[], from: number, to: number): string[] {
  const lines: string[] = [];
  for (const p of parts) {
    lines.push(`file ${quote(join(root, p.path))}`);
    if (from > p.start_at) lines.push(`inpoint ${((from - p.start_at) / 1000).toFixed(3)}`);
    if (to < p.end_at) lines.push(`outpoint ${((to - p.start_at) / 1000).toFixed(3)}`);
  }
  return lines;
}

/** ffmpeg's quiet, overwriting start reading the concat list `list` (paths in it are absolute). */
function concatInput(list: string): string[] {
  return ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list];
}

/** ffmpeg's arguments encoding the stills of `list` into an H.264 MP4 at 5 fps, its index first. */
function encodeStillsArgs(list: string, tmp: string): string[] {
  return [
    ...concatInput(list),
    '-vf',
    'scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p',
    '-r',
    '5',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    tmp,
  ];
}

/** ffmpeg's arguments joining the segments of `list` without re-encoding, into WebM (VP8) or an MP4 with its index first. */
function copySegmentsArgs(list: string, tmp: string, webm: boolean): string[] {
  return [...concatInput(list), '-map', '0:v:0', '-c', 'copy', ...(webm ? ['-f', 'webm'] : ['-movflags', '+faststart', '-f', 'mp4']), tmp];
}

/**
 * Makes a clip of a range from its segments (docs/decisions.md, "Recordings: a second output of
 * the decoding ffmpeg"): video segments are joined by ffmpeg's concat demuxer without re-encoding
 * (`-c copy`), trimmed to the range at the nearest keyframes, into an MP4 with its index first
 * (`+faststart`) so a browser plays and seeks it at once; VP8 (WHIP) segments into WebM. Phone
 * stills are encoded into an H.264 MP4, each shown until the next one (at most 5 s). The clip is
 * written to a temporary name and renamed, and kept an hour for the requests that follow.
 */
export class ClipMaker {
  constructor(private readonly deps: { root: string; ffmpegPath(): string }) {}

  private get cacheDir(): string {
    return join(this.deps.root, '.clips');
  }

  async make(segments: SegmentRow[], from: number, to: number): Promise<Clip> {
    const kind = segments[0].kind;
    const codec = segments[0].codec;
    // one clip holds one kind of media: a stream's segments share it unless its source changed
    const parts = segments.filter((s) => s.kind === kind && s.codec === codec);
    const webm = codec === 'vp8';
    const key = createHash('sha256')
      .update(JSON.stringify([parts.map((p) => p.id), from, to]))
      .digest('hex')
      .slice(0, 32);
    mkdirSync(this.cacheDir, { recursive: true });
    const out = join(this.cacheDir, `${key}.${webm ? 'webm' : 'mp4'}`);
    const contentType = webm ? 'video/webm' : 'video/mp4';
    if (existsSync(out)) return { file: out, contentType, bytes: statSync(out).size };
    const tmp = join(this.cacheDir, `.${key}-${randomBytes(4).toString('hex')}`);
    const list = `${tmp}.txt`;
    try {
      const lines = kind === 'still' ? stillsConcatList(this.deps.root, parts, to) : segmentsConcatList(this.deps.root, parts, from, to);
      writeFileSync(list, lines.join('\n') + '\n');
      const args = kind === 'still' ? encodeStillsArgs(list, tmp) : copySegmentsArgs(list, tmp, webm);
      await run(this.deps.ffmpegPath(), args, { timeout: 120_000 });
      renameSync(tmp, out);
    } finally {
      rmSync(list, { force: true });
      rmSync(tmp, { force: true });
    }
    return { file: out, contentType, bytes: statSync(out).size };
  }

  /** Drops clips made more than an hour ago. */
  prune(now: number): void {
    let names: string[];
    try {
      names = readdirSync(this.cacheDir);
    } catch {
      return;
    }
    for (const n of names) {
      const f = join(this.cacheDir, n);
      try {
        if (now - statSync(f).mtimeMs > CLIP_CACHE_MS) rmSync(f, { force: true });
      } catch {
        // gone meanwhile
      }
    }
  }
}
