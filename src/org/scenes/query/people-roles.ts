import type { Token } from './query-tokenizer.ts';

/**
 * Roles people have that the cameras cannot see: a person counted is a person, never "staff" or
 * "a guard". Face recognition names people who were enrolled, but enrolment says nothing of a role
 * (a family, a regular visitor or a banned person is enrolled too), so the recognized are not the
 * staff either (see docs/decisions.md, "Round I: words"). Asked about, these are refused.
 */
export const PEOPLE_ROLE_WORDS: readonly string[] = [
  'staff',
  'staffer',
  'staffers',
  'employee',
  'employees',
  'worker',
  'workers',
  'personnel',
  'crew',
  'colleague',
  'colleagues',
  'coworker',
  'coworkers',
  'guard',
  'guards',
  'cleaner',
  'cleaners',
  'receptionist',
  'receptionists',
  'contractor',
  'contractors',
  'volunteer',
  'volunteers',
  'tourist',
  'tourists',
  'member',
  'members',
];

/**
 * Words for the people at a place that are, said as the plain subject, just those people ("how
 * many customers in the store?", "any visitors today?"); picked out of a set of people ("how many of
 * them are visitors?", "how many people are customers?") they name a part the cameras cannot tell.
 */
const PUBLIC_ROLE_WORDS = new Set([
  'visitor',
  'visitors',
  'customer',
  'customers',
  'guest',
  'guests',
  'shopper',
  'shoppers',
  'patron',
  'patrons',
  'client',
  'clients',
  'tenant',
  'tenants',
  'resident',
  'residents',
  'occupant',
  'occupants',
  'pedestrian',
  'pedestrians',
  'punter',
  'punters',
  'passerby',
  'passersby',
]);

/** Words for a whole set of people, out of which a role would pick some. */
const WHOLE_SETS = new Set(['them', 'those', 'these', 'people', 'persons', 'everyone', 'everybody', 'folk', 'folks', 'individuals', 'humans']);

/**
 * The words of a question that restrict who is counted to a role the cameras cannot tell: a role
 * word ("staff"), or a word for the people at a place said after a whole set it picks out of ("of
 * them … visitors", "people … customers"). Empty when the question restricts nothing.
 */
export function findRestrictedRoles(tokens: readonly Token[]): string[] {
  const roles = tokens.filter((t) => PEOPLE_ROLE_WORDS.includes(t.word) && !t.roles.has('place')).map((t) => t.word);
  // the set comes first and the role picks out of it ("of them … visitors"); "any visitors? how many of
  // them stayed?" counts the visitors themselves
  const firstSet = tokens.findIndex((t) => WHOLE_SETS.has(t.word));
  const picked = firstSet < 0 ? [] : tokens.slice(firstSet + 1).filter((t) => PUBLIC_ROLE_WORDS.has(t.word));
  return [...new Set([...roles, ...picked.map((t) => t.word)])];
}

/** The refusal for a role: what the cameras count instead. */
export function describeRoleRefusal(words: readonly string[], place: string): string {
  const said = words.map((w) => `"${w}"`).join(', ');
  return `The camera in the ${place} counts people but cannot tell ${said} from anyone else: no role is recorded, and face recognition names only people enrolled, not what they do. Ask how many people there are, or "who is here now?" for the people recognized.`;
}
