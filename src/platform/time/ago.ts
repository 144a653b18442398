/**
 * How long ago a moment was, in the words every reply that gives a reading's age uses: "just now"
 * under a minute, then minutes up to two hours ("74 minutes ago"), hours up to two days ("22 hours
 * ago"), then days. One wording for the household agent's and the scene answers' ages, so a reading
 * is described the same way on both surfaces.
 */
export function sayAgo(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 120) return `${count(minutes, 'minute')} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${count(hours, 'hour')} ago`;
  return `${count(Math.round(hours / 24), 'day')} ago`;
}

function count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
