import type { RtpPacket } from 'werift';
import { DepacketizeBase, H264RtpPayload, JitterBufferBase, Vp8RtpPayload } from 'werift/nonstandard';

/** The video codecs a WHIP publisher may send (what the decoder and the answer accept). */
export type WebRtcVideoCodec = 'VP8' | 'H264';

/** One complete encoded picture: a VP8 frame, or an H.264 access unit in Annex B. */
export interface EncodedFrame {
  codec: WebRtcVideoCodec;
  data: Buffer;
  keyframe: boolean;
  /** RTP timestamp (90 kHz) */
  rtpTimestamp: number;
}

export interface RtpFrameAssemblerOptions {
  codec: WebRtcVideoCodec;
  /** how long a missing packet is waited for (reordering, NACK retransmission) before it counts as lost; default 150 ms */
  reorderMs?: number;
  onFrame(frame: EncodedFrame): void;
  /** the decoder cannot go on without a keyframe (start, loss): the session sends a PLI (throttled, this repeats) */
  onKeyframeNeeded(reason: 'start' | 'loss'): void;
}

/**
 * RTP packets of one video track → whole encoded frames, on werift's own jitter buffer and
 * depacketizer. A lost packet breaks the frames that refer to it, so after a loss nothing is
 * passed on until the next keyframe (which the session asks for with a PLI): the detector only
 * ever sees clean pictures, never the smeared ones a decoder conceals errors with.
 */
export class RtpFrameAssembler {
  private jitter!: JitterBufferBase;
  private depacketizer!: DepacketizeBase;
  private lastSeq: number | null = null;
  private awaitingKeyframe = true;
  /** counters for the session's stats and the bench */
  readonly stats = { packets: 0, frames: 0, lost_packets: 0, dropped_frames: 0, keyframes: 0 };

  constructor(private readonly o: RtpFrameAssemblerOptions) {
    this.reset();
  }

  private reset(): void {
    this.jitter = new JitterBufferBase(90_000, { latency: this.o.reorderMs ?? 150, bufferSize: 2048 });
    const final = this.o.codec === 'VP8' ? Vp8RtpPayload.isDetectedFinalPacketInSequence : H264RtpPayload.isDetectedFinalPacketInSequence;
    // werift names H.264 by its MP4 brand in the depacketizer
    this.depacketizer = new DepacketizeBase(this.o.codec === 'VP8' ? 'vp8' : 'MPEG4/ISO/AVC', { isFinalPacketInSequence: final });
  }

  push(rtp: RtpPacket): void {
    this.stats.packets++;
    const seq = rtp.header.sequenceNumber;
    const jump = this.lastSeq === null ? 0 : Math.min((seq - this.lastSeq + 65536) % 65536, (this.lastSeq - seq + 65536) % 65536);
    this.lastSeq = seq;
    if (jump > 1000) {
      // a discontinuity, not a loss (the publisher restarted its encoder or packetizer): the
      // jitter buffer would wait forever for the packets in between, so start over at a keyframe
      this.reset();
      this.stats.lost_packets++;
      this.awaitingKeyframe = true;
      this.o.onKeyframeNeeded('loss');
    }
    for (const out of this.jitter.processInput({ rtp })) {
      if (out.isPacketLost) {
        const { from, to } = out.isPacketLost;
        this.stats.lost_packets += (to - from + 65536) % 65536 || 1;
        if (!this.awaitingKeyframe) {
          this.awaitingKeyframe = true;
          this.o.onKeyframeNeeded('loss');
        }
      }
      if (!out.rtp) continue;
      for (const d of this.depacketizer.processInput({ rtp: out.rtp, time: 0 })) {
        if (d.frame) this.emit(d.frame.data, d.frame.isKeyframe, Number(d.frame.timestamp ?? 0));
      }
    }
  }

  private emit(data: Buffer, keyframe: boolean, rtpTimestamp: number): void {
    if (keyframe) this.stats.keyframes++;
    if (this.awaitingKeyframe && !keyframe) {
      this.stats.dropped_frames++;
      // asked again on every dropped frame: the session throttles, so a lost PLI is repeated
      this.o.onKeyframeNeeded(this.stats.frames === 0 ? 'start' : 'loss');
      return;
    }
    this.awaitingKeyframe = false;
    this.stats.frames++;
    this.o.onFrame({ codec: this.o.codec, data, keyframe, rtpTimestamp });
  }
}
