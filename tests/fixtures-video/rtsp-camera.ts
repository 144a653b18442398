import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./rtsp-camera.child.ts', import.meta.url));

export const VTEST_AVI = fileURLToPath(new URL('../../../shared/fixtures/vtest.avi', import.meta.url));
export const PERSON_JPG = fileURLToPath(new URL('../../../shared/fixtures/person.jpg', import.meta.url));
/** darknet's dog.jpg (a dog, a bicycle and a truck), as Debian's darknet package ships it; not vendored */
export const DOG_JPG = fileURLToPath(new URL('../../../shared/fixtures/dog.jpg', import.meta.url));

/** A loopback RTSP camera playing a video file; stop() unplugs it, start() plugs it back in. */
export class RtspTestCamera {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly video: string,
    private readonly clientPort: number,
    private readonly publishPort: number,
    private readonly rtpPortStart: number,
  ) {}

  static async create(video = VTEST_AVI): Promise<RtspTestCamera> {
    const [clientPort, publishPort] = [await findFreePort(), await findFreePort()];
    // UDP pairs for RTP/RTCP: an even port in the upper range, away from the ephemeral ports
    const rtpPortStart = 20000 + 2 * Math.floor(Math.random() * 4000);
    return new RtspTestCamera(video, clientPort, publishPort, rtpPortStart);
  }

  get url(): string {
    return `rtsp://127.0.0.1:${this.clientPort}/cam`;
  }

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, String(this.clientPort), String(this.publishPort), String(this.rtpPortStart), this.video],
      { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, VIGIL_CAMERA_EXIT_WITH_STDIN: '1' } },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (b: Buffer) => {
        if (b.toString().includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`rtsp camera exited during start (${code})`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    // SIGTERM: the child ends its ffmpeg publisher too
    child.kill('SIGTERM');
    await gone;
  }
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
