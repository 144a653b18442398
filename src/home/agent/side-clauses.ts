/**
 * Words said beside a request that are no part of it (docs/decisions.md, "Round S: reasons"): a greeting as the
 * opening or closing words ("Good evening. Tomorrow …", "…, good night"), a reason said with "while" after a full
 * window ("from 8:30 to 3 while we are all at work"), and a reason said before the request and joined to it by "so"
 * ("my husband is on nights this week so can you watch …"). Each is a clause with its own subject and verb that
 * names no place of the home and asks for nothing, so the message is read without it. A reason whose time could be
 * the request's (the request has none of its own) or that names a place of the home is left as it was.
 */

/** "Good evening." said first, before the request; "hi, good morning," too. */
const OPENING_GREETING =
  /^\s*(?:(?:hi|hello|hey)[\s,]+(?:there[\s,]+)?)?good\s*(?:morning|afternoon|evening|night|day)(?:\s+(?:there|all|mate|folks))?(?:\s*[.,!;:]+\s*|\s+(?=(?:can|could|would|will|please|pls|i|we)\b))/i;
/** "…, good night", "… Goodnight!" said last. */
const CLOSING_GREETING = /(?:\s*[.,!;]+\s*(?:and\s+)?good\s*(?:night|evening|day)|\s+goodnight)(?:\s+(?:all|mate|folks))?[\s.!]*$/i;

/** "while we are all at work", "while I'm out": a subject and a verb of being after "while", to the clause's end. */
const WHILE_REASON = /\s+while\s+(?:we|i|they|he|she|everyone|everybody|the kids|my \w+|our \w+)(?:\s+(?:are|am|is|were|was|will be)|'re|'m|'s)\s+([^,.;!?]*)/i;
/** A window with its end said before "while" ("from 8:30 to 3", "till sunrise"). */
const FULL_WINDOW = /\b(?:to|till|til|until|through|thru|-)\s*(?:\d|noon|midday|midnight|sunrise|sunset|dawn|dusk|morning|the morning)/i;

/** "ok so my husband is on nights this week so can you watch …": a reason first, then "so" and the request. */
const LEADING_REASON =
  /^\s*(?:(?:ok|okay|right|well|alright|so)[\s,]+)*((?:i|i'm|we|we're|my|our|he|she|they|they're|the)\s[^.?!;]*?)[\s,]+so\s+((?:(?:can|could|would|will)\s+(?:you|u)\s+|please\s+|pls\s+)?(?:watch|keep an eye|keep watch|monitor|guard|mute|unmute|arm|disarm|stop|cancel|call off|stand down)\b.*)$/i;
/**
 * "mute the quincho cam we're having an asado": a request, then with no comma "we're" and a verb in "-ing", a few words;
 * or where they are, "we're in the garage" (docs/decisions.md, "Before round T: words").
 */
const TRAILING_REASON =
  /^(\s*(?:(?:can|could|would|will)\s+(?:you|u)\s+|please\s+|pls\s+)?(?:mute|unmute|silence|stop|cancel|drop)\b.*?)\s+((?:we|i|they)(?:'re|'m|\s+are|\s+am)\s+(?:\w+ing|(?:all\s+|just\s+|out\s+)?(?:in|at)\s+the)(?:\s+[a-z']+){0,4})[\s.!]*$/i;
/** A verb of the reason's own ("is", "'s", "are", "has", "will"). */
const OWN_VERB = /\b(?:is|are|am|was|were|has|have|had|will|gets|got|goes|went|works|working)\b|'(?:s|re|m|ve|ll)\b/i;
/** Words that ask for something, or take a time a request could use. */
const ASKS = /\b(?:want|need|like|please|can you|could you|watch|mute|arm|disarm|stop|cancel)\b/i;
const TIME_WORDS =
  /\d|\b(?:tonight|tomorrow|today|morning|evening|afternoon|nights?|days?|weeks?|weekends?|weekdays|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|sunset|sunrise|dusk|dawn|noon|midnight|till|until|from)\b/i;

/** The request says both its start and its end ("from 11 tonight to 7 tomorrow morning"): a reason's time cannot be its. */
function isWholeWindow(request: string): boolean {
  return /\b(?:from|between|starting)\s+\S/i.test(request) && FULL_WINDOW.test(request);
}

/** The message without the greeting or the reason said beside its request, or undefined when it has none. */
export function dropSideClauses(message: string, placeWords: readonly string[]): string | undefined {
  let text = message.replace(/[\u2018\u2019]/g, "'");
  const names = (said: string) =>
    said
      .toLowerCase()
      .split(/[^a-z']+/)
      .some((w) => placeWords.includes(w));
  const rest = (t: string) => t.trim().split(/\s+/).length >= 3;
  const opened = text.replace(OPENING_GREETING, '');
  if (opened !== text && rest(opened)) text = opened;
  const closed = text.replace(CLOSING_GREETING, '');
  if (closed !== text && rest(closed)) text = closed;
  const w = WHILE_REASON.exec(text);
  if (w && FULL_WINDOW.test(text.slice(0, w.index)) && !TIME_WORDS.test(w[1]) && !names(w[1]) && !ASKS.test(w[1])) {
    text = text.slice(0, w.index) + text.slice(w.index + w[0].length);
  }
  const trail = TRAILING_REASON.exec(text);
  if (trail && !TIME_WORDS.test(trail[2]) && !names(trail[2]) && !ASKS.test(trail[2])) text = trail[1];
  const lead = LEADING_REASON.exec(text);
  if (lead && OWN_VERB.test(lead[1]) && !names(lead[1]) && !ASKS.test(lead[1]) && (!TIME_WORDS.test(lead[1]) || isWholeWindow(lead[2]))) text = lead[2];
  return text === message.replace(/[\u2018\u2019]/g, "'") ? undefined : text;
}

/**
 * "mute the den cam we are watching the porch": a reason said after the request, with no comma, that names a place of
 * the home. Its place is no object of the request, and no reason can be dropped that names one, so the agent asks
 * (docs/decisions.md, "Round S: reasons"). The reason's words, or undefined when there is none such.
 */
export function findPlaceInTrailingReason(message: string, placeWords: readonly string[]): string | undefined {
  const trail = TRAILING_REASON.exec(message.replace(/[\u2018\u2019]/g, "'"));
  if (!trail) return undefined;
  const said = trail[2].toLowerCase().split(/[^a-z']+/);
  return said.some((w) => placeWords.includes(w)) ? trail[2].trim() : undefined;
}
