/**
 * A stand-in IP camera for tests: an RTSP server (npm rtsp-streaming-server, UDP transport) fed
 * by ffmpeg publishing a video file as H.264 in real time, looping. Runs as its own process so
 * a test can "unplug" the camera by killing it. Started by a test (VIGIL_CAMERA_EXIT_WITH_STDIN=1)
 * it also exits when its stdin closes, so it never outlives the test; started by hand (the README)
 * it runs until Ctrl-C or SIGTERM, in a terminal or in the background alike.
 * argv: <clientPort> <publishPort> <rtpPortStart> <videoFile>
 */
import { spawn } from 'node:child_process';
import rtspStreamingServer from 'rtsp-streaming-server';

const [clientPort, publishPort, rtpPortStart] = process.argv.slice(2, 5).map(Number);
const video = process.argv[5];

// CommonJS package: its class is the `default` member of module.exports
const RtspServer = rtspStreamingServer.default;
const server = new RtspServer({ serverPort: publishPort, clientPort, rtpPortStart, rtpPortCount: 200 });
await server.start();

const publisher = spawn(
  'ffmpeg',
  [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-re',
    '-stream_loop',
    '-1',
    '-i',
    video,
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-g',
    '10',
    '-f',
    'rtsp',
    `rtsp://127.0.0.1:${publishPort}/cam`,
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
publisher.on('exit', (code) => {
  process.stderr.write(`rtsp-camera: publisher exited (${code})\n`);
  process.exit(1);
});

const shutdown = () => {
  publisher.removeAllListeners('exit');
  publisher.kill('SIGKILL');
  process.exit(0);
};
if (process.env.VIGIL_CAMERA_EXIT_WITH_STDIN === '1') {
  process.stdin.on('end', shutdown);
  process.stdin.resume();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// ready once the publisher's stream is announced, so clients find the mount
const announced = setInterval(() => {
  if (Object.values(server.Mounts.mounts).some(Boolean)) {
    clearInterval(announced);
    process.stdout.write(process.env.VIGIL_CAMERA_EXIT_WITH_STDIN === '1' ? 'ready\n' : `ready: rtsp://127.0.0.1:${clientPort}/cam\n`);
  }
}, 50);
