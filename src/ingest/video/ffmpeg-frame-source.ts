import { metrics } from '../../platform/metrics/index.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../platform/time/index.ts';
import { resolveFfmpegPath } from './ffmpeg-path.ts';
import { PpmFrameParser } from './ppm-frame-parser.ts';
import { redactCredentials } from './source-url.ts';
import type { RgbFrame, StreamStatus } from './video.types.ts';
import type { CameraRecorder, RecordingSession } from './recording-output.ts';

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
}

export interface FfmpegFrameSourceOptions {
  sourceUrl: string;
  clock: Clock;
  /** frames per second handed to the pipeline; default 5 */
  detectFps?: number;
  /** frame width handed to the pipeline, aspect kept, never upscaled; default 640 */
  detectWidth?: number;
  ffmpegPath?: string;
  /** RTSP lower transport; default: ffmpeg's own (UDP, then TCP) */
  rtspTransport?: 'tcp' | 'udp';
  /** reconnect delays: initialMs doubling up to maxMs; default 1 s → 30 s */
  backoff?: BackoffOptions;
  /** a loss lasting this long turns `reconnecting` into `offline`; default 30 s */
  offlineAfterMs?: number;
  /** no first frame this long after starting ffmpeg restarts it; default 20 s (RTSP probing takes ~3–5 s) */
  connectTimeoutMs?: number;
  /** no frame for this long once frames flowed restarts ffmpeg; default 10 s */
  stallTimeoutMs?: number;
  onFrame(frame: RgbFrame, at: number): void;
  onStatus(status: StreamStatus, error: string | null): void;
  /** records the source as a second output of the same ffmpeg (org/recordings); absent: decode only */
  recorder?: CameraRecorder;
}

/**
 * One supervised ffmpeg child per stream, decoding the source to raw frames at detect rate and
 * size. It never throws at its caller: failures become status changes and reconnect attempts
 * with exponential backoff, timed on the injected clock.
 */
export class FfmpegFrameSource {
  status: StreamStatus = 'connecting';
  error: string | null = null;
  reconnects = 0;
  /** when the next reconnect attempt is due (clock ms), null while connected or connecting */
  retryAt: number | null = null;
  private child: ChildProcess | null = null;
  /** the ffmpeg being ended so that the recorder can record the next one (not a failure) */
  private restartingFor: ChildProcess | null = null;
  /** why the current ffmpeg is being ended, when we end it (stall, garbage output) */
  private endReason: string | null = null;
  private childExited: Promise<void> = Promise.resolve();
  private retryTimer: unknown = null;
  private stallTimer: unknown = null;
  private failures = 0;
  private lostAt: number;
  private stopping = false;
  private readonly ffmpegPath: string | null;
  private readonly backoffInitial: number;
  private readonly backoffMax: number;
  private readonly offlineAfterMs: number;
  private readonly stallTimeoutMs: number;
  private readonly connectTimeoutMs: number;

  constructor(private readonly o: FfmpegFrameSourceOptions) {
    this.backoffInitial = o.backoff?.initialMs ?? 1000;
    this.backoffMax = o.backoff?.maxMs ?? 30_000;
    this.offlineAfterMs = o.offlineAfterMs ?? 30_000;
    this.stallTimeoutMs = o.stallTimeoutMs ?? 10_000;
    this.connectTimeoutMs = o.connectTimeoutMs ?? 20_000;
    this.lostAt = o.clock.now();
    let path: string | null = o.ffmpegPath ?? null;
    if (!path) {
      try {
        path = resolveFfmpegPath();
      } catch (err) {
        this.error = (err as Error).message;
      }
    }
    this.ffmpegPath = path;
  }

  start(): void {
    this.o.onStatus(this.status, this.error);
    this.launch();
  }

  /** Ends ffmpeg and every timer; no status is reported afterwards. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.retryTimer !== null) this.o.clock.clearTimeout(this.retryTimer);
    if (this.stallTimer !== null) this.o.clock.clearTimeout(this.stallTimer);
    this.retryTimer = this.stallTimer = null;
    const child = this.child;
    if (child) terminate(child);
    await this.childExited;
  }

  /** The ffmpeg command line: decode, drop audio, resample to detectFps, scale, raw PPM to stdout. */
  static buildArgs(sourceUrl: string, detectFps: number, detectWidth: number, rtspTransport?: 'tcp' | 'udp'): string[] {
    const url = new URL(sourceUrl);
    const input: string[] = [];
    let target = sourceUrl;
    if (url.protocol === 'file:') {
      // a file plays in real time and loops, behaving like a camera (demos and tests)
      input.push('-re', '-stream_loop', '-1');
      target = fileURLToPath(url);
    } else if (url.protocol.startsWith('rtsp')) {
      if (rtspTransport) input.push('-rtsp_transport', rtspTransport);
    }
    return [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      ...input,
      '-i',
      target,
      '-an',
      '-sn',
      '-dn',
      // escaped comma: it is inside one filter's argument, not between filters
      '-vf',
      `fps=${detectFps},scale=w=min(${detectWidth}\\,iw):h=-2`,
      '-f',
      'image2pipe',
      '-c:v',
      'ppm',
      '-',
    ];
  }

