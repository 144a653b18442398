import { RTCPeerConnection, RTCRtpCodecParameters, type RTCIceServer, type RtpPacket } from 'werift';
import type { RecordingSession, RgbFrame } from '../../ingest/video/index.ts';
import { RtpFrameAssembler, type EncodedFrame, type WebRtcVideoCodec } from './rtp-frame-assembler.ts';
import { WebRtcDecoder, keyframeFormat } from './webrtc-decoder.ts';

/** What a session reports to the stream it publishes to. */
export interface WhipSessionSink {
  pushFrame(frame: RgbFrame): void;
  interrupted(reason: string): void;
  /** a recording of the published track as a second output of its decoder, or null (org/recordings) */
  openRecording?(codec: WebRtcVideoCodec): RecordingSession | null;
  /** the session decodes on without recording from now on (docs/decisions.md, "Recordings: WHIP publishers") */
  recordingStopped?(reason: string): void;
}

export interface WhipSessionOptions {
  id: string;
  /** the publisher's offer, already checked by checkWhipOffer */
  offer: string;
  iceServers: RTCIceServer[];
  ffmpegPath: string;
  detectFps?: number;
  detectWidth?: number;
  sink: WhipSessionSink;
  /** the session ended on its own (publisher gone, ICE failed, no media) */
  onEnded(reason: string): void;
  /** ICE and DTLS must be up this long after the answer; default 20 s */
  connectTimeoutMs?: number;
  /** connected but no video packet for this long: the publisher is gone; default 10 s */
  mediaTimeoutMs?: number;
  /** a disconnected ICE transport that has not recovered after this long ends the session; default 8 s */
  disconnectedGraceMs?: number;
}

/** Per-track figures (bench, logs). */
export interface WhipSessionStats {
  codec: WebRtcVideoCodec | null;
  packets: number;
  frames: number;
  lost_packets: number;
  dropped_frames: number;
  keyframes: number;
  keyframe_requests: number;
  decoder_restarts: number;
  frames_decoded: number;
  /** ms from the offer to the first decoded frame */
  first_frame_ms: number | null;
  /** size of the last decoded frame at detect scale, "WxH" */
  last_frame_size: string | null;
  /** times the publisher changed picture size */
  format_changes: number;
  /** whether the running decoder also records */
  recording: boolean;
  /** why the session stopped recording (its decoders ended twice while recording), else null */
  recording_stopped: string | null;
  /** process id of the running decoder's ffmpeg, else null */
  decoder_pid: number | null;
}

const RTCP_FEEDBACK = [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'goog-remb' }];

/**
 * The codecs the answer accepts, in Vigil's order of preference: VP8 (every browser sends it,
 * software-decoded cheaply), then H.264 constrained baseline and baseline (iPhones and hardware
 * encoders). The decoder handles any H.264 profile, so the answer accepts them all.
 */
function videoCodecs(): RTCRtpCodecParameters[] {
  return [
    new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90000, rtcpFeedback: RTCP_FEEDBACK }),
    new RTCRtpCodecParameters({
      mimeType: 'video/H264',
      clockRate: 90000,
      rtcpFeedback: RTCP_FEEDBACK,
      parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
    }),
  ];
}

/**
 * Audio is not interpreted, but WHIP clients (OBS, GStreamer, phones' WebRTC stacks) usually
 * offer it, and werift refuses a section none of whose codecs it knows; accepting the common
 * ones lets such an offer through. Audio packets are received and dropped.
 */
function audioCodecs(): RTCRtpCodecParameters[] {
  return [
    new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 }),
    new RTCRtpCodecParameters({ mimeType: 'audio/PCMU', clockRate: 8000, channels: 1, payloadType: 0 }),
    new RTCRtpCodecParameters({ mimeType: 'audio/PCMA', clockRate: 8000, channels: 1, payloadType: 8 }),
  ];
}

/** A PLI at most this often: a keyframe takes a round trip and an encoder's time to arrive. */
const PLI_INTERVAL_MS = 500;

/**
 * One WHIP publisher on werift: a receive-only peer connection whose video track goes through
 * the RTP frame assembler (jitter buffer, depacketizer, loss → PLI) into an ffmpeg decoder, and
 * whose decoded frames go to the stream's ingest. It watches its own health: ICE failing, a
 * publisher that stops sending, a decoder that dies (restarted from the next keyframe).
 */
