/**
 * "watch the front door from 3 till 4 so I can see when he turns up": what the watch is for, said
 * after the request, asks for nothing and names no time of the request. Its words ("when", "he",
 * "turns up") are no part of the reading, so they are not left over. A purpose that names a time or
 * a number ("so I can see who comes at 6") or a condition ("so we know if anyone comes in") is not
 * cut: the time or the condition may be the request's.
 * See docs/decisions.md, "Round I: intent and safety".
 */
import { classifyWord, type Token } from '../../platform/language/index.ts';

const SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she']);
const MODALS = new Set(['can', 'could', 'will', 'would', 'know', 'see', 'hear', 'get', 'find', 'check', 'tell', 'catch', 'spot', 'sleep', 'relax', 'stop']);

/**
 * Where a purpose ("so I can …", "so that we know …", "so you can tell me …") starts in tokens[from, to),
 * `from` being the end of the request's verb; `to` when none does. ("…, so you can knock off the shed
 * watch": "so" before the request's verb opens the request, and is not looked at.)
 */
export function findPurposeCut(tokens: readonly Token[], from: number, to: number, consumed: ReadonlySet<number>): number {
  for (let k = from + 1; k < to - 2; k++) {
    if (tokens[k].text !== 'so') continue;
    let j = k + 1;
    if (tokens[j]?.text === 'that') j++;
    if (!SUBJECTS.has(tokens[j]?.text ?? '') || !MODALS.has(tokens[j + 1]?.text ?? '')) continue;
    const after = tokens.slice(k, to);
    const timed = after.some((t, i) => consumed.has(k + i) || ['time', 'number'].includes(classifyWord(t.text, tokens[k + i - 1]?.text) ?? ''));
    // ("so we know if anyone comes in": the condition is the watch's own, read with it)
    const conditional = after.some((t) => t.text === 'if' || t.text === 'whether');
    return timed || conditional ? to : k;
  }
  return to;
}
