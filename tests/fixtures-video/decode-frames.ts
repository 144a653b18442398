import { spawn } from 'node:child_process';
import { PpmFrameParser } from '../../src/ingest/video/ppm-frame-parser.ts';
import type { RgbFrame } from '../../src/ingest/video/video.types.ts';

/** The first `count` frames of a video at `fps`, 640 wide, decoded by ffmpeg (after an optional crop filter). */
export async function decodeFrames(file: string, count: number, fps = 5, crop?: string): Promise<RgbFrame[]> {
  const frames: RgbFrame[] = [];
  const parser = new PpmFrameParser((f) => frames.push(f));
  const ffmpeg = spawn('ffmpeg', [
    '-v',
    'error',
    '-i',
    file,
    '-vf',
    `${crop ? `crop=${crop},` : ''}fps=${fps},scale=640:-2`,
    '-frames:v',
    String(count),
    '-f',
    'image2pipe',
    '-c:v',
    'ppm',
    '-',
  ]);
  ffmpeg.stdout.on('data', (b: Buffer) => parser.push(b));
  const code = await new Promise((r) => ffmpeg.on('close', r));
  if (code !== 0 || frames.length !== count) throw new Error(`ffmpeg decoded ${frames.length}/${count} frames (exit ${code})`);
  return frames;
}
