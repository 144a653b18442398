/**
 * Regional nouns for animals and vehicles that WordNet lacks or files under another sense ("chook" is not in it; "ute"
 * is a people there): each maps to the plain English word a home's names use ("chicken coop", "pickup bay"), so a
 * place named for the animal or thing is found by either word (docs/decisions.md, "Before round S: words").
 */
const REGIONAL_NOUNS: Record<string, string> = {
  chook: 'chicken',
  chookie: 'chicken',
  moggy: 'cat',
  moggie: 'cat',
  pup: 'dog',
  ute: 'pickup',
  bakkie: 'pickup',
  lorry: 'truck',
  trolley: 'cart',
  // tradespeople by their regional names (docs/decisions.md, "Round S: reasons"): "the sparky is doing the wiring"
  sparky: 'electrician',
  sparkie: 'electrician',
  chippy: 'carpenter',
  chippie: 'carpenter',
  brickie: 'bricklayer',
  tradie: 'tradesman',
  plumbo: 'plumber',
};

/** The plain word for a regional noun ("chooks" → "chicken"), or undefined when the word is none. */
export function readRegionalNoun(word: string): string | undefined {
  const w = word.toLowerCase();
  return REGIONAL_NOUNS[w] ?? (w.endsWith('s') ? REGIONAL_NOUNS[w.slice(0, -1)] : undefined);
}
