import { formatMoment, sayAgo } from '../../../platform/time/index.ts';
import type { CameraQuestion, Interpretation, QueryContext } from './query.types.ts';

/**
 * Questions about the cameras themselves, not the scene ("when did the car park camera last send a
 * picture?", "is the lobby camera working?", "is the dock camera online?"): answered from the
 * streams' status and last frame, naming each camera; a camera the scene does not have is asked
 * about (docs/decisions.md, "Before round L: scene questions").
 */

const describeLocation = (location: string): string => location.replace(/_/g, ' ');

const CAMERA = /\b(?:cameras?|cams?|cctv|webcams?|feeds?)\b/i;
/** What is asked of the camera: its last picture, or whether it works. */
const LAST_PICTURE = /\b(?:pictures?|frames?|images?|photos?|snapshots?|pics?|shots?|footage|signal|heartbeat)\b/i;
const WORKING = /\b(?:working|online|connected|live|running|up|functioning|operational|ok|okay|recording|streaming)\b/i;
const NOT_WORKING = /\b(?:offline|down|broken|disconnected|dead|faulty|failing|off)\b/i;
const STOP = new Set([
  'the',
  'a',
  'an',
  'is',
  'are',
  'was',
  'were',
  'did',
  'does',
  'do',
  'when',
  'what',
  'time',
  'has',
  'have',
  'our',
  'my',
  'your',
  'that',
  'this',
  'of',
  'at',
  'in',
  'on',
  'from',
  'for',
  'last',
  'latest',
  'how',
  'about',
  'and',
  'any',
  'all',
  'still',
  'each',
]);

/** A question about the cameras' own status, or undefined when the question is about the scene. */
export function readCameraQuestion(query: string, ctx: QueryContext): Interpretation | undefined {
  const text = query.toLowerCase().replace(/[-_]/g, ' ');
  const camera = CAMERA.exec(text);
  if (!camera) return undefined;
  const last = LAST_PICTURE.test(text) && /\b(?:last|latest|recent|newest|when|what time)\b/.test(text);
  // whether it works is asked as a yes or no ("is the lobby camera working?"), or as its status
  const opener = /^\s*(?:is|are|was|were|has|have|does|do)\b/.test(text);
  const after = text.slice(camera.index + camera[0].length);
  const status = /\bstatus\b/.test(text);
  const down = (opener && NOT_WORKING.test(after)) || (status && NOT_WORKING.test(text));
  const up = (opener && WORKING.test(after)) || status;
  if (!last && !down && !up) return undefined;
  // anything of the scene named beside it (people, cars, animals) is a scene question "on camera"
  const scene = text.replace(/\bcar\s*parks?\b|\bparking\b/g, ' ');
  if (/\b(?:people|person|anyone|anybody|someone|somebody|cars?|vehicles?|trucks?|dogs?|cats?|animals?|how many|busy|crowd)\b/.test(scene)) return undefined;
  const before = text
    .slice(0, camera.index)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const name: string[] = [];
  for (let i = before.length - 1; i >= 0 && !STOP.has(before[i]); i--) name.unshift(before[i]);
  const asks: CameraQuestion['asks'] = last ? 'last_frame' : down ? 'not_working' : 'working';
  const yesNo = !last && /^\s*(?:is|are|does|do|has|have|was|were)\b/.test(text);
  const now = ctx.now;
  const place = describeLocation(ctx.location);
  return {
    metric: 'camera',
    aggregate: 'current',
    from: now,
    to: now,
    asked_at: now,
    yes_no: yesNo,
    camera: { name, asks },
    location: ctx.location,
    time_zone: ctx.timeZone,
    range_label: 'now',
    summary: `the status and last frame of the ${name.length ? `"${name.join(' ')}" camera` : 'cameras'} of ${place}`,
  };
}

/** What the answer needs of a stream: its row's name, status and last frame time. */
export interface CameraStream {
  name: string;
  location: string;
  status: string;
  last_frame_at: string | null;
}

function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP.has(w) && !CAMERA.test(w));
}

/** The cameras the question names: all of the scene's when it names none or names the scene's place; asked back when none matches. */
export function answerCameraStatus(interp: Interpretation, streams: readonly CameraStream[], now: number): { answer: string } | { ask: string } {
  const q = interp.camera!;
  const place = describeLocation(interp.location);
  const list = streams.map((s) => `"${s.name}" (${s.status})`).join(', ');
  if (streams.length === 0) return { ask: `The ${place} has no cameras, so there is no picture to tell about.` };
  const named = q.name.filter((w) => !['camera', 'cam'].includes(w));
  const sceneWords = new Set(words(interp.location));
  const matches = (s: CameraStream) =>
    named.every((w) => words(s.name).includes(w) || words(s.location).includes(w) || sceneWords.has(w) || words(place).includes(w));
  const chosen = named.length === 0 ? streams : streams.filter(matches);
  if (chosen.length === 0) {
    return {
      ask: `I don't know a "${named.join(' ')}" camera at the ${place}; its camera${streams.length > 1 ? 's are' : ' is'} ${list}. Which one do you mean?`,
    };
  }
  const each = chosen.map((s) => {
    const at = s.last_frame_at ? Date.parse(s.last_frame_at) : NaN;
    const frame = Number.isFinite(at) ? `its last frame came at ${formatMoment(at, interp.time_zone, now)} (${sayAgo(now - at)})` : 'it has sent no frame yet';
    return { live: s.status === 'live', text: `the camera "${s.name}" is ${s.status === 'live' ? 'live' : s.status}; ${frame}` };
  });
  const body = each.map((e) => e.text).join('; ');
  if (!interp.yes_no) return { answer: `${body.charAt(0).toUpperCase()}${body.slice(1)}.` };
  const live = each.filter((e) => e.live).length;
  const allLive = live === each.length;
  const noneLive = live === 0;
  const verdict = allLive || noneLive ? ((q.asks === 'not_working') === noneLive ? 'Yes' : 'No') : 'Partly';
  return { answer: `${verdict}, ${body}.` };
}
