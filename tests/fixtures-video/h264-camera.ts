import { execFileSync } from 'node:child_process';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { VTEST_AVI } from './rtsp-camera.ts';

/**
 * An H.264 camera's file: the first `seconds` of vtest.avi encoded once by libx264 (Debian's ffmpeg
 * has it), a key frame every second, so a recorder copies it instead of transcoding.
 */
export function encodeH264Camera(file: string, seconds: number): string {
  execFileSync(resolveFfmpegPath(), [
    '-v',
    'error',
    '-y',
    '-i',
    VTEST_AVI,
    '-t',
    String(seconds),
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '10',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}
