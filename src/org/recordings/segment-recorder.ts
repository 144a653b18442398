import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { CameraRecorder, RecordingSession } from '../../ingest/video/index.ts';
import { TranscodeSlots } from './transcode-slots.ts';

const run = promisify(execFile);

/** A closed segment, renamed into place, hashed, waiting to be sealed (row + audit entry). */
export interface ClosedSegment {
  tenantId: string;
  streamId: string;
  kind: 'video' | 'still';
  startAt: number;
  endAt: number;
  /** relative to the recordings directory */
  path: string;
  sha256: string;
  bytes: number;
  codec: 'h264' | 'vp8' | 'jpeg';
}

export interface SegmentRecorderDeps {
  /** the recordings directory (may be shared storage; each node writes its open segments under its own name) */
  root: string;
  nodeId: string;
  ffmpegPath(): string;
  segmentSeconds: number;
  /** `max`: how many streams this node transcodes at once (VIGIL_RECORDINGS_MAX_TRANSCODES); copies are not counted */
  transcode: { width: number; fps: number; max?: number };
  /** a stream that needs transcoding found every slot taken: decoded without recording, once until it records again */
  waiting?(k: StreamKey, reason: string): void;
  /** a stream that waited records now */
  resumed?(k: StreamKey): void;
  /** writes the segment's row and its audit entry in one transaction; a throw leaves the file to the next recovery */
  seal(segment: ClosedSegment): Promise<void>;
  /** why recording cannot go on now (storage low, directory unwritable), else null */
  blocked(): string | null;
  log?: { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
}

export interface StreamKey {
  tenantId: string;
  streamId: string;
}

const OPEN_DIR = '.open';
const LIST = 'segments.csv';
/** fragmented MP4: a segment cut short by kill -9 still holds every whole fragment (recovered at the next start) */
const FRAGMENTED = 'movflags=+frag_keyframe+empty_moov+default_base_moof';

/** SHA-256 (hex) and size of a file, streamed. */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    h.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: h.digest('hex'), bytes };
}

/** The duration in seconds of a media file, or null when ffprobe finds no playable video in it. */
export async function probeDuration(ffprobe: string, file: string): Promise<number | null> {
  try {
    const { stdout } = await run(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file], { timeout: 15_000 });
    const d = Number(stdout.trim());
    return Number.isFinite(d) && d > 0 ? d : null;
  } catch {
    return null;
  }
}

