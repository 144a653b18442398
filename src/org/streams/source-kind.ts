/**
 * Which kind of stream an address is (docs/decisions.md, "Household cameras of every kind"): the
 * household agent adds every kind an organization can (RTSP, HTTP MJPEG/HLS, a WHIP publisher),
 * taking the kind from what the user said and the URL, and asking when neither tells.
 */

export type SourceKind = 'rtsp' | 'http' | 'webrtc' | 'mobile' | 'sandbox' | 'mqtt';

export type SourceKindDecision =
  | { ok: true; kind: SourceKind }
  /** the address does not say, and neither did the user: the question to ask them */
  | { ok: false; ask: string };

/** what the user named the kind as, in their words or as a source_type */
const SAID: Array<[RegExp, SourceKind]> = [
  [/\b(whip|webrtc|web rtc|publish(es|ing)?|publisher|browser)\b/i, 'webrtc'],
  [/\b(mjpe?g|motion jpeg|hls|m3u8|http|https)\b/i, 'http'],
  [/\b(rtsps?)\b/i, 'rtsp'],
  [/\b(mobile|frames?)\b/i, 'mobile'],
  [/\b(sandbox|simulated)\b/i, 'sandbox'],
  [/\b(mqtts?|zigbee2mqtt|zigbee)\b/i, 'mqtt'],
];

/** http(s) paths that are a camera's video: MJPEG (cam.mjpg, video.cgi, ?action=stream) or HLS (.m3u8) */
const HTTP_VIDEO = /\.(mjpe?g|m3u8|cgi)$|\/(mjpe?g|video|stream|live|hls)(\/|$)|[?&](action=stream|.*mjpe?g)/i;

/**
 * The kind of a stream from its address and what was said about it. `said` is free text or a
 * source_type the caller was given ("webrtc", "an MJPEG stream"); `url` may be missing for a
 * WHIP publisher (it publishes to us: the reply gives it its link).
 */
export function decideSourceType(input: { url?: string; said?: string }): SourceKindDecision {
  const said = input.said?.trim() ? SAID.find(([re]) => re.test(input.said!))?.[1] : undefined;
  const url = input.url?.trim();
  const scheme = url ? /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() : undefined;
  if (!url) {
    if (said === 'webrtc') return { ok: true, kind: 'webrtc' };
    return {
      ok: false,
      ask: "What is the camera's address (rtsp://… or an http:// MJPEG or HLS stream)? If it is a phone or browser that should publish its camera to Vigil, say it publishes over WebRTC and I will give you its publish link.",
    };
  }
  switch (scheme) {
    case 'rtsp':
    case 'rtsps':
      return { ok: true, kind: 'rtsp' };
    case 'sandbox':
      return { ok: true, kind: 'sandbox' };
    case 'mobile':
      return { ok: true, kind: 'mobile' };
    case 'webrtc':
      return { ok: true, kind: 'webrtc' };
    case 'mqtt':
    case 'mqtts':
      // a door contact, motion, leak or smoke sensor on an MQTT broker (docs/decisions.md, "Sensors over MQTT")
      return { ok: true, kind: 'mqtt' };
    case 'http':
    case 'https': {
      if (said === 'webrtc' || said === 'http') return { ok: true, kind: said };
      let path = '';
      try {
        const u = new URL(url);
        path = `${u.pathname}${u.search}`;
      } catch {
        return { ok: false, ask: `${url} is not an address I can read; give the camera's full address, such as http://192.168.1.20/video.mjpg.` };
      }
      if (HTTP_VIDEO.test(path)) return { ok: true, kind: 'http' };
      return {
        ok: false,
        ask: `is ${url} a video stream the camera serves (MJPEG or HLS), or a phone or browser that will publish its camera to Vigil over WebRTC? Say "add the MJPEG camera … at ${url}" or "add the WebRTC camera …".`,
      };
    }
    default:
      return {
        ok: false,
        ask: `${scheme ?? 'this'}:// addresses are not supported; use rtsp://, http(s):// (MJPEG or HLS), mqtt:// for a sensor on an MQTT broker, or say the camera publishes over WebRTC.`,
      };
  }
}
