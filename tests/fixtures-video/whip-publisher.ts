import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpPacket } from 'werift';
import { VTEST_AVI } from './rtsp-camera.ts';

export interface WhipPublisherOptions {
  /** the stream's WHIP endpoint, e.g. http://127.0.0.1:PORT/v1/streams/stream_…/whip */
  whipUrl: string;
  token: string;
  codec: 'VP8' | 'H264';
  video?: string;
  /** encode at this size (a phone's 720p for the bench); default: the file's own */
  size?: { width: number; height: number };
  /** drop every Nth RTP packet before it is sent (a lossy network) */
  dropEvery?: number;
  /** offer an audio track too (OBS and phones do); it sends nothing */
  withAudio?: boolean;
  /** `video` is already encoded in the codec (H.264 with in-band SPS/PPS in MPEG-TS, VP8 in WebM): send it as is */
  copy?: boolean;
}

/**
 * A WHIP publisher built on werift, as a phone app or a drone would be: ffmpeg encodes the
 * video file in real time (looping) to RTP on a loopback UDP port, and each packet is written
 * to a send-only werift track negotiated with the server over HTTP (RFC 9725).
 */
export class WhipTestPublisher {
  sessionUrl: string | null = null;
  etag: string | null = null;
  answer: string | null = null;
  packetsSent = 0;
  packetsDropped = 0;
  /** PLIs (keyframe requests) the server sent this publisher */
  pliReceived = 0;
  private ffmpeg: ChildProcess | null = null;
  private encoderGeneration = 0;
  private continuity: { generation: number; seqOffset: number; tsOffset: number; lastSeq: number | null; lastTs: number | null } = {
    generation: 0,
    seqOffset: 0,
    tsOffset: 0,
    lastSeq: null,
    lastTs: null,
  };
  private udp: Socket | null = null;
  private constructor(
    readonly pc: RTCPeerConnection,
    private readonly track: MediaStreamTrack,
    private readonly o: WhipPublisherOptions,
  ) {}

  static create(o: WhipPublisherOptions): WhipTestPublisher {
    const fb = [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }];
    const codec =
      o.codec === 'VP8'
        ? new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90000, rtcpFeedback: fb })
        : new RTCRtpCodecParameters({
            mimeType: 'video/H264',
            clockRate: 90000,
            rtcpFeedback: fb,
            parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
          });
    const audio = o.withAudio ? [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })] : [];
    const pc = new RTCPeerConnection({ iceServers: [], codecs: { video: [codec], audio }, iceAdditionalHostAddresses: ['127.0.0.1'] });
    if (o.withAudio) pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
    const track = new MediaStreamTrack({ kind: 'video' });
    const transceiver = pc.addTransceiver(track, { direction: 'sendonly' });
    const p = new WhipTestPublisher(pc, track, o);
    transceiver.sender.onPictureLossIndication.subscribe(() => p.pliReceived++);
    return p;
  }

  /** The offer this publisher would POST (ICE candidates gathered, no trickle). */
  async offer(): Promise<string> {
    await this.pc.setLocalDescription(await this.pc.createOffer());
    if (this.pc.iceGatheringState !== 'complete') {
      await new Promise<void>((resolve) => this.pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve()));
    }
    return this.pc.localDescription!.sdp;
  }

  /** POSTs the offer; on 201 applies the answer and starts sending video. Returns the response. */
  async publish(): Promise<Response> {
    const res = await fetch(this.o.whipUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${this.o.token}` },
      body: await this.offer(),
    });
    if (res.status !== 201) return res;
    this.sessionUrl = new URL(res.headers.get('location')!, this.o.whipUrl).toString();
    this.etag = res.headers.get('etag');
    this.answer = await res.clone().text();
    await this.pc.setRemoteDescription({ type: 'answer', sdp: this.answer });
    await this.startMedia();
    return res;
  }

  private async startMedia(): Promise<void> {
    // a keyframe is a burst of packets: a large buffer keeps the local hop from ffmpeg lossless
    const udp = createSocket({ type: 'udp4', recvBufferSize: 8 * 1024 * 1024 });
    this.udp = udp;
    let n = 0;
    udp.on('message', (buf) => {
      const rtp = RtpPacket.deSerialize(buf);
      // one continuous RTP stream across encoder restarts, as a phone's WebRTC stack sends
      const h = rtp.header;
      if (this.encoderGeneration !== this.continuity.generation) {
        this.continuity = {
          generation: this.encoderGeneration,
          seqOffset: this.continuity.lastSeq === null ? 0 : (this.continuity.lastSeq + 1 - h.sequenceNumber + 65536) % 65536,
          tsOffset: this.continuity.lastTs === null ? 0 : (this.continuity.lastTs + 9000 - h.timestamp + 2 ** 32) % 2 ** 32,
          lastSeq: null,
          lastTs: null,
        };
      }
      h.sequenceNumber = (h.sequenceNumber + this.continuity.seqOffset) % 65536;
      h.timestamp = (h.timestamp + this.continuity.tsOffset) % 2 ** 32;
      this.continuity.lastSeq = h.sequenceNumber;
      this.continuity.lastTs = h.timestamp;
      if (this.o.dropEvery && ++n % this.o.dropEvery === 0) {
        this.packetsDropped++;
        return;
      }
      this.packetsSent++;
      this.track.writeRtp(rtp);
    });
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', () => resolve()));
    this.spawnEncoder(this.o.size);
  }

  /** Restarts the encoder at another size mid-stream (a phone rotated, a publisher adapting to bandwidth). */
  resize(size: { width: number; height: number }): void {
    this.ffmpeg?.kill('SIGKILL');
    this.encoderGeneration++;
    this.spawnEncoder(size);
  }

  private spawnEncoder(size: { width: number; height: number } | undefined): void {
    const port = this.udp!.address().port;
    const video = this.o.video ?? VTEST_AVI;
    // an already encoded clip is sent as it is, so the publisher costs next to nothing (the bench)
    const copy = this.o.copy ?? false;
    const scale = size && !copy ? ['-vf', `scale=${size.width}:${size.height}`] : [];
    const enc = copy
      ? ['-c:v', 'copy']
      : this.o.codec === 'VP8'
        ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1500k', '-g', '10', '-error-resilient', '1']
        : [
            '-c:v',
            'libx264',
            '-preset',
            'ultrafast',
            '-tune',
            'zerolatency',
            '-profile:v',
            'baseline',
            '-pix_fmt',
            'yuv420p',
            '-b:v',
            '1500k',
            '-g',
            '10',
            '-bsf:v',
            'dump_extra=freq=keyframe',
          ];
    this.ffmpeg = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        '-re',
        '-stream_loop',
        '-1',
        '-i',
        video,
        '-an',
        ...scale,
        ...enc,
        '-f',
        'rtp',
        '-payload_type',
        '96',
        `rtp://127.0.0.1:${port}?pkt_size=1200`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }

  /** Stops sending (the publisher vanishes: no DELETE, like a phone losing its network). */
  async vanish(): Promise<void> {
    this.ffmpeg?.kill('SIGKILL');
    this.ffmpeg = null;
    this.udp?.close();
    this.udp = null;
    await this.pc.close();
  }

  /** Ends politely: DELETE of the session URL (RFC 9725 §4.4), then stops. */
  async stop(): Promise<Response | null> {
    const res = this.sessionUrl ? await fetch(this.sessionUrl, { method: 'DELETE', headers: { authorization: `Bearer ${this.o.token}` } }) : null;
    await this.vanish();
    return res;
  }
}
