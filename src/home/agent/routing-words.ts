/**
 * The routing now in force, in words: every reply to a routing request says it whole, so the
 * household hears what will reach it, not only what changed (docs/decisions.md, "Routing said to
 * the agent").
 */
export interface RoutingInForce {
  scope: 'me' | 'household';
  paused: boolean;
  quiet_hours: { from: string; to: string } | null;
  exclude: { rooms: string[]; sensors: string[]; watches: string[] };
}

/** "23:00" → "11pm", "07:30" → "7:30am", "00:00" → "midnight", "12:00" → "noon". */
export function sayClock(hhmm: string): string {
  const h = Number(hhmm.slice(0, 2));
  const m = hhmm.slice(3, 5);
  if (m === '00' && h === 0) return 'midnight';
  if (m === '00' && h === 12) return 'noon';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${m === '00' ? '' : `:${m}`}${h < 12 ? 'am' : 'pm'}`;
}

function list(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function describeRouting(r: RoutingInForce, sensorName: (id: string) => string | undefined): string {
  const whose = r.scope === 'household' ? "The household's notifications" : 'Your notifications';
  const when = r.quiet_hours
    ? `only between ${sayClock(r.quiet_hours.to)} and ${sayClock(r.quiet_hours.from)} (quiet from ${sayClock(r.quiet_hours.from)} to ${sayClock(r.quiet_hours.to)})`
    : 'at any hour';
  const left = [...r.exclude.rooms.map((x) => `the ${x}`), ...r.exclude.sensors.map((id) => `the ${sensorName(id) ?? id}`)];
  if (r.exclude.watches.length) left.push(r.exclude.watches.length === 1 ? 'one watch' : `${r.exclude.watches.length} watches`);
  const what = left.length ? `, for everything but ${list(left)}` : ', for everything';
  if (r.paused) return `${whose} are stopped: nothing is sent until you ask me to send them again. Then they come ${when}${what}.`;
  return `${whose} now come ${when}${what}.`;
}
