import { spawn, type ChildProcess } from 'node:child_process';
import { PpmFrameParser, type RecordingSession, type RgbFrame } from '../../ingest/video/index.ts';
import type { EncodedFrame, WebRtcVideoCodec } from './rtp-frame-assembler.ts';

export interface WebRtcDecoderOptions {
  codec: WebRtcVideoCodec;
  ffmpegPath: string;
  /** frames per second handed to the pipeline (same meaning as for cameras); default 5 */
  detectFps?: number;
  /** frame width handed to the pipeline, aspect kept, never upscaled; default 640 */
  detectWidth?: number;
  onFrame(frame: RgbFrame): void;
  /** ffmpeg ended without being asked to (crash, garbage it could not get past) */
  onExit(reason: string): void;
  /** records the published video as a second output of this ffmpeg (org/recordings); absent: decode only */
  recording?: RecordingSession | null;
}

/** Encoded bytes queued for ffmpeg beyond which frames are dropped until the next keyframe. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

/**
 * One ffmpeg per published track, fed the depacketized frames on stdin (VP8 in an IVF
 * container, H.264 as an Annex B elementary stream) and decoding them to PPM frames at detect
 * rate and size, exactly what the RTSP path hands the frame pipeline. Timestamps are the wall
 * clock of arrival, so the fps filter paces by real time whatever the publisher's frame rate;
 * a resolution change mid-stream (a phone rotated, a publisher adapting to bandwidth) is a new
 * keyframe with new dimensions, on which the session starts a new decoder (keyframeFormat), because
 * ffmpeg would keep scaling every frame to the first frame's size.
 */
export class WebRtcDecoder {
  private readonly child: ChildProcess;
  private closing = false;
  private readonly exited: Promise<void>;
  private ivfStarted = false;
  private firstTimestamp: number | null = null;
  /** after a dropped frame nothing is written until the next keyframe */
  private skipping = false;
  framesWritten = 0;
  /** whether this ffmpeg also records (a second output) */
  readonly recording: boolean;
  framesDecoded = 0;

  /** the ffmpeg's process id (undefined if it could not start) */
  get pid(): number | undefined {
    return this.child.pid;
  }

  constructor(private readonly o: WebRtcDecoderOptions) {
    this.recording = !!o.recording;
    const fps = o.detectFps ?? 5;
    const width = o.detectWidth ?? 640;
    const args = [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      // decode each frame as soon as it arrives: no probing backlog, no frame-thread delay
      '-fflags',
      'nobuffer',
      '-flags',
      'low_delay',
      '-probesize',
      '32',
      '-analyzeduration',
      '0',
      '-threads',
      '1',
      '-use_wallclock_as_timestamps',
      '1',
      '-f',
      o.codec === 'VP8' ? 'ivf' : 'h264',
      '-i',
      'pipe:0',
      '-an',
      '-sn',
      '-dn',
      '-vf',
      `fps=${fps},scale=w=min(${width}\\,iw):h=-2`,
      '-f',
      'image2pipe',
      '-c:v',
      'ppm',
      '-',
      ...(o.recording?.args ?? []),
    ];
    this.child = spawn(o.ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const parser = new PpmFrameParser((frame) => {
      this.framesDecoded++;
      if (!this.closing) o.onFrame(frame);
    });
    let stderrTail = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      try {
        parser.push(chunk);
      } catch (err) {
        this.child.kill('SIGKILL');
        stderrTail += `\nbad decoder output: ${(err as Error).message}`;
      }
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    // a write after ffmpeg died is reported through 'close' below, not as an uncaught EPIPE
    this.child.stdin!.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      let done = false;
      const gone = (reason: string) => {
        if (done) return;
        done = true;
        o.recording?.ended();
        resolve();
        if (!this.closing) {
          const last = stderrTail.trim().split('\n').filter(Boolean).at(-1);
          o.onExit(last ? `decoder: ${last}` : reason);
        }
      };
      this.child.once('error', (err) => gone(`could not start ffmpeg: ${err.message}`));
      this.child.once('close', (code, signal) => gone(signal ? `decoder ended by ${signal}` : `decoder exited with code ${code}`));
    });
  }

  /**
   * Queues one encoded frame; false when it was dropped because ffmpeg is behind (the caller
   * asks the publisher for a keyframe, which is where decoding resumes).
   */
  write(frame: EncodedFrame): boolean {
    if (this.closing) return true;
    const stdin = this.child.stdin!;
    if (this.skipping && !frame.keyframe) return false;
    if (stdin.writableLength > MAX_QUEUED_BYTES) {
      this.skipping = true;
      return false;
    }
    this.skipping = false;
    if (this.o.codec === 'VP8') {
      if (!this.ivfStarted) {
        if (!frame.keyframe) return false;
        stdin.write(ivfFileHeader(frame.data));
        this.ivfStarted = true;
      }
      this.firstTimestamp ??= frame.rtpTimestamp;
      const ms = Math.round(((frame.rtpTimestamp - this.firstTimestamp + 2 ** 32) % 2 ** 32) / 90);
      const header = Buffer.alloc(12);
      header.writeUInt32LE(frame.data.length, 0);
      header.writeBigUInt64LE(BigInt(ms), 4);
      stdin.write(header);
    }
    stdin.write(frame.data);
    this.framesWritten++;
    return true;
  }

  /** Ends ffmpeg (stdin closed, then killed if it lingers); onExit is not called. */
  async close(): Promise<void> {
    if (this.closing) return this.exited;
    this.closing = true;
    this.child.stdin!.end();
    const force = setTimeout(() => this.child.kill('SIGKILL'), 1500);
    force.unref();
    await this.exited;
    clearTimeout(force);
  }
}

