import { formatClock } from '../../platform/time/index.ts';

/** What a door or gate contact last said, and how its feed is (src/home/household/household.service.ts, contactState). */
export interface ContactReport {
  /** what is open or closed: "The back door", or the sensor's label when its room is not a door */
  subject: string;
  /** the sensor's label, lower case: "side gate contact" */
  sensor: string;
  /** the last state change stored, if any */
  last?: { open: boolean; at: number };
  /** the feed's status: 'live', 'offline', 'connecting', 'reconnecting' */
  status: string;
  error?: string | null;
  /** when the sensor was last heard from (its stream's last_frame_at), if known */
  heardAt?: number | null;
  now: number;
  timeZone: string;
}

/**
 * "Is the side gate closed?" in one or two sentences. A live contact reports both ways, so its last
 * change is its state now. A contact that is not live (battery flat, silence, broker down) may have
 * changed since: its last report is said as the past, with when, never as the state now
 * (docs/decisions.md, "Round H: scene questions").
 */
export function contactSentence(r: ContactReport): string {
  const at = (t: number) => `${formatClock(t, r.timeZone)}${dayOf(t, r.now, r.timeZone)}`;
  const label = r.sensor.replace(/^\w/, (c) => c.toUpperCase());
  if (r.status === 'live') {
    if (!r.last) return `${label} has not reported whether it is open or closed yet.`;
    return `${r.subject} is ${r.last.open ? 'open' : 'closed'} (since ${at(r.last.at)}, reported by ${r.sensor}).`;
  }
  const heard = r.heardAt ?? r.last?.at;
  const feed = `${label} is ${r.status}${r.error ? ` (${r.error})` : ''}${heard ? ` and has not reported since ${at(heard)}` : ''}`;
  // "the side gate" when the room names what opens, else "it" (the sensor itself)
  const what = r.subject.toLowerCase() === r.sensor.toLowerCase() ? 'it' : r.subject.replace(/^The /, 'the ');
  const lastSaid = r.last ? ` Its last report, at ${at(r.last.at)}, was that ${what} was ${r.last.open ? 'open' : 'closed'}.` : '';
  return `${feed}, so I can't tell whether ${what} is open or closed now.${lastSaid}`;
}

/** '' today, ' yesterday', or ' on 2 December', in the home's zone. */
function dayOf(at: number, now: number, tz: string): string {
  const day = (t: number) => new Intl.DateTimeFormat('en-GB', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t);
  if (day(at) === day(now)) return '';
  if (day(at) === day(now - 86_400_000)) return ' yesterday';
  return ` on ${new Intl.DateTimeFormat('en-GB', { timeZone: tz, day: 'numeric', month: 'long' }).format(at)}`;
}
