import { getNounSenses, isPersonWord, isSamePersonWord } from '../../platform/language/index.ts';
import type { ContextPerson } from './context.ts';

/**
 * Known people in a household request: "let me know when Maria arrives" names an
 * enrolled person; "ping me when Joana arrives" names someone who is not, and the agent asks
 * rather than watching for a stranger or for anyone at all.
 */

/** Words that sit where a name sits ("when someone arrives", "if the kids come home") and are no names. */
const NOT_NAMES = new Set([
  'someone',
  'somebody',
  'anyone',
  'anybody',
  'everyone',
  'everybody',
  'nobody',
  'people',
  'person',
  'the',
  'a',
  'an',
  'my',
  'our',
  'your',
  'his',
  'her',
  'their',
  'he',
  'she',
  'they',
  'we',
  'you',
  'i',
  'it',
  'there',
  'that',
  'this',
  'somebody',
  'strangers',
  'stranger',
  'kids',
  'children',
  'delivery',
  'courier',
  'postman',
  'mailman',
  'parcel',
  'package',
  'car',
  'cars',
  'visitors',
  'guests',
  'guest',
  'visitor',
  'cat',
  'dog',
  'door',
  'motion',
  'movement',
  'anything',
  'something',
  'sun',
  'night',
  'dark',
  'nanny',
  'babysitter',
  // determiners and quantifiers, a closed class ("if any car pulls in" names nobody)
  'any',
  'some',
  'every',
  'each',
  'no',
  'all',
  'both',
  'either',
  'neither',
  'another',
  'other',
  'which',
  'what',
  'whichever',
  'whatever',
  'whoever',
  'these',
  'those',
]);

/** "when X arrives / comes home / gets back / shows up / is here". */
const ARRIVAL =
  /\b(?:when|if|once|whenever|as soon as|the moment)\s+([a-z][a-z'-]*)(?:\s+[a-z][a-z'-]*)?\s+(?:arrives?|arriving|comes?|coming|gets?|getting|shows?|turns?|walks?|drops?|stops?|returns?|pulls?|leaves?|is\s+(?:home|here|back|at)|reaches|rings|knocks|enters?)\b/;

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []).map((w) => w.replace(/'s$/, ''));
}

export type PeopleMention = { people: ContextPerson[] } | { unknown: string; relation?: boolean } | { ambiguous: ContextPerson[]; said: string };

/** Person words that say nothing of who someone is: never matched against a household's notes. */
const GENERIC_PERSON_WORDS = new Set([
  'person',
  'people',
  'someone',
  'somebody',
  'anyone',
  'anybody',
  'individual',
  'stranger',
  'strangers',
  'visitor',
  'visitors',
  'guest',
  'guests',
  'man',
  'men',
  'woman',
  'women',
  'human',
  'intruder',
  'unknown',
  'one',
  'who',
]);

/**
 * "when the nanny gets here", "when grandma arrives": a role word answered by the free-text note of
 * exactly one enrolled person ("nanny", "grandmother"), matched through WordNet's person senses.
 */
function findByRole(tokens: string[], people: readonly ContextPerson[]): PeopleMention | undefined {
  const roles = tokens.filter((t) => !GENERIC_PERSON_WORDS.has(t) && isPersonWord(t));
  for (const role of roles) {
    const matching = people.filter((p) =>
      words(p.note ?? '').some((n) => !GENERIC_PERSON_WORDS.has(n) && isPersonWord(n) && (isSamePersonWord(role, n) || isSamePersonWord(n, role))),
    );
    if (matching.length === 1) return { people: matching };
    if (matching.length > 1) return { ambiguous: matching, said: `the ${role}` };
  }
  return undefined;
}

/** The last message read and what it named: each clause of a message asks again about the whole message. */
let lastRead: { message: string; people: readonly ContextPerson[]; said: string; found: PeopleMention | undefined } | undefined;

/** What findPeople reads of the people (an array changed in place is another household). */
function describePeople(people: readonly ContextPerson[]): string {
  return people.map((p) => `${p.id}\u0000${p.name}\u0000${p.note ?? ''}`).join('\n');
}

/**
 * The known people a message names (by full name or one of their names), an unknown name in a
 * "when X arrives" slot, or nothing. Two people answering to one name are asked about.
 */
export function findPeople(message: string, people: readonly ContextPerson[]): PeopleMention | undefined {
  const said = describePeople(people);
  if (lastRead && lastRead.message === message && lastRead.said === said && (lastRead.people === people || !people.length)) return lastRead.found;
  const found = readPeople(message, people);
  lastRead = { message, people, said, found };
  return found;
}

function readPeople(message: string, people: readonly ContextPerson[]): PeopleMention | undefined {
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
    // "Tom's friend", "Maria's husband": someone else, described through a known person — asked, never watched as them
    for (const f of all) {
      const rel = new RegExp(`\\b${f.said}'s\\s+([a-z]+)`).exec(message.toLowerCase().replace(/[\u2019]/g, "'"));
      if (rel && isPersonWord(rel[1])) return { unknown: `${f.person.name}'s ${rel[1]}`, relation: true };
    }
    // the same word names several people ("Maria" for Maria Santos and Maria Silva): ask which
    const bySaid = new Map<string, typeof all>();
    for (const f of all) bySaid.set(f.said, [...(bySaid.get(f.said) ?? []), f]);
    for (const [said, group] of bySaid) if (group.length > 1 && !group.some((g) => g.full)) return { ambiguous: group.map((g) => g.person), said };
    return { people: all.map((f) => f.person) };
  }
  const role = findByRole(tokens, people);
  if (role) return role;
  const m = ARRIVAL.exec(tokens.join(' '));
  if (m && !NOT_NAMES.has(m[1])) {
    const capitalised = new RegExp(`\\b${m[1][0].toUpperCase()}${m[1].slice(1)}\\b`).test(message);
    if (capitalised || getNounSenses(m[1]).length === 0) return { unknown: m[1][0].toUpperCase() + m[1].slice(1) };
  }
  return undefined;
}
