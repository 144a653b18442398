import { VigilError } from '../../platform/lib/index.ts';

/** What a publisher's offer carries that Vigil cares about. */
export interface WhipOffer {
  /** the video codecs offered, as named in a=rtpmap (VP8, H264, VP9, AV1, …) */
  videoCodecs: string[];
}

/** Codecs the WHIP endpoint decodes (see WhipSession's answer). */
export const DECODED_CODECS = ['VP8', 'H264'] as const;

const MAX_OFFER_BYTES = 64 * 1024;

/**
 * Checks an SDP offer before any WebRTC state is created for it, so a bad offer is answered
 * with a problem naming what is wrong and leaves nothing behind: it must be SDP (RFC 8866 line
 * grammar, v=0 first), carry ICE credentials and a DTLS fingerprint, and have a video section
 * offering VP8 or H.264.
 */
export function checkWhipOffer(sdp: string): WhipOffer {
  const bad = (why: string) => new VigilError('invalid_sdp', `The body is not a usable SDP offer: ${why}.`, { param: 'body' });
  if (Buffer.byteLength(sdp) > MAX_OFFER_BYTES) throw bad(`it is over ${MAX_OFFER_BYTES / 1024} KiB`);
  const lines = sdp.split(/\r?\n/).filter((l) => l !== '');
  if (lines[0] !== 'v=0') throw bad('it must start with "v=0"');
  const wrong = lines.find((l) => !/^[a-z]=/.test(l));
  if (wrong !== undefined) throw bad(`line ${JSON.stringify(wrong.slice(0, 60))} is not "<letter>=<value>"`);
  const sections: Array<{ kind: string; port: number; lines: string[] }> = [];
  const session: string[] = [];
  for (const l of lines) {
    const m = /^m=(\S+) (\d+)(?:\/\d+)? \S+(?: .*)?$/.exec(l);
    if (l.startsWith('m=')) {
      if (!m) throw bad(`media line ${JSON.stringify(l.slice(0, 60))} is malformed`);
      sections.push({ kind: m[1], port: Number(m[2]), lines: [] });
    } else (sections.at(-1)?.lines ?? session).push(l);
  }
  if (sections.length === 0) throw bad('it has no media section (m=)');
  const has = (s: { lines: string[] }, attr: string) => s.lines.some((l) => l.startsWith(`a=${attr}`)) || session.some((l) => l.startsWith(`a=${attr}`));
  const video = sections.filter((s) => s.kind === 'video' && s.port !== 0);
  if (video.length === 0) {
    throw new VigilError('no_video_in_offer', 'The SDP offer has no video section (m=video): a WHIP publisher to Vigil must send video.', { param: 'body' });
  }
  for (const s of video) {
    if (!has(s, 'ice-ufrag:') || !has(s, 'ice-pwd:')) throw bad('its video section has no ICE credentials (a=ice-ufrag, a=ice-pwd)');
    if (!has(s, 'fingerprint:')) throw bad('it has no DTLS fingerprint (a=fingerprint)');
    if (s.lines.some((l) => l === 'a=recvonly' || l === 'a=inactive')) {
      throw bad('its video section does not send (a WHIP offer is a=sendonly or a=sendrecv)');
    }
  }
  const videoCodecs = [...new Set(video.flatMap((s) => s.lines.map((l) => /^a=rtpmap:\d+ ([^/]+)\//.exec(l)?.[1]).filter((c): c is string => !!c)))];
  const usable = videoCodecs.filter((c) => (DECODED_CODECS as readonly string[]).includes(c.toUpperCase()));
  if (usable.length === 0) {
    const offered = videoCodecs.filter((c) => !/^(rtx|red|ulpfec|flexfec-03)$/i.test(c));
    throw new VigilError('unsupported_codec', `The offer's video codecs (${offered.join(', ') || 'none'}) are not ones Vigil decodes: offer VP8 or H264.`, {
      param: 'body',
      extra: { supported_codecs: [...DECODED_CODECS] },
    });
  }
  return { videoCodecs };
}

/**
 * The candidates of an application/trickle-ice-sdpfrag body (RFC 8840): a=candidate lines, each
 * under the a=mid in effect; a=end-of-candidates is accepted and needs nothing.
 */
export function parseTrickleFragment(frag: string): { ufrag: string | null; candidates: Array<{ candidate: string; sdpMid: string | null }> } {
  let mid: string | null = null;
  let ufrag: string | null = null;
  const candidates: Array<{ candidate: string; sdpMid: string | null }> = [];
  for (const l of frag.split(/\r?\n/)) {
    if (l === '') continue;
    if (!/^[a-z]=/.test(l))
      throw new VigilError('invalid_sdp', `The body is not an SDP fragment: line ${JSON.stringify(l.slice(0, 60))} is not "<letter>=<value>".`, {
        param: 'body',
      });
    if (l.startsWith('a=mid:')) mid = l.slice(6).trim();
    else if (l.startsWith('a=ice-ufrag:')) ufrag = l.slice(12).trim();
    else if (l.startsWith('a=candidate:')) candidates.push({ candidate: l.slice(2), sdpMid: mid });
  }
  return { ufrag, candidates };
}
