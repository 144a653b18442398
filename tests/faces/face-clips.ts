import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { systemClock } from '../../src/platform/time/clock.ts';
import { FfmpegFrameSource } from '../../src/ingest/video/ffmpeg-frame-source.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/ffmpeg-path.ts';
import type { RgbFrame } from '../../src/ingest/faces/index.ts';

const run = promisify(execFile);

/**
 * A 640×480 H.264 clip like a door camera: one second of an empty doorway, then the face (a
 * portrait JPEG, ~130 px face) slides in and crosses slowly. Without a face, the doorway only.
 */
export async function makeFaceClip(dir: string, name: string, portrait: Buffer | null, seconds = 3): Promise<string> {
  const out = join(dir, `${name}.mp4`);
  const input = ['-f', 'lavfi', '-i', `color=c=0x3a4450:s=640x480:r=10:d=${seconds}`];
  const args = ['-v', 'error', '-y', ...input];
  if (portrait) {
    const face = join(dir, `${name}.jpg`);
    await writeFile(face, portrait);
    args.push('-loop', '1', '-i', face, '-filter_complex', "[0][1]overlay=x='60+(t-1)*60':y=90:enable='gte(t,1)':shortest=1");
  }
  args.push('-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-t', String(seconds), out);
  await run(resolveFfmpegPath(), args);
  return out;
}

/**
 * The first `count` frames of a clip as the pipeline receives them: through the project's
 * FfmpegFrameSource (real-time playback, 5 fps, 640 wide).
 */
export async function framesFromSource(file: string, count: number, detectFps = 5): Promise<RgbFrame[]> {
  const frames: RgbFrame[] = [];
  let done!: () => void;
  let fail!: (err: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    done = resolve;
    fail = reject;
  });
  const source = new FfmpegFrameSource({
    sourceUrl: `file://${file}`,
    clock: systemClock,
    detectFps,
    onFrame(frame) {
      if (frames.length < count) frames.push(frame);
      if (frames.length === count) done();
    },
    onStatus(status, error) {
      if (status === 'reconnecting' || status === 'offline') fail(new Error(`frame source ${status}: ${error}`));
    },
  });
  source.start();
  try {
    await finished;
  } finally {
    await source.stop();
  }
  return frames;
}