export function ffprobeOf(ffmpeg: string): string {
  return ffmpeg.replace(/ffmpeg(\.exe)?$/, (_m, ext: string | undefined) => `ffprobe${ext ?? ''}`);
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Writes a stream's video as ~10 s segments, as a second output of the ffmpeg that decodes it
 * (docs/decisions.md, "Recordings: a second output of the decoding ffmpeg"). ffmpeg's segment
 * muxer writes each segment under `<root>/<tenant>/<stream>/.open/<node>/<launch>/` and lists it
 * in `segments.csv` once it is closed; closed segments are renamed to
 * `<root>/<tenant>/<stream>/<day>/<start>-<end>.<ext>`, hashed and sealed (a row and an audit
 * entry). When that ffmpeg ends, and at the next start after a crash, what is left open is
 * remuxed (a fragmented MP4 keeps every whole fragment) or dropped when nothing plays.
 */
export class SegmentRecorder {
  private readonly probed = new Map<string, string>();
  private readonly sessions = new Set<Promise<void>>();
  readonly slots: TranscodeSlots;
  /** streams that were told they wait for a slot, until they record */
  private readonly toldWaiting = new Set<string>();

  constructor(private readonly deps: SegmentRecorderDeps) {
    this.slots = new TranscodeSlots(deps.transcode.max ?? Infinity);
  }

  private streamDir(k: StreamKey): string {
    return join(this.deps.root, k.tenantId, k.streamId);
  }

  private openRoot(k: StreamKey): string {
    return join(this.streamDir(k), OPEN_DIR, this.deps.nodeId);
  }

  /**
   * A camera's recorder: probes the codec once per source (H.264 is copied, anything else
   * transcoded, within the node's limit on transcodes).
   */
  camera(k: StreamKey, opts: { rtspTransport?: 'tcp' | 'udp'; isWithheld?: () => boolean } = {}): CameraRecorder {
    return {
      open: async (sourceUrl, restart) => {
        if (opts.isWithheld?.()) return null;
        const codec = await this.probeCodec(sourceUrl, opts.rtspTransport);
        return codec === 'h264' ? this.open(k, 'copy-h264') : this.openTranscode(k, restart);
      },
    };
  }

  /**
   * A transcoded recording when the node has a slot for it (docs/decisions.md, "Recordings: a
   * node's limit on transcoded cameras"). Without one the stream is decoded without recording and
   * waits in line: the session has no output arguments and only hears when that ffmpeg ends; when a
   * slot comes free the stream's source is asked to `restart`, and its next open takes the slot.
   */
  private openTranscode(k: StreamKey, restart: (() => void) | undefined): RecordingSession | null {
    const id = `${k.tenantId}/${k.streamId}`;
    if (this.deps.blocked()) return null;
    if (!this.slots.take(id, restart ?? (() => undefined))) {
      if (!this.toldWaiting.has(id)) {
        this.toldWaiting.add(id);
        const max = this.slots.max;
        this.deps.waiting?.(
          k,
          `this node already transcodes ${max} recording${max === 1 ? '' : 's'} (VIGIL_RECORDINGS_MAX_TRANSCODES=${max}); the stream's codec needs transcoding, so it is decoded and detected without recording until one of them stops`,
        );
      }
      return { args: [], ended: () => this.slots.leave(id) };
    }
    const session = this.open(k, 'transcode');
    if (!session) {
      this.slots.release(id);
      return null;
    }
    if (this.toldWaiting.delete(id)) this.deps.resumed?.(k);
    return {
      args: session.args,
      ended: () => {
        session.ended();
        this.slots.release(id);
      },
    };
  }

  /**
   * A WHIP publisher's recorder: VP8 copied into WebM, H.264 into MP4. Its decoder stamps frames
   * with their arrival time (`-use_wallclock_as_timestamps`), so its segments follow each other
   * without a gap whatever the file names say (see finish()).
   */
  whip(k: StreamKey, isWithheld?: () => boolean): { openSync(codec: 'VP8' | 'H264'): RecordingSession | null } {
    return { openSync: (codec) => (isWithheld?.() ? null : this.open(k, codec === 'VP8' ? 'copy-vp8' : 'copy-h264', { wallclock: true })) };
  }

  private async probeCodec(sourceUrl: string, rtspTransport?: 'tcp' | 'udp'): Promise<string> {
    const known = this.probed.get(sourceUrl);
    if (known) return known;
    const url = new URL(sourceUrl);
    const target = url.protocol === 'file:' ? decodeURIComponent(url.pathname) : sourceUrl;
    const args = [
      '-v',
      'error',
      ...(rtspTransport && url.protocol.startsWith('rtsp') ? ['-rtsp_transport', rtspTransport] : []),
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name',
      '-of',
      'csv=p=0',
      target,
    ];
    try {
      const { stdout } = await run(ffprobeOf(this.deps.ffmpegPath()), args, { timeout: 10_000 });
      const codec = stdout.trim().split('\n')[0]?.trim() || 'unknown';
      this.probed.set(sourceUrl, codec);
      return codec;
    } catch {
      return 'unknown'; // transcoding records whatever it is; the probe is tried again next start
    }
  }

  /** ffmpeg output arguments for one recording session, and the session that seals its segments. */
  open(k: StreamKey, mode: 'copy-h264' | 'copy-vp8' | 'transcode', opts: { wallclock?: boolean } = {}): RecordingSession | null {
    const why = this.deps.blocked();
    if (why) return null;
    const ext = mode === 'copy-vp8' ? 'webm' : 'mp4';
    const launchedAt = Date.now();
    const dir = join(this.openRoot(k), launchDirName(launchedAt));
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      this.deps.log?.warn({ err, stream_id: k.streamId }, 'recording: cannot create the segment directory; this stream is decoded without recording');
      return null;
    }
    const seg = this.deps.segmentSeconds;
    const codecArgs = mode === 'transcode' ? transcodeArgs(this.deps.transcode, seg) : ['-c:v', 'copy'];
    const args = [
      '-map',
      '0:v:0',
      ...codecArgs,
      '-f',
      'segment',
      '-segment_time',
      String(seg),
      '-reset_timestamps',
      '1',
      '-segment_format',
      ext === 'webm' ? 'webm' : 'mp4',
      ...(ext === 'mp4' ? ['-segment_format_options', FRAGMENTED] : []),
      '-segment_list',
      join(dir, LIST),
      '-segment_list_type',
      'csv',
      '-strftime',
      '1',
      join(dir, `%s.${ext}`),
    ];
    const codec = mode === 'copy-vp8' ? 'vp8' : 'h264';
    const state = new LaunchState(k, dir, codec, ext, opts.wallclock ?? false, launchedAt);
    const timer = setInterval(() => void this.drain(state), 1000);
    timer.unref();
    return {
      args,
      ended: () => {
        clearInterval(timer);
        const done = this.drain(state, true).then(() => this.recoverLaunch(state));
        this.sessions.add(done);
        void done.finally(() => this.sessions.delete(done));
      },
    };
  }

  /** Waits for every ended session's last segments to be sealed (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.sessions.size) await Promise.allSettled([...this.sessions]);
  }

  /**
   * Seals the segments ffmpeg listed as closed since the last look. The segment muxer lists a
   * segment before it has closed the file (its last buffered bytes follow), so while ffmpeg runs
   * a listed segment is taken only once the next one exists: the muxer opens the next file after
   * closing this one. Once ffmpeg has ended (`final`), every listed segment is complete.
   */
  private drain(state: LaunchState, final = false): Promise<void> {
    state.chain = state.chain
      .then(async () => {
        let text: string;
        try {
          text = readFileSync(join(state.dir, LIST), 'utf8');
        } catch {
          return; // no segment closed yet
        }
        const lines = text.split('\n').filter((l) => l.trim() !== '');
        // the last line may still be being written: a line counts once its three fields are there
        for (; state.listed < lines.length; state.listed++) {
          const [name, start, end] = lines[state.listed].split(',');
          if (end === undefined || !/^\d+(\.\d+)?$/.test(end.trim())) break;
          if (!final && !nextSegmentExists(state.dir, name)) break;
          const duration = Number(end) - Number(start);
          await this.finish(state, join(state.dir, name), duration);
        }
      })
      .catch((err: unknown) => this.deps.log?.warn({ err, stream_id: state.key.streamId }, 'recording: sealing a segment failed'));
    return state.chain;
  }

  /** What ffmpeg left open (ended, crashed, killed): remuxed when it holds video, else dropped. */
  private async recoverLaunch(state: LaunchState): Promise<void> {
    let names: string[] = [];
    try {
      names = readdirSync(state.dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name === LIST || state.done.has(name) || name.startsWith('repaired-')) continue;
      const file = join(state.dir, name);
      const repaired = join(state.dir, `repaired-${name}`);
      try {
        await run(
          this.deps.ffmpegPath(),
          [
            '-v',
            'error',
            '-y',
            '-i',
            file,
            '-map',
            '0:v:0',
            '-c',
            'copy',
            ...(state.ext === 'mp4' ? ['-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4'] : ['-f', 'webm']),
            repaired,
          ],
          { timeout: 60_000 },
        );
      } catch {
        // nothing readable in it
      }
      const duration = existsSync(repaired) ? await probeDuration(ffprobeOf(this.deps.ffmpegPath()), repaired) : null;
      if (duration !== null && duration >= 0.2) {
        try {
          await this.finish(state, repaired, duration, name);
          this.deps.log?.info?.({ stream_id: state.key.streamId, file: name, seconds: duration }, 'recording: an unfinished segment was repaired');
          rmSync(file, { force: true });
        } catch (err) {
          // not sealed: the (repaired) file stays under its name for the next recovery
          this.deps.log?.warn({ err, stream_id: state.key.streamId }, 'recording: sealing a repaired segment failed; it is kept for the next start');
        }
      } else {
        this.deps.log?.warn({ stream_id: state.key.streamId, file: name }, 'recording: an unfinished segment held no playable video and was dropped');
        rmSync(file, { force: true });
      }
      rmSync(repaired, { force: true });
    }
    // sealed or dropped: the launch's directory goes, unless a seal failed (left for the next start)
    if (safeList(state.dir).every((n) => n === LIST)) rmSync(state.dir, { recursive: true, force: true });
  }

  /** Renames a closed segment into place, hashes it and seals it; undone when sealing fails. */
  private async finish(state: LaunchState, file: string, durationSec: number, originalName = basename(file)): Promise<void> {
    if (!existsSync(file)) return;
    const named = Number(/^(\d+)\./.exec(originalName)?.[1] ?? NaN) * 1000;
    const fallback = Number.isFinite(named) ? named : statSync(file).mtimeMs - durationSec * 1000;
    // consecutive segments of one ffmpeg follow each other; the file name's second is the anchor
    // otherwise. With arrival-time stamps (WHIP) a stall is inside the durations, so the next
    // segment always starts where the last ended: its file name is the second ffmpeg opened it,
    // seconds late on a loaded machine, which would show a gap that is not there
    // (docs/decisions.md, "Recordings: WHIP segments follow each other").
    const chained = state.prevEnd !== null && (state.wallclock || Math.abs(fallback - state.prevEnd) < 2000);
    // a file name is the second ffmpeg opened the file, floored: the first segment of a launch
    // would seem to start up to a second before ffmpeg was started, before the stream even existed
    const notBefore = state.prevEnd === null && state.launchedAt !== null ? state.launchedAt : -Infinity;
    const startAt = Math.round(Math.max(chained ? state.prevEnd! : fallback, notBefore));
    const endAt = startAt + Math.max(1, Math.round(durationSec * 1000));
    const finalDir = join(this.streamDir(state.key), day(startAt));
    mkdirSync(finalDir, { recursive: true });
    const finalPath = placeExclusively(file, finalDir, `${startAt}-${endAt}`, state.ext, this.deps.nodeId);
    try {
      const { sha256, bytes } = await hashFile(finalPath);
      await this.deps.seal({ ...state.key, kind: 'video', startAt, endAt, path: relative(this.deps.root, finalPath), sha256, bytes, codec: state.codec });
    } catch (err) {
      renameSync(finalPath, join(state.dir, `${originalName.replace(/^repaired-/, '')}`));
      throw err;
    }
    state.done.add(originalName);
    state.prevEnd = endAt;
  }

  /** A phone frame kept as a still of the stream's sequence (written, renamed, hashed, sealed). */
  async still(k: StreamKey, jpeg: Buffer, at: number): Promise<void> {
    if (this.deps.blocked()) return;
    const open = this.openRoot(k);
    mkdirSync(open, { recursive: true });
    const tmp = join(open, `still-${at}-${randomBytes(3).toString('hex')}.jpg`);
    writeFileSync(tmp, jpeg);
    const finalDir = join(this.streamDir(k), day(at));
    mkdirSync(finalDir, { recursive: true });
    const finalPath = join(finalDir, `${at}-${randomBytes(2).toString('hex')}.jpg`);
    renameSync(tmp, finalPath);
    const sha256 = createHash('sha256').update(jpeg).digest('hex');
    try {
      await this.deps.seal({
        ...k,
        kind: 'still',
        startAt: at,
        endAt: at + 1000,
        path: relative(this.deps.root, finalPath),
        sha256,
        bytes: jpeg.length,
        codec: 'jpeg',
      });
    } catch (err) {
      rmSync(finalPath, { force: true });
      throw err;
    }
  }

  /**
   * At start: every launch directory this node left open (a crash, kill -9, a power cut) is
   * recovered: listed segments sealed, the open one repaired or dropped.
   */
  async recoverAll(): Promise<number> {
    let recovered = 0;
    const root = this.deps.root;
    for (const tenantId of safeList(root)) {
      for (const streamId of safeList(join(root, tenantId))) {
        const k = { tenantId, streamId };
        const nodeDir = this.openRoot(k);
        for (const launch of safeList(nodeDir)) {
          const dir = join(nodeDir, launch);
          if (launch.startsWith('still-')) {
            rmSync(dir, { force: true }); // a still not yet renamed: the phone's frame was answered without it
            continue;
          }
          const files = safeList(dir);
          const ext = files.some((f) => f.endsWith('.webm')) ? 'webm' : 'mp4';
          const state = new LaunchState(k, dir, ext === 'webm' ? 'vp8' : 'h264', ext, false, launchTimeOf(launch));
          await this.drain(state, true);
          await this.recoverLaunch(state);
          recovered++;
        }
      }
    }
    return recovered;
  }

  /** Free bytes on the recordings directory's file system, or null when it cannot be read. */
  static freeBytes(dir: string): number | null {
    try {
      const s = statfsSync(dir);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      return null;
    }
  }
}

