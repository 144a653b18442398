import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/**
 * Finds the ffmpeg binary: the system one on PATH (Debian package `ffmpeg`, what CI installs),
 * else the binary shipped by the optional npm dependency `@ffmpeg-installer/ffmpeg`, which
 * installs offline because the executable is inside the npm package.
 */
export function resolveFfmpegPath(): string {
  const onPath = findOnPath('ffmpeg');
  if (onPath) return onPath;
  try {
    const require = createRequire(import.meta.url);
    const shipped = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    if (isExecutable(shipped)) return shipped;
  } catch {
    // optional dependency not installed on this platform
  }
  throw new Error('ffmpeg not found: install the Debian package "ffmpeg" or the npm package @ffmpeg-installer/ffmpeg');
}

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