export class WhipSession {
  readonly id: string;
  /** RFC 9725 entity tag of the ICE session (changes only with an ICE restart, which Vigil does not do) */
  readonly etag: string;
  private readonly pc: RTCPeerConnection;
  private closed = false;
  private readonly startedAt = Date.now();
  private codec: WebRtcVideoCodec | null = null;
  private assembler: RtpFrameAssembler | null = null;
  private decoder: WebRtcDecoder | null = null;
  private pli: (() => void) | null = null;
  private lastPliAt = 0;
  private keyframeRequests = 0;
  private decoderRestarts = 0;
  /** decoders that ended on their own while recording */
  private recordingExits = 0;
  private recordingStopped: string | null = null;
  private decodedBefore = 0;
  private firstFrameMs: number | null = null;
  private lastFrameSize: string | null = null;
  /** keyframeFormat of the stream the current decoder was started on */
  private format: string | null = null;
  private formatChanges = 0;
  private lastPacketAt = 0;
  private watchdog: NodeJS.Timeout | null = null;
  private disconnectedSince: number | null = null;
  private connected = false;
  /** when ICE and DTLS first completed: "no video for N s" counts from here, not from the offer */
  private connectedAt = 0;

  private constructor(private readonly o: WhipSessionOptions) {
    this.id = o.id;
    this.etag = `"${o.id}"`;
    this.pc = new RTCPeerConnection({
      codecs: { video: videoCodecs(), audio: audioCodecs() },
      // werift's default is a public STUN server; Vigil's default is none (LAN), VIGIL_ICE_SERVERS adds them
      iceServers: o.iceServers,
      // same-machine publishers (tests, a browser on the server) reach the loopback address
      iceAdditionalHostAddresses: ['127.0.0.1'],
    });
  }

  /** Negotiates: applies the offer and answers once this side's ICE candidates are gathered. */
  static async open(o: WhipSessionOptions): Promise<{ session: WhipSession; answer: string }> {
    const s = new WhipSession(o);
    try {
      const answer = await s.negotiate();
      return { session: s, answer };
    } catch (err) {
      await s.close();
      throw err;
    }
  }

