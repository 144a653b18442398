/**
 * Filler: words that carry no request, by class — politeness, terms of address, hedges and
 * intensifiers, discourse markers and interjections, wishes and goodbyes. A reading may leave them
 * over ("watch the garage tonight please mate", "ok so just mute the porch one"); any other content
 * word it leaves over may change what was asked (see docs/decisions.md, "Round J household: coverage
 * of verbs and objects"). The lists are closed classes: grow them by class, never by one sentence.
 */

/** Politeness and thanks: "please", "cheers", "sorry". */
const POLITENESS = ['please', 'pls', 'plz', 'kindly', 'thanks', 'thank', 'thx', 'ty', 'ta', 'cheers', 'sorry', 'appreciate', 'appreciated'];

/** Terms of address: "mate", "love", "folks". */
const ADDRESS = [
  'mate',
  'buddy',
  'pal',
  'dude',
  'bro',
  'bruv',
  'love',
  'luv',
  'hun',
  'honey',
  'babe',
  'sweetie',
  'folks',
  'guys',
  'yall',
  "y'all",
  'sir',
  'boss',
  'chief',
];

/** Hedges, softeners and intensifiers: "maybe", "just", "really", "quickly". */
const HEDGES = [
  'maybe',
  'perhaps',
  'probably',
  'possibly',
  'just',
  'really',
  'kinda',
  'sorta',
  'basically',
  'simply',
  'quickly',
  'quick',
  'literally',
  'honestly',
  'definitely',
  'surely',
  'very',
  'super',
  'quite',
  'pretty',
  'totally',
  'fully',
  'properly',
  'ever',
];

/** Discourse markers and interjections: "ok so", "anyway", "oh", "lol". */
const DISCOURSE = [
  'ok',
  'okay',
  'okey',
  'alright',
  'right',
  'so',
  'well',
  'now',
  'then',
  'anyway',
  'anyways',
  'anyhow',
  'actually',
  'like',
  'oh',
  'ah',
  'aw',
  'um',
  'uh',
  'erm',
  'hmm',
  'hmmm',
  'umm',
  'yeah',
  'yes',
  'yep',
  'yup',
  'aye',
  'lol',
  'haha',
  'hehe',
  'omg',
  'ugh',
  'wow',
  'btw',
  'fyi',
  'tbh',
  'innit',
  'cool',
  'great',
  'lovely',
  'perfect',
];

/** Wishes and goodbyes said to the agent: "enjoy your weekend", "bye", "night night". */
const WISHES = ['enjoy', 'bye', 'byee', 'goodbye', 'goodnight', 'cya', 'ttyl'];

const FILLER = new Set([...POLITENESS, ...ADDRESS, ...HEDGES, ...DISCOURSE, ...WISHES]);

/** A word that carries no request whatever it is left over from. */
export function isFillerWord(word: string): boolean {
  return FILLER.has(word);
}
