import type { Token } from '../../platform/language/index.ts';
import type { Mention } from './place-resolver.ts';

/** Words that may stand between two places joined by "or" ("the porch or the garage", "the shed, or my yard"). */
const BETWEEN = new Set(['or', 'the', 'my', 'our', ',']);
/** Words that open a condition, inside which "or" means either place ("tell me if anyone is in the shed or the yard"). */
const CONDITION_OPENERS = new Set(['if', 'when', 'whenever', 'once']);

/**
 * "watch the carport or the alley tonight", "either the shed or the yard": an "or" between two places of a
 * request is a choice the household has not made, so it is asked, never read as both (docs/decisions.md,
 * "Round T: stand-downs and scope"). Only the request's own places count: "…, the fox comes by the barn or the
 * henhouse" is a reason cut off the request, and a question ("is the porch or the barn open?") changes nothing.
 */
export function askPlaceChoice(
  readings: { intent?: string; question: boolean; tokens: Token[]; mentions: Mention[] }[],
  changes: (intent: string) => boolean,
): string | undefined {
  for (const r of readings) {
    if (!r.intent || !changes(r.intent) || r.question) continue;
    const places = [...r.mentions].sort((a, b) => a.start - b.start);
    for (let k = 1; k < places.length; k++) {
      const between = r.tokens.slice(places[k - 1].end, places[k].start).map((t) => t.text);
      if (!between.includes('or') || !between.every((w) => BETWEEN.has(w))) continue;
      // ("notify me if Rosa is in the garage or the backyard": an "or" inside a condition is either place, so both)
      if (r.tokens.slice(0, places[k - 1].start).some((t) => CONDITION_OPENERS.has(t.text))) continue;
      const [a, b] = [places[k - 1].text, places[k].text];
      return `Did you mean the ${a} or the ${b}? Tell me which one (or say both), and I'll do it. I haven't changed anything yet.`;
    }
  }
  return undefined;
}