  private launch(): void {
    if (this.stopping) return;
    if (!this.ffmpegPath) return this.fail(this.error ?? 'ffmpeg not found');
    const recorder = this.o.recorder;
    if (!recorder) return this.spawnDecoder(this.ffmpegPath, null);
    // the recorder may probe the source's codec first; a recorder that fails never stops decoding
    const path = this.ffmpegPath;
    // stop() while the recorder opens waits for it; the decoder is then not started
    this.childExited = recorder
      .open(this.o.sourceUrl, () => this.restartToRecord())
      .then(
        (session) => {
          if (this.stopping) return session?.ended();
          this.spawnDecoder(path, session);
        },
        () => {
          if (!this.stopping) this.spawnDecoder(path, null);
        },
      );
  }

  /**
   * The recorder can record this stream now (a transcoding slot came free): the running ffmpeg is
   * ended and started again at once, which opens the recorder again; not counted as a failure or
   * reconnect. Between runs nothing is needed: the next start opens the recorder anyway.
   */
  private restartToRecord(): void {
    const child = this.child;
    if (this.stopping || !child) return;
    this.restartingFor = child;
    terminate(child);
  }

  private spawnDecoder(ffmpegPath: string, recording: RecordingSession | null): void {
    const args = FfmpegFrameSource.buildArgs(this.o.sourceUrl, this.o.detectFps ?? 5, this.o.detectWidth ?? 640, this.o.rtspTransport);
    if (recording) args.push(...recording.args);
    let child: ChildProcess;
    try {
      child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      recording?.ended();
      return this.fail(`could not start ffmpeg: ${(err as Error).message}`);
    }
    this.child = child;
    this.endReason = null;
    let stderrTail = '';
    const parser = new PpmFrameParser((frame) => this.receive(frame));
    child.stdout!.on('data', (chunk: Buffer) => {
      try {
        parser.push(chunk);
      } catch (err) {
        // something answered, but not with video (a web page, garbage bytes)
        this.endReason = `source did not produce video: ${(err as Error).message}`;
        terminate(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    this.childExited = new Promise((resolve) => {
      let settled = false;
      const onGone = (reason: string) => {
        if (settled) return;
        settled = true;
        if (this.child === child) this.child = null;
        if (this.stallTimer !== null) this.o.clock.clearTimeout(this.stallTimer);
        this.stallTimer = null;
        recording?.ended();
        resolve();
        if (this.restartingFor === child) {
          this.restartingFor = null;
          return this.launch();
        }
        const lastLine = stderrTail.trim().split('\n').filter(Boolean).at(-1);
        this.fail(this.endReason ?? (lastLine ? redactCredentials(lastLine.trim()) : reason));
      };
      child.once('error', (err) => onGone(`could not start ffmpeg: ${err.message}`));
      child.once('close', (code, signal) => onGone(signal ? `ffmpeg ended by ${signal}` : `source ended (ffmpeg exit code ${code})`));
    });
    this.armStallTimer(child, this.connectTimeoutMs);
  }

  private receive(frame: RgbFrame): void {
    if (this.stopping) return;
    const at = this.o.clock.now();
    if (this.child) this.armStallTimer(this.child, this.stallTimeoutMs);
    if (this.status !== 'live') {
      this.failures = 0;
      this.error = null;
      this.setStatus('live');
    }
    this.o.onFrame(frame, at);
  }

  /** A source that stops sending (camera unplugged mid-stream, UDP gone quiet) is restarted. */
  private armStallTimer(child: ChildProcess, timeoutMs: number): void {
    if (this.stallTimer !== null) this.o.clock.clearTimeout(this.stallTimer);
    this.stallTimer = this.o.clock.setTimeout(() => {
      this.stallTimer = null;
      if (this.child !== child) return;
      this.endReason = `no frames for ${Math.round(timeoutMs / 1000)} s`;
      terminate(child);
    }, timeoutMs);
  }

  private fail(reason: string): void {
    if (this.stopping) return;
    const now = this.o.clock.now();
    if (this.status === 'live') {
      this.lostAt = now;
      this.reconnects++;
      metrics().streamReconnects.inc();
    }
    this.error = reason;
    const next: StreamStatus = now - this.lostAt >= this.offlineAfterMs ? 'offline' : 'reconnecting';
    this.setStatus(next);
    const delay = Math.min(this.backoffMax, this.backoffInitial * 2 ** this.failures);
    this.failures++;
    this.retryAt = now + delay;
    this.retryTimer = this.o.clock.setTimeout(() => {
      this.retryTimer = null;
      this.retryAt = null;
      this.launch();
    }, delay);
  }

  private setStatus(status: StreamStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.o.onStatus(status, this.error);
  }
}

/** SIGTERM lets ffmpeg close the RTSP session politely; SIGKILL if it hangs (dead network). */
function terminate(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 2000);
  force.unref();
  child.once('close', () => clearTimeout(force));
}
