import { QUESTION_START } from './false-starts.ts';

/**
 * "sorry to bother you, how many people are here?", "hi vigil, was anyone in the yard last night?":
 * a greeting or a politeness said before a whole question is filler, dropped when what follows opens
 * like a question (false-starts.ts); said anywhere else, or before something that is not a question,
 * it is left as said (docs/decisions.md, "Round R: scene questions").
 */
const LEAD =
  /^\s*(?:(?:so\s+)?sorry\s+to\s+(?:bother|trouble|disturb|interrupt)(?:\s+you)?|excuse\s+me|pardon\s+me|(?:a\s+|one\s+)?quick\s+(?:one|question)|(?:hey|hi|hello)(?:\s+there)?|good\s+(?:morning|afternoon|evening)|vigil)(?:\s+vigil)?\s*[,;:.!-]*\s+/i;

/** The question without the politeness before it, or the question as said. */
export function dropPoliteLead(query: string): string {
  let kept = query;
  for (let m = LEAD.exec(kept); m; m = LEAD.exec(kept)) {
    const rest = kept.slice(m[0].length);
    if (!QUESTION_START.test(rest) && !LEAD.test(rest)) break;
    kept = rest;
  }
  return QUESTION_START.test(kept) ? kept : query;
}