/**
 * The encoder of a transcoded recording (docs/decisions.md, "Recordings: what a transcoded camera
 * costs"): the configured rate and width (never upscaled), libx264 `ultrafast` at CRF 26 on one
 * thread, a keyframe every 2 s and at each segment boundary. Measured on vtest.avi (768×576, 10 fps)
 * it costs 0.02 cores a camera against 0.06 for `veryfast` at 15 fps, at the same PSNR (43.5 dB)
 * for 1.5 times the bytes; one thread keeps x264's own thread pool off the detector's cores.
 */
export function transcodeArgs(t: { width: number; fps: number }, segmentSeconds: number): string[] {
  return [
    '-vf',
    `fps=${t.fps},scale=w=min(${t.width}\\,iw):h=-2`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '26',
    '-threads',
    '1',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(t.fps * 2),
    '-force_key_frames',
    `expr:gte(t,n_forced*${segmentSeconds})`,
  ];
}

/** A launch's directory: the time ffmpeg was started, made unique. */
function launchDirName(launchedAt: number): string {
  return `${launchedAt}-${randomBytes(3).toString('hex')}`;
}

/** When a launch found at start was started, from its directory's name (launchDirName); null when the name does not say. */
function launchTimeOf(name: string): number | null {
  const at = Number(/^(\d+)-/.exec(name)?.[1] ?? NaN);
  return Number.isFinite(at) ? at : null;
}

