import type { Token } from '../../platform/language/index.ts';

/** Words that may follow a sensor kind before what is said of it ("the motion one", "the camera sensor"). */
const KIND_TAILS = new Set(['one', 'ones', 'sensor', 'sensors']);
const BE = new Set(['is', 'are', 'was', "'s", "'re", 'be']);
/**
 * What makes a sensor not worth watching: "useless", "broken". ("no good", "not needed" carry a negation the clause
 * reader takes as one of the request, so they are asked about, never acted on.)
 */
const DISMISSALS = new Set(['useless', 'broken', 'rubbish', 'pointless', 'dead', 'faulty', 'busted', 'knackered', 'unreliable', 'unnecessary', 'unneeded']);

/**
 * "watch the bike store tonight, only the camera, the motion one is useless": a sensor kind said to be
 * useless, broken or not needed is left out of the place, as "not the motion" would be (docs/decisions.md,
 * "Round T: stand-downs and scope"). Returns the index of the dismissal's adjective when the kind at
 * tokens[end - 1] is dismissed; -1 otherwise.
 */
export function findKindDismissal(tokens: Token[], end: number): number {
  let k = end;
  if (KIND_TAILS.has(tokens[k]?.text ?? '')) k++;
  if (!BE.has(tokens[k]?.text ?? '')) return -1;
  k++;
  return DISMISSALS.has(tokens[k]?.text ?? '') ? k : -1;
}
