/**
 * A message that takes itself back: a request followed, in the same message, by words that only
 * withdraw it ("stop all the watches. actually no, never mind", "unmute the study camera - scratch
 * that", "stop the driveway watch, on second thoughts leave it", "… wait, don't"). Nothing of what was
 * withdrawn is done. A withdrawal that goes on to say something new ("actually no, just the garden
 * one", "never mind the shed, watch the garage") is a correction, read elsewhere. See
 * docs/decisions.md, "Round I: intent and safety".
 */

/** Words around a withdrawal that add nothing: "actually", "no", "wait", "hmm", "on second thoughts". */
const FILLER = String.raw`(?:actually|no|nah|nope|wait|hang on|hold on|hmm+|h+m+|oh|oops|um+|erm+|er|uh|sorry|ok(?:ay)?|right|then|please|thanks|lol|on second thoughts?|on reflection|thinking about it|second thoughts|come to think of it|just|so)`;

/** The withdrawal itself. */
const WITHDRAW = String.raw`(?:never ?mind(?: (?:that|then|me))?|nvm|scratch that|scrap that|forget (?:it|that|about it|i said anything|what i said)|ignore (?:that|this|me|what i (?:just )?said|my last (?:message|request))|disregard (?:that|this|my last (?:message|request))|cancel that|belay that|don'?t(?: do (?:it|that|anything))?(?: bother)?|do not(?: do (?:it|that|anything))?|don'?t worry(?: about it)?|let'?s not|better not|as you were|(?:i )?(?:changed|change) my mind|i take (?:it|that) back|take that back)`;
/** "leave it (running)": a withdrawal only of a request that stops, mutes or lifts something ("watch the garage, leave it running" says the same twice). */
const LEAVE = String.raw`(?:leave (?:it|them|that|things|everything|all of it)(?: (?:be|alone|running|going|on|as (?:it is|they are|is|it was|they were)|for now|then))*)`;
const STOPPING =
  /\b(?:stop|stand\w* (?:\w+ ){0,3}down|cancel|call\w* (?:\w+ ){0,3}off|end|mute|disable|kill|drop|scrap|clear|remove|lift|(?:switch|turn|shut)\w* (?:\w+ ){0,3}off)\b/i;

const trailing = (withdraw: string) =>
  new RegExp(String.raw`^(?:${FILLER}[\s,.!;:–—-]*)*${withdraw}(?:[\s,.!;:–—-]+(?:${FILLER}|${withdraw}))*[\s,.!;:–—-]*$`, 'i');
const TRAILING_WITHDRAWAL = trailing(WITHDRAW);
const TRAILING_LEAVE = trailing(String.raw`(?:${WITHDRAW}|${LEAVE})`);

/** Words before the withdrawal that hold no request of their own ("actually, scrap that", "never mind, cancel that"). */
const NO_REQUEST = new RegExp(String.raw`^[\s,.!;:–—-]*(?:(?:${FILLER}|${WITHDRAW}|${LEAVE})[\s,.!;:–—-]*)*$`, 'i');

/** A boundary a withdrawal may follow: a full stop, a comma, a dash, "…". */
const BOUNDARY = /(?:[.!?;,]+|\s[-–—]+|\.{2,}|…)\s*/g;

/** True when the message is a request (or question) followed by words that only withdraw it. */
export function isWithdrawnInFull(message: string): boolean {
  const text = message.trim().replace(/[\u2018\u2019]/g, "'");
  for (const m of text.matchAll(BOUNDARY)) {
    const before = text.slice(0, m.index);
    const after = text.slice(m.index + m[0].length);
    // ("actually, scrap that": nothing before it to take back in this message; the conversation's last change is read elsewhere)
    if (!/\p{L}/u.test(before) || NO_REQUEST.test(before)) continue;
    if (TRAILING_WITHDRAWAL.test(after) || (STOPPING.test(before) && TRAILING_LEAVE.test(after))) return true;
  }
  return false;
}

export const WITHDRAWN_REPLY = "OK — you took that back in the same message, so I haven't done it: everything is as it was.";
