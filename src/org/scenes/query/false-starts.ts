/**
 * A question the speaker began, broke off and started again: "cuantas... sorry, how many people were
 * here at 4?", "how many cars, I mean how many people came in?". The words before the correction
 * ("sorry", "I mean", "no wait", "scratch that", "pardon", "never mind", "actually") are taken back, so they are dropped when what follows
 * is a whole question of its own (it opens with a question word); a correction of a part ("at 3, I
 * mean at 4") is left as said, and asked about (docs/decisions.md, "Round Q: scene questions").
 */
const CORRECTION =
  /(?:^|\.{2,}|…|[\s,;:!?-])\s*(?:sorry|i mean|i meant|no wait|wait|scratch that|oops|or rather|pardon|never mind|nevermind|forget that|let me rephrase|actually)\s*[,;:.!-]*\s+/gi;
export const QUESTION_START = /^(?:how|what|whats|what's|when|where|who|which|is|are|was|were|did|do|does|has|have|had|any|anyone|anybody|can|could)\b/i;

/** The question without a false start taken back before it, or the question as said. */
export function dropFalseStart(query: string): string {
  let kept = query;
  for (const m of query.matchAll(CORRECTION)) {
    const rest = query.slice(m.index + m[0].length);
    if (QUESTION_START.test(rest)) kept = rest;
  }
  return kept;
}
