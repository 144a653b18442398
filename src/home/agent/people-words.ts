import { getNounSenses } from '../../platform/language/index.ts';
import type { ContextPerson } from './context.ts';

/**
 * Known people in a household request (issue 14 §4): "let me know when Maria arrives" names an
 * enrolled person; "ping me when Joana arrives" names someone who is not, and the agent asks
 * rather than watching for a stranger or for anyone at all.
 */

/** Words that sit where a name sits ("when someone arrives", "if the kids come home") and are no names. */
const NOT_NAMES = new Set([
  'someone', 'somebody', 'anyone', 'anybody', 'everyone', 'everybody', 'nobody', 'people', 'person', 'the', 'a', 'an', 'my', 'our', 'your',
  'his', 'her', 'their', 'he', 'she', 'they', 'we', 'you', 'i', 'it', 'there', 'that', 'this', 'somebody', 'strangers', 'stranger',
  'kids', 'children', 'delivery', 'courier', 'postman', 'mailman', 'parcel', 'package', 'car', 'cars', 'visitors', 'guests', 'guest',
  'visitor', 'cat', 'dog', 'door', 'motion', 'movement', 'anything', 'something', 'sun', 'night', 'dark', 'nanny', 'babysitter',
]);

/** "when X arrives / comes home / gets back / shows up / is here". */
const ARRIVAL = /\b(?:when|if|once|whenever|as soon as|the moment)\s+([a-z][a-z'-]*)(?:\s+[a-z][a-z'-]*)?\s+(?:arrives?|arriving|comes?|coming|gets?|getting|shows?|turns?|walks?|drops?|stops?|returns?|pulls?|leaves?|is\s+(?:home|here|back|at)|reaches|rings|knocks|enters?)\b/;

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []).map((w) => w.replace(/'s$/, ''));
}

export type PeopleMention = { people: ContextPerson[] } | { unknown: string } | { ambiguous: ContextPerson[]; said: string };

/**
 * The known people a message names (by full name or one of their names), an unknown name in a
 * "when X arrives" slot, or nothing. Two people answering to one name are asked about.
 */
export function findPeople(message: string, people: readonly ContextPerson[]): PeopleMention | undefined {
  const tokens = words(message);
  const text = ` ${tokens.join(' ')} `;
  const found = new Map<string, { person: ContextPerson; full: boolean; said: string }>();
  for (const person of people) {
    const parts = words(person.name);
    if (!parts.length) continue;
    if (text.includes(` ${parts.join(' ')} `)) found.set(person.id, { person, full: true, said: parts.join(' ') });
    else {
      const part = parts.find((p) => p.length >= 2 && !NOT_NAMES.has(p) && tokens.includes(p));
      if (part) found.set(person.id, { person, full: false, said: part });
    }
  }
  if (found.size) {
    const all = [...found.values()];
    // the same word names several people ("Maria" for Maria Santos and Maria Silva): ask which
    const bySaid = new Map<string, typeof all>();
    for (const f of all) bySaid.set(f.said, [...(bySaid.get(f.said) ?? []), f]);
    for (const [said, group] of bySaid) if (group.length > 1 && !group.some((g) => g.full)) return { ambiguous: group.map((g) => g.person), said };
    return { people: all.map((f) => f.person) };
  }
  const m = ARRIVAL.exec(tokens.join(' '));
  if (m && !NOT_NAMES.has(m[1])) {
    const capitalised = new RegExp(`\\b${m[1][0].toUpperCase()}${m[1].slice(1)}\\b`).test(message);
    if (capitalised || getNounSenses(m[1]).length === 0) return { unknown: m[1][0].toUpperCase() + m[1].slice(1) };
  }
  return undefined;
}
