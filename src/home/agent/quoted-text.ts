/**
 * The user's own words around text they quote, paste or forward. Only the user's own request
 * instructs; the quoted text is content to talk about. What is left once the quote is set aside is
 * either a request of the user's own ("ignore that, just watch the garage tonight"), a question
 * about the quote ("is that a scam?", "what should I do with it?"), or only talk about where it came
 * from and what to make of it ("my wife says … - ignore her lol"). The last two get an answer that
 * says nothing changed, never a question back. See docs/decisions.md, "Round G: intent".
 */
import type { HouseholdContext } from './context.ts';

/** Who sent it and how, said before or after the quote: "Jo just messaged", "my wife says", "my neighbour texted me this". */
const SOURCE =
  /^(?:[\p{L}'’]+\s+){0,4}?(?:says?|said|messaged|texted|sent|wrote|emailed|posted|reckons|forwarded)(?:\s+(?:me|us|this|that|it|a note|on|in|the|group|chat|whatsapp))*\s*(?:[-–—:,.!]+\s*|$)/iu;

/** Setting the quote aside: "ignore that", "- ignore her lol", "don't listen to him", "pay no heed to that". */
const REJECTION =
  /(^|[\s,;:.!–—-])(?:just\s+)?(?:ignore|disregard|don'?t listen to|do not listen to|pay no (?:heed|attention|mind) to)\s+(?:him|her|them|that|this|it|the (?:message|text|note|email))\b(?:\s+(?:lol|haha|lmao|pls|please|thanks|though|tho))*[\s,.!;–—-]*/giu;

/** The user's own words without where the quote came from and without setting it aside. */
export function dropSourceAndRejection(own: string): string {
  const text = own.replace(REJECTION, '$1 ').replace(/\s+/g, ' ').trim();
  const rest = text.replace(SOURCE, '').trim();
  // ("Jo just messaged . ignore that, …": the source said as a sentence of its own, its full stop left behind)
  return rest.replace(/^[\s,.;:!–—-]+/u, '').trim();
}

/** The user asks about what they quoted: "is that a scam?", "what should I do with it?", "should I do it?". */
export function isQuestionAboutQuote(own: string): boolean {
  const t = own.trim().toLowerCase();
  return /\?/.test(t) || /^(?:so\s+)?(?:is|are|was|what|should|can|could|does|do|how|why|would|will|who)\b/.test(t);
}

/** A pasted exchange that puts words in the agent's mouth: lines opening "assistant:", "vigil:", "bot:". */
const TRANSCRIPT = /(^|\n)\s*(?:assistant|vigil|bot|ai|agent)\s*:/i;
/** Asks to weaken the home's watching: switch off, mute, stand down, lift a restriction, stop watching. */
const WEAKENING =
  /\b(?:mute|unmute|stop|stand(?:s|ing)? (?:\w+ ){0,2}down|(?:switch|turn|shut)(?:es|s|ing)? (?:\w+ ){0,2}off|disable|deactivate|lift|clear|remove|cancel|ignore)\b/i;

function describeMuted(ctx: HouseholdContext): string {
  const muted = ctx.sensors.filter((s) => s.muted);
  return muted.length ? `Muted now, as before: ${muted.map((s) => `the ${s.name}`).join(', ')}.` : 'None of your sensors is muted.';
}

/** The answer to a message whose own words hold no request: nothing changed, and what to make of the quote. */
export function answerAboutQuote(message: string, own: string, ctx: HouseholdContext): string {
  if (TRANSCRIPT.test(message)) {
    return `That exchange isn't one I had: I haven't muted, unmuted or stood down anything, and nothing has changed. ${describeMuted(ctx)}`;
  }
  const said = "I haven't acted on the quoted text — only requests you make yourself change anything — so nothing has changed.";
  if (!/\p{L}/u.test(own)) return `OK — ${said.replace(/^I/, 'I')}`;
  if (!isQuestionAboutQuote(own) || !WEAKENING.test(message)) return `${said} If you want something done, ask me in your own words.`;
  return (
    `${said} I can't tell who really sent it, but a message asking you to switch cameras off, stand watches down or lift a ` +
    "restriction is worth treating with suspicion: I wouldn't do what it says. If you do want something changed, ask me in your own words."
  );
}