/** IVF's 32-byte file header (the container libvpx's tools use): VP8, millisecond time base. */
function ivfFileHeader(keyframe: Buffer): Buffer {
  const h = Buffer.alloc(32);
  h.write('DKIF', 0, 'ascii');
  h.writeUInt16LE(0, 4);
  h.writeUInt16LE(32, 6);
  h.write('VP80', 8, 'ascii');
  const { width, height } = vp8KeyframeSize(keyframe) ?? { width: 0, height: 0 };
  h.writeUInt16LE(width, 12);
  h.writeUInt16LE(height, 14);
  h.writeUInt32LE(1000, 16);
  h.writeUInt32LE(1, 20);
  h.writeUInt32LE(0, 24);
  return h;
}

/**
 * What identifies the picture format of a keyframe: VP8's coded size, or H.264's sequence
 * parameter set (which holds the size) compared byte for byte; null for other frames. A change
 * means a new decoder: ffmpeg would otherwise scale the new size back to the first one.
 */
export function keyframeFormat(frame: EncodedFrame): string | null {
  if (!frame.keyframe) return null;
  if (frame.codec === 'VP8') {
    const size = vp8KeyframeSize(frame.data);
    return size ? `${size.width}x${size.height}` : null;
  }
  const d = frame.data;
  for (let i = 0; i + 3 < d.length; i++) {
    if (d[i] === 0 && d[i + 1] === 0 && d[i + 2] === 1 && (d[i + 3] & 0x1f) === 7) {
      let end = i + 3;
      while (end + 2 < d.length && !(d[end] === 0 && d[end + 1] === 0 && (d[end + 2] === 1 || d[end + 2] === 0))) end++;
      return d.subarray(i + 3, end).toString('hex');
    }
  }
  return null;
}

/** Width and height of a VP8 keyframe (RFC 6386 §9.1: start code 9d 01 2a, then 14-bit sizes). */
export function vp8KeyframeSize(frame: Buffer): { width: number; height: number } | null {
  if (frame.length < 10 || (frame[0] & 1) !== 0) return null;
  if (frame[3] !== 0x9d || frame[4] !== 0x01 || frame[5] !== 0x2a) return null;
  return { width: frame.readUInt16LE(6) & 0x3fff, height: frame.readUInt16LE(8) & 0x3fff };
}