  private async negotiate(): Promise<string> {
    const { pc } = this;
    pc.onTrack.subscribe((track) => {
      if (track.kind !== 'video' || this.assembler) return;
      const receiver = pc.getTransceivers().find((t) => t.receiver.track === track || t.receiver.tracks?.includes(track))?.receiver;
      this.pli = () => {
        if (track.ssrc !== undefined && receiver) void receiver.sendRtcpPLI(track.ssrc).catch(() => undefined);
      };
      track.onReceiveRtp.subscribe((rtp) => this.onRtp(rtp, track.codec?.mimeType ?? ''));
    });
    pc.connectionStateChange.subscribe((state) => this.onConnectionState(state));
    await pc.setRemoteDescription({ type: 'offer', sdp: this.o.offer });
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    if (pc.iceGatheringState !== 'complete') {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 5000);
        pc.iceGatheringStateChange.subscribe((state) => {
          if (state === 'complete') {
            clearTimeout(t);
            resolve();
          }
        });
      });
    }
    const sdp = pc.localDescription?.sdp;
    if (!sdp) throw new Error('werift produced no answer');
    this.armWatchdog();
    return sdp;
  }

  /** Trickled candidates of the publisher (RFC 9725 §4.3, application/trickle-ice-sdpfrag). */
  async addCandidates(candidates: Array<{ candidate: string; sdpMid: string | null }>): Promise<void> {
    for (const c of candidates) {
      await this.pc.addIceCandidate({ candidate: c.candidate, sdpMid: c.sdpMid ?? undefined, sdpMLineIndex: c.sdpMid === null ? 0 : undefined });
    }
  }

  stats(): WhipSessionStats {
    const a = this.assembler?.stats;
    return {
      codec: this.codec,
      packets: a?.packets ?? 0,
      frames: a?.frames ?? 0,
      lost_packets: a?.lost_packets ?? 0,
      dropped_frames: a?.dropped_frames ?? 0,
      keyframes: a?.keyframes ?? 0,
      keyframe_requests: this.keyframeRequests,
      decoder_restarts: this.decoderRestarts,
      frames_decoded: this.decodedBefore + (this.decoder?.framesDecoded ?? 0),
      first_frame_ms: this.firstFrameMs,
      last_frame_size: this.lastFrameSize,
      format_changes: this.formatChanges,
      recording: this.decoder?.recording ?? false,
      recording_stopped: this.recordingStopped,
      decoder_pid: this.decoder?.pid ?? null,
    };
  }

  /** Ends the peer connection and the decoder; onEnded is not called for a close asked for. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    await Promise.allSettled([this.pc.close(), this.decoder?.close()]);
  }

  private end(reason: string): void {
    if (this.closed) return;
    void this.close();
    this.o.onEnded(reason);
  }

  private onRtp(rtp: RtpPacket, mimeType: string): void {
    if (this.closed) return;
    this.lastPacketAt = Date.now();
    if (!this.assembler) {
      const codec: WebRtcVideoCodec | null = /vp8/i.test(mimeType) ? 'VP8' : /h264/i.test(mimeType) ? 'H264' : null;
      if (!codec) return this.end(`the publisher sends ${mimeType || 'an unknown codec'}, which Vigil does not decode`);
      this.codec = codec;
      this.assembler = new RtpFrameAssembler({
        codec,
        onFrame: (f) => this.decode(f),
        onKeyframeNeeded: () => this.requestKeyframe(),
      });
    }
    this.assembler.push(rtp);
  }

  private decode(frame: EncodedFrame): void {
    const format = keyframeFormat(frame);
    if (format !== null && format !== this.format) {
      // a new picture size (phone rotated, bandwidth adaptation): a fresh decoder from this keyframe
      if (this.decoder) {
        this.decodedBefore += this.decoder.framesDecoded;
        void this.decoder.close();
        this.decoder = null;
        if (this.format !== null) this.formatChanges++;
      }
      this.format = format;
    }
    if (!this.decoder) this.decoder = this.startDecoder(frame.codec);
    if (!this.decoder.write(frame)) this.requestKeyframe();
  }

  private startDecoder(codec: WebRtcVideoCodec): WebRtcDecoder {
    const decoder: WebRtcDecoder = new WebRtcDecoder({
      codec,
      ffmpegPath: this.o.ffmpegPath,
      detectFps: this.o.detectFps,
      detectWidth: this.o.detectWidth,
      // a decoder that ended twice while recording decodes on without it: the publisher's session
      // matters more than its recording (docs/decisions.md, "Recordings: WHIP publishers")
      recording: this.recordingStopped === null ? (this.o.sink.openRecording?.(codec) ?? null) : null,
      onFrame: (frame) => {
        this.firstFrameMs ??= Date.now() - this.startedAt;
        this.lastFrameSize = `${frame.width}x${frame.height}`;
        this.o.sink.pushFrame(frame);
      },
      onExit: (reason) => {
        // a decoder that choked on a corrupt frame starts again from the next keyframe
        if (this.closed || this.decoder !== decoder) return;
        this.decodedBefore += decoder.framesDecoded;
        this.decoder = null;
        this.decoderRestarts++;
        if (decoder.recording && ++this.recordingExits === 2) {
          this.recordingStopped = `the decoder ended twice while recording (last: ${reason}); the publisher is decoded and detected without recording until it publishes again`;
          this.o.sink.recordingStopped?.(this.recordingStopped);
        }
        if (this.decoderRestarts > 5) return this.end(reason);
        this.requestKeyframe();
      },
    });
    return decoder;
  }

  private requestKeyframe(): void {
    const now = Date.now();
    if (now - this.lastPliAt < PLI_INTERVAL_MS) return;
    this.lastPliAt = now;
    this.keyframeRequests++;
    this.pli?.();
  }

  private onConnectionState(state: string): void {
    if (this.closed) return;
    if (state === 'connected') {
      this.connected = true;
      this.connectedAt ||= Date.now();
      this.disconnectedSince = null;
      this.requestKeyframe();
    } else if (state === 'disconnected') {
      this.disconnectedSince ??= Date.now();
      this.o.sink.interrupted("the publisher's connection is interrupted");
    } else if (state === 'failed' || state === 'closed') {
      this.end(state === 'failed' ? "the publisher's connection failed" : 'the publisher closed the connection');
    }
  }

  /** Once a second: a publisher that never connects, went quiet or stayed disconnected is gone. */
  private armWatchdog(): void {
    const connectTimeout = this.o.connectTimeoutMs ?? 20_000;
    const mediaTimeout = this.o.mediaTimeoutMs ?? 10_000;
    const grace = this.o.disconnectedGraceMs ?? 8000;
    const armedAt = Date.now();
    this.watchdog = setInterval(() => {
      const now = Date.now();
      if (!this.connected && now - armedAt > connectTimeout) return this.end('the publisher never connected (ICE did not complete)');
      if (this.disconnectedSince !== null && now - this.disconnectedSince > grace) return this.end("the publisher's connection was lost");
      // a connection that took longer than the media timeout to set up (a loaded machine) has not
      // been silent for that long: the silence starts when it connected
      const since = this.lastPacketAt || this.connectedAt || armedAt;
      if (this.connected && now - since > mediaTimeout) return this.end(`no video from the publisher for ${Math.round(mediaTimeout / 1000)} s`);
      // still waiting for a decodable picture: keep asking (a PLI can be lost like any packet)
      if (this.connected && this.firstFrameMs === null) this.requestKeyframe();
    }, 1000);
    this.watchdog.unref();
  }
}