class LaunchState {
  listed = 0;
  prevEnd: number | null = null;
  readonly done = new Set<string>();
  chain: Promise<void> = Promise.resolve();
  /** `wallclock`: the decoder stamps frames with their arrival time (WHIP), so segments are contiguous */
  constructor(
    readonly key: StreamKey,
    readonly dir: string,
    readonly codec: 'h264' | 'vp8',
    readonly ext: 'mp4' | 'webm',
    readonly wallclock = false,
    /** when ffmpeg was started (from the launch directory's name on recovery); null: unknown */
    readonly launchedAt: number | null = null,
  ) {}
}

/**
 * Moves a closed segment to `<dir>/<name>.<ext>` without ever replacing a file already there: two
 * nodes can record the same stream for a moment during a lease handover, and their segments, named
 * by the same second, would otherwise overwrite each other after one was sealed (its hash then no
 * longer matching). A hard link fails when the name is taken, and the segment gets a suffix instead.
 */
function placeExclusively(file: string, dir: string, name: string, ext: string, nodeId: string): string {
  for (let attempt = 0; ; attempt++) {
    const target = join(dir, attempt === 0 ? `${name}.${ext}` : `${name}-${nodeId.replace(/[^\w-]/g, '_')}-${randomBytes(3).toString('hex')}.${ext}`);
    try {
      linkSync(file, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw err;
    }
    rmSync(file, { force: true });
    return target;
  }
}

/** Whether ffmpeg has opened the segment after `name` (named by a later second). */
function nextSegmentExists(dir: string, name: string): boolean {
  const n = Number(/^(\d+)\./.exec(name)?.[1] ?? NaN);
  return safeList(dir).some((f) => f !== LIST && Number(/^(\d+)\./.exec(f)?.[1] ?? NaN) > n);
}

/** The entries of a directory without dot names (the open segments and the clip cache), or none. */
function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
}
