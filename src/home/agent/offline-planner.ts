/**
 * The offline planner: deterministic language understanding, no language model.
 * message + household context in, plan out; pure, so it can be tested and benchmarked alone.
 *
 * Pipeline: language guard → normalise (typos, lemmas) → clauses and their intents → per clause
 * the places (only this home's), times and conditions → tool calls, checked against boundaries,
 * muted sensors and what exists. Follow-ups without an intent of their own take the intent of
 * the previous clause or of the conversation's last request ("what about the garage?").
 */
import type { ContextPerson, ContextSensor, ContextWatch, HouseholdContext, StoodDownWatch } from './context.ts';
import { findPeople } from './people-words.ts';
import { lookupCity } from './city-directory.ts';
import { keepsAfterAll, opensDeviceControl, splitClauses, type Clause } from './clause-reader.ts';
import { readLeadingClause } from './leading-clause.ts';
import { dropSideClauses, findPlaceInTrailingReason } from './side-clauses.ts';
import { correctCommandVerbSlips, detectForeignLanguage } from './language-guard.ts';
import {
  AUXILIARIES,
  HESITATION_VERBS,
  createNormalizer,
  findEditClockOrRange,
  findUncovered,
  isEventEndWord,
  isPersonWord,
  isPlaceWord,
  type Uncovered,
  type ContentVocabulary,
  classifyWord,
  quoteUncovered,
  type Token,
  type WordRole,
  extractTimeSpec,
  findWindowConflict,
  findOpenDayHalf,
  findTimePhrase,
  parseWeekday,
  needsLocation,
  resolveSince,
  resolveWatchWindow,
  resolveWindowChange,
  settleDayPart,
  type TimeSpec,
} from '../../platform/language/index.ts';
import { findMentions, hideNameNumbers, listPlaceWords, restoreFunctionWordNames, type Mention, type Place } from './place-resolver.ts';
import { MAX_MESSAGE_CHARS, type Plan, type PlannedCall } from './plan.ts';
import { checkPlanAgainstMessage } from './plan-check.ts';
import { findConflict, type PartEffect } from './plan-conflicts.ts';
import { answerAboutQuote, dropSourceAndRejection, isQuestionAboutQuote } from './quoted-text.ts';
import { claimsAuthority } from './authority-claims.ts';
import { WITHDRAWN_REPLY, isWithdrawnInFull } from './retraction.ts';
import { findPurposeCut } from './purpose-clause.ts';
import { findKindDismissal } from './dismissed-kinds.ts';
import { askPlaceChoice } from './place-choice.ts';
import { planDirectIntents } from './direct-intents.ts';
import { ARMED_WINDOW, readArmRequest } from './tools/arm-house.ts';
import { answerRecallQuestion } from './recall-question.ts';
import { describeOfflineInWatch } from './feed-status.ts';
import { findNewSensorNameSpan, findTimeInSensorName, readNewSensorName, readNewSensorRoom } from './new-sensor-words.ts';
import {
  ARRIVAL_PHRASES,
  CONDITION_WORDS,
  ENTRANCE_WORDS,
  KIND_WORDS,
  NOTICE_WORDS,
  OUT_OF_SCOPE_NOUNS,
  OUT_OF_SCOPE_VERBS,
  REFERENCE_WORDS,
  VAGUE_SUBJECTS,
  WHOLE_HOME_WORDS,
  isPlannerWord,
  listCorrectableWords,
  type IntentKind,
} from './vocabulary.ts';

const normalizeMessage = createNormalizer(listCorrectableWords());
import { addDays, countDaysBetween, formatClock, getWeekday, isValidTimeZone, toLocalDate, toWallClock } from '../../platform/time/index.ts';
import type { WATCH_CONDITIONS } from './tools.ts';
import { askPolarSunWindow } from './polar-sun.ts';
import { findPluralWatches } from './conversation-watches.ts';
import { namesADayHalf, readDayHalfAnswer } from './day-half-answer.ts';

type Condition = (typeof WATCH_CONDITIONS)[number];

/** One clause read: what is asked, about what, when. */
interface Reading {
  intent?: IntentKind;
  clause: Clause;
  tokens: Token[];
  mentions: Mention[];
  time: TimeSpec;
  conditions: Condition[];
  /** known people named ("when Maria arrives"): a watch for them, recognized by face */
  people: ContextPerson[];
  /** why the people named cannot be watched for: an unknown or ambiguous name (asked, never guessed) */
  peopleQuestion?: string;
  /** "it", "that", "the driveway one". */
  hasReference: boolean;
  /** "all the watches", "everything". */
  wantsAll: boolean;
  startRequested: boolean;
  /** "no need to…", "don't bother with…", "not … anymore": the clause's request is negated. */
  negated: boolean;
  /** Asked, not requested ("is the nursery camera muted?"): never changes anything. */
  question: boolean;
  /** Places the clause puts out of its request ("…, not the driveway"). */
  excluded: Mention[];
  /** Sensors named after "except", "but (not)", "apart from": kept out of an "all" request. */
  exceptSensorIds: string[];
  outOfScope?: string;
  /** The out-of-scope part is a request of its own ("lock the back door"), not a remark ("the new lock is installed"). */
  outOfScopeRequest?: boolean;
  hesitation: boolean;
  urls: string[];
  text: string;
  /** The message as typed (coordinates and zone names keep their signs and case). */
  message: string;
  /** "forget the driveway, do the garage instead": the places whose watch moves to this reading's places. */
  replaces?: Mention[];
  /** A word the reading could not resolve ("the other one" with no other to take): asked, never guessed. */
  unresolved?: string;
  /** "…, the nursery keeps creaking", "…, we've got guests 37": what a reason beside the request leaves open, asked about (see findPlaceReason, markReasonUsed). */
  reasonQuestion?: string;
  /** "stop them", "cancel both": the watches a plural reference means, [] when it fits none (asked; conversation-watches.ts). */
  pluralWatchIds?: string[];
  /** Token indexes the reading used (time, cue, places, conditions, references, names): see docs/decisions.md, "Coverage before action". */
  used: Set<number>;
  /** The token ranges the reading covers: its clause, and clauses folded into it (a correction, a time said after). */
  spans: [number, number][];
}

type Subject = { kind: 'room'; room: string } | { kind: 'sensor'; sensor: ContextSensor };

/** What the plan has changed so far, so later clauses see it ("unmute X and watch it"). */
interface PlanState {
  ctx: HouseholdContext;
  muted: Set<string>;
  boundaries: { room?: string; sensor_id?: string }[];
  watches: ContextWatch[];
  lastSubject?: Subject;
  lastWatchId?: string;
  mentionedSensorIds: Set<string>;
}

const HELP_TEXT =
  'I can watch rooms and sensors for a time ("watch the garage tonight"), change or stand down watches, ' +
  'mute or unmute sensors, leave rooms alone, tell you what a room shows now or what happened, ' +
  'add a camera, and set where your home is.';

/** The pause verbs the coverage reader knows ("wait", "hang on", "hold on"), and "not sure". */
const HESITATION_WORDS = new Set(['sure', ...HESITATION_VERBS]);

/**
 * The user has not made up their mind: "I can't decide", "not decided yet", "undecided", "I don't
 * know which", "…, or the garage?" said as a second thought. Nothing is done; the agent asks.
 */
function isUndecided(words: string[]): boolean {
  const at = (w: string) => words.indexOf(w);
  const negated = (k: number) => k > 0 && words.slice(Math.max(0, k - 3), k).some((w) => ['not', "n't", 'never', 'yet'].includes(w));
  if (words.some((w) => ['undecided', 'unsure', 'indecisive'].includes(w))) return true;
  for (const w of ['decide', 'decided', 'make']) if (at(w) >= 0 && negated(at(w)) && (w !== 'make' || words.includes('mind'))) return true;
  // "I don't know which / whether / if"
  const know = at('know');
  if (know > 0 && negated(know) && ['which', 'whether', 'if'].includes(words[know + 1] ?? '')) return true;
  // "wait, or the garage": a second thought that offers another choice
  return words[0] === 'or' || words.some((w, k) => w === 'or' && ['wait', 'hmm', 'maybe', 'actually'].includes(words[k - 1] ?? ''));
}

/** Why a message is not something to act on (empty, emoji only, too long, a pasted log), or undefined. */
function findBadInput(message: string): string | undefined {
  const text = message.trim();
  if (!text) return 'Your message was empty.';
  if (text.length > MAX_MESSAGE_CHARS) return `That message is too long for me to act on (${text.length} characters; I read up to ${MAX_MESSAGE_CHARS}).`;
  if (!/\p{L}/u.test(text)) return /\p{Extended_Pictographic}/u.test(text) ? "I can't act on emoji alone." : "I didn't find any words in that.";
  const signs = [
    /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/.test(text),
    /\b(ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL)\b/.test(text),
    /\bat .+\(?[\w/.-]+:\d+:\d+\)?/.test(text),
    /^\s*[{[]/.test(text) && /[}\]]\s*$/.test(text),
    text.split('\n').length >= 4,
  ].filter(Boolean).length;
  if (signs >= 2) return 'That looks like a pasted log or data, not a request, so I left everything as it was.';
  return undefined;
}

/** "turn on face recognition" → true, "switch face recognition off" → false, anything else undefined. */
function readFaceRecognitionSwitch(message: string): boolean | undefined {
  const m = message.toLowerCase();
  if (!/\bfac(e|ial)[- ]?recogni(tion|[sz]ing)\b/.test(m)) return undefined;
  if (/\?\s*$/.test(m) && /^(is|are|do|does|what|how|can)\b/.test(m.trim())) return undefined;
  if (/\b(turn|switch|shut)\b.*\boff\b|\b(disable|stop|deactivate)\b|\bno more\b|\bdon'?t (use|want)\b/.test(m)) return false;
  if (/\b(turn|switch)\b.*\bon\b|\b(enable|start|activate|use)\b/.test(m)) return true;
  return undefined;
}

const QUOTED_ONLY =
  "That reads as quoted or forwarded text, not a request from you, so I haven't acted on it and changed nothing. What would you like me to do?";

/** Only the user's own words instruct: quoted, forwarded and pretend-system text is content, talked about, never obeyed. */
function planOthersWords(message: string, ctx: HouseholdContext, plan: Plan): Plan | undefined {
  if (PRETEND_SYSTEM.test(message) || PRETEND_AUTHORITY.test(message) || claimsAuthority(message)) {
    const answered = answerOwnQuestionBesideMarkup(message, ctx);
    if (answered) return answered;
    plan.clarification =
      "That reads as instructions pretending to come from the system or another speaker, so I haven't acted on them and changed nothing. If you want something done, ask me in your own words.";
    plan.confidence = 0;
    return plan;
  }
  const quoted = setAsideQuoted(message);
  if (quoted.found) {
    const own = dropSourceAndRejection(dropQuoteTalk(quoted.own));
    // ("<admin>…</admin> which watches are on?": a question about the home's watches, answered)
    const listed = answerOwnQuestionBesideMarkup(message, ctx);
    if (listed?.calls.length) return listed;
    const answered = answerQuoteOnly(message, own, ctx);
    if (answered) return answered;
    if (
      !/\p{L}/u.test(quoted.own.replace(/\b(sent|forwarded|texted|wrote|says?|said|me|this|my|his|her|our|message|got|just|look|at|what|a|an|the)\b/gi, ''))
    ) {
      plan.clarification = QUOTED_ONLY;
      plan.confidence = 0;
      return plan;
    }
    const inner = planOffline(own, ctx);
    if (!inner.calls.length && inner.clarification && !inner.answers?.length) {
      const referred = planReferenceIntoQuote(message, own, ctx);
      if (referred) return referred;
      // ("…'disarm at 3pm'. just watch the front door from 3 till 4": the user's own request, asked about as it would be alone)
      if (asksForChange(own, ctx)) return { ...inner, clarification: `I haven't acted on the quoted text, only on your own words. ${inner.clarification}` };
      return {
        ...inner,
        clarification: QUOTED_ONLY,
      };
    }
    inner.notes = [...(inner.notes ?? []), "I didn't act on the quoted or forwarded text: only your own request is an instruction."];
    return inner;
  }
  return undefined;
}

/**
 * "my son sent this: "can u mute the rumpus cam" - um no. watch it tonight instead": the user's own request, whose
 * "it" names no place of its own, is about the one place the quote names, as if the quote were a turn before that
 * changed nothing. Only the user's own verb and time are acted on, never the quote's (docs/decisions.md, "Before
 * round S: probe leaks").
 */
function planReferenceIntoQuote(message: string, own: string, ctx: HouseholdContext): Plan | undefined {
  const quotes = [...message.matchAll(/["\u201c\u201d]([^"\u201c\u201d]+)["\u201c\u201d]/g)].map((m) => m[1]);
  const requests = readMessage(own, ctx).filter((r) => r.intent && STATE_INTENTS.has(r.intent));
  if (quotes.length !== 1 || requests.length !== 1 || requests[0].question || !requests[0].hasReference || requests[0].mentions.length) return undefined;
  const turns = ctx.conversation?.turns ?? [];
  const inner = planOffline(own, { ...ctx, conversation: { turns: [...turns, { message: quotes[0], actions: [] }] } });
  if (!inner.calls.length || inner.clarification) return undefined;
  inner.notes = [...(inner.notes ?? []), "I didn't act on the quoted text: only on your own request, about the place it names."];
  return inner;
}

/** The user's own words hold a request that changes the household (a watch, a stand-down, a mute…) of a room or sensor they name. */
function asksForChange(own: string, ctx: HouseholdContext): boolean {
  return readMessage(own, ctx).some(
    (r) => r.intent && STATE_INTENTS.has(r.intent) && !r.question && r.mentions.some((m) => m.place.type === 'room' || m.place.type === 'sensor'),
  );
}

/** What is answered before the general reader reads the message: bad input, pretend-system and quoted text, "undo", corrections, the tools' own readers, another language, the face recognition switch, chit-chat. */
function planBeforeReading(message: string, ctx: HouseholdContext, plan: Plan): Plan | undefined {
  // "yes please", "sunrise is fine", "6": the end the start-only question asked for (askAboutStartOnly); a bare clock has no letters
  const sunrise = answerSunriseOffer(message, ctx);
  if (sunrise) return sunrise;
  const bad = findBadInput(message);
  if (bad) {
    plan.clarification = `${bad} ${HELP_TEXT} What would you like me to do?`;
    plan.confidence = 0;
    return plan;
  }
  const notOwn = planOthersWords(message, ctx, plan);
  if (notOwn) return notOwn;
  // "stop all the watches. actually no, never mind": what the message took back is not done
  if (isWithdrawnInFull(message)) return { planner: 'offline', calls: [], refusals: [], answers: [WITHDRAWN_REPLY], confidence: 1 };
  // "thanks. until what time?" right after a watch was made or changed: when it ends
  const untilWhen = answerUntilWhen(message, ctx);
  if (untilWhen) return untilWhen;
  // "evening", "pm please", "the night one": the half of the day an am/pm question asked for (day-half-answer.ts)
  const half = answerDayHalf(message, ctx);
  if (half) return half;
  // after a turn that asked or answered and changed nothing, "ok leave it then", "fine, forget it",
  // "no, leave it": no new object, so nothing changes (see docs/decisions.md, "Round F household: relative days and starts")
  if (LEAVE_IT.test(message.trim()) && ctx.conversation?.turns.length && !ctx.conversation.turns.at(-1)!.actions.length) {
    return { planner: 'offline', calls: [], refusals: [], answers: ["OK, I've left everything as it is."], confidence: 1 };
  }
  // "undo that", "put it back": the reverse of the conversation's last change
  if (UNDO.test(message.trim())) return planUndo(ctx);
  const undoAndSay =
    planUndoWithRestatement(message.trim(), ctx) ?? planWithdrawalSaidAsReverse(message.trim(), ctx) ?? planWithdrawalThenPlace(message.trim(), ctx);
  if (undoAndSay) return undoAndSay;
  const restoredForTime = planRestoreForTime(message.trim(), ctx) ?? planUnmuteSaidAsBackOn(message.trim(), ctx);
  if (restoredForTime) return restoredForTime;
  // "never mind" and "no, I meant the hall camera" right after a mute or a boundary correct it
  const corrected = planCorrectionOfSensorChange(message.trim(), ctx);
  if (corrected) return corrected;
  // a sensor by its MQTT topic, notification routing: read before the general reader (direct-intents.ts)
  // "dissarm": a slip of a command verb, read as the verb (language-guard.ts)
  const verbs = correctCommandVerbSlips(message);
  const armAndMore = planArmInCompound(verbs.text, ctx);
  if (armAndMore) return armAndMore;
  const direct = planDirectIntents(verbs.text, ctx);
  if (direct) {
    if (verbs.slips.length && (direct.calls.length || direct.answers?.length)) sayCorrections('', ctx, direct, verbs.slips);
    return tidyPlan(direct);
  }
  const placeWords = listPlaceWords(ctx);
  const language = detectForeignLanguage(verbs.text, placeWords);
  if (language) {
    plan.language = language;
    plan.clarification = `I only understand English for now. ${HELP_TEXT} Could you ask me in English?`;
    return plan;
  }
  // the face recognition opt-in: said in so many words, never inferred
  const optIn = readFaceRecognitionSwitch(message);
  if (optIn !== undefined) {
    plan.calls.push({
      tool: 'set_household',
      args: { face_recognition: optIn },
      say: optIn
        ? "I've turned face recognition on: the cameras now compare faces with the people you enrolled, and tell strangers apart."
        : "I've turned face recognition off: no face is looked at or compared any more.",
    });
    return tidyPlan(plan);
  }
  // "cheers, you're a star", "happy thanksgiving!": chit-chat gets a friendly reply, nothing else
  // "wait, what did I just ask you to do?": answered from the conversation (recall-question.ts)
  const chat = answerRecallQuestion(message, ctx) ?? answerChitChat(message) ?? answerAcknowledgement(message, ctx);
  if (chat) return { planner: 'offline', calls: [], refusals: [], answers: [chat], confidence: 1 };
  // "Good evening. Tomorrow …", "… from 8:30 to 3 while we are all at work": words beside the request (side-clauses.ts)
  const side = dropSideClauses(message, listPlaceWords(ctx));
  if (side) return planOffline(side, ctx);
  const placeReason = askAboutPlaceInTrailingReason(message, ctx);
  if (placeReason) return placeReason;
  // "when it gets dark watch the porch": a time clause before a request times it (leading-clause.ts)
  const leading = readLeadingClause(message, ctx);
  if (leading && 'ask' in leading) return tidyPlan({ planner: 'offline', calls: [], refusals: [], clarification: leading.ask, confidence: 0.3 });
  if (leading) return planOffline(leading.rewrite, ctx);
  return undefined;
}

/** "mute the den cam we are watching the porch": a reason beside the request that names a place asks (side-clauses.ts). */
function askAboutPlaceInTrailingReason(message: string, ctx: HouseholdContext): Plan | undefined {
  const reason = findPlaceInTrailingReason(message, listPlaceWords(ctx));
  if (!reason) return undefined;
  const clarification = `You also said "${reason}", which names a place of your home: should I change that too, or only what you asked first? I haven't changed anything yet.`;
  return tidyPlan({ planner: 'offline', calls: [], refusals: [], clarification, confidence: 0.3 });
}

/** "yes", "yes please", "sunrise is fine", "that's fine": taking what a question offered. */
const TAKES_OFFER =
  /^(?:(?:yes|yeah|yep|yup|sure|ok|okay)(?:[\s,]+(?:please|thanks|thank you|that's fine|thats fine|sunrise is fine|sunrise))*|(?:sunrise|that|it)(?:'s| is) fine|thats fine|sunrise is good|sunrise please)[\s.!]*$/;
/** "6", "6am", "6:30 please": a clock said alone, the end the start-only question asked for. */
const BARE_END_CLOCK = /^(\d{1,2}(?:[:.]\d{2})?(?:\s*(?:am|pm|a\.m\.|p\.m\.))?)(?:[\s,]+(?:please|thanks|thank you|o'clock))?[\s.!]*$/;
/** "no", "nope": turning down what a question offered, and nothing else said. */
const DECLINES_OFFER = /^(?:no|nope|nah)(?:[\s,]+(?:thanks|thank you))?[\s.!]*$/;

/**
 * After "From 22:00 until when should I watch the lift lobby: until sunrise (05:47), or another time…?"
 * (askAboutStartOnly), "yes please" or "sunrise is fine" takes the sunrise offered, as "until sunrise" does; "no"
 * asks again; a clock said alone ("6", "6:30am") is the end, as "until 6" is. Only that question is answered so: the
 * last turn changed nothing and, planned again, asks it
 * (docs/decisions.md, "Round R: times").
 */
function answerSunriseOffer(message: string, ctx: HouseholdContext): Plan | undefined {
  const text = message
    .trim()
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'");
  const takes = TAKES_OFFER.test(text);
  const clock = BARE_END_CLOCK.exec(text)?.[1];
  if (!takes && !clock && !DECLINES_OFFER.test(text)) return undefined;
  const turns = ctx.conversation?.turns ?? [];
  const last = turns.at(-1);
  if (!last || last.actions.length) return undefined;
  const asked = planOffline(last.message, { ...ctx, conversation: { turns: turns.slice(0, -1) } });
  if (asked.calls.length || !/^From \S+ until when should I watch[^:]*: until sunrise \(/.test(asked.clarification ?? '')) return undefined;
  if (clock) return planOffline(`until ${clock}`, ctx);
  return takes ? planOffline('until sunrise', ctx) : asked;
}

/**
 * After an am/pm question ("From 7 until 9 in the morning, or from 7 until 9 in the evening?", "… (say am or pm)?"),
 * an answer that only picks a half of the day ("evening", "pm please", "the night one") puts the request's first clock
 * in that half and each later clock at its next hour after it; the request asked about is planned again so. Only
 * when the last turn changed nothing and asked, and its request said its clocks in digits with no am/pm; when the
 * request so said still does not act, the question is asked again, never guessed (docs/decisions.md, "Before round S:
 * follow-ups").
 */
function answerDayHalf(message: string, ctx: HouseholdContext): Plan | undefined {
  if (!readDayHalfAnswer(message, false) && !readDayHalfAnswer(message, true)) return askDayHalfAgain(message, ctx);
  const { last, earlier } = findDayHalfAsked(ctx);
  if (!last || last.actions.length) return undefined;
  const asked = planOffline(last.message, earlier);
  if (asked.calls.length || !asked.clarification) return undefined;
  const timed = readMessage(last.message, earlier).filter((r) => r.time.anchors.length);
  const r = timed.length === 1 ? timed[0] : undefined;
  if (!r || r.time.anchors.some((a) => a.kind !== 'clock' || a.meridiemCertain)) return undefined;
  const at = [...r.time.consumed].sort((a, b) => a - b).filter((k) => /^\d{1,2}(?::\d{2})?$/.test(r.tokens[k]?.text ?? ''));
  const hours = at.map((k) => Number(r.tokens[k].text.split(':')[0]));
  if (!at.length || at.length !== r.time.anchors.length || hours.some((h) => h < 1 || h > 12)) return undefined;
  const half = readDayHalfAnswer(message, hours.length > 1 && hours[1] % 12 < hours[0] % 12);
  if (!half) return asked;
  const clocks = placeHoursAfter(hours, half);
  const rewritten = r.tokens.map((t, k) => (at.includes(k) ? `${t.text}${clocks[at.indexOf(k)] < 12 ? 'am' : 'pm'}` : t.text)).join(' ');
  const plan = planOffline(rewritten, earlier);
  return plan.calls.length && !plan.clarification ? plan : asked;
}

/**
 * "watch the loft tomorrow from 2 to 5" (asked am or pm) — "nope, the wee small morning hours": a short answer naming a
 * half of the day that is not read as one asks the am/pm question again rather than being joined to the request some
 * other way (docs/decisions.md, "Before round T: follow-ups").
 */
function askDayHalfAgain(message: string, ctx: HouseholdContext): Plan | undefined {
  if (!namesADayHalf(message)) return undefined;
  const { last, earlier } = findDayHalfAsked(ctx);
  if (!last || last.actions.length) return undefined;
  const asked = planOffline(last.message, earlier);
  return !asked.calls.length && /\(say am or pm\)\?|^From .+, or from .+\?$/.test(asked.clarification ?? '') ? asked : undefined;
}

/**
 * The turn whose am/pm question is still open: the last one, or the one before answers that named a half of the day,
 * were not read and changed nothing ("from 2 to 5" — "the wee small hours" (asked again) — "morning"), with the
 * context it was read in.
 */
function findDayHalfAsked(ctx: HouseholdContext) {
  const turns = ctx.conversation?.turns ?? [];
  let t = turns.length - 1;
  while (t > 0 && t > turns.length - 4 && !turns[t].actions.length && namesADayHalf(turns[t].message)) t--;
  return { last: turns.at(t), earlier: { ...ctx, conversation: { turns: turns.slice(0, Math.max(t, 0)) } } };
}

/** Hours said 1–12 as 0–23: the first in the half said, each later one the next after the one before. */
function placeHoursAfter(hours: number[], half: 'am' | 'pm'): number[] {
  const placed = [(hours[0] % 12) + (half === 'pm' ? 12 : 0)];
  for (const h of hours.slice(1)) {
    const prev = placed.at(-1)!;
    placed.push(h % 12 > prev ? h % 12 : (h % 12) + 12 > prev ? (h % 12) + 12 : h % 12);
  }
  return placed;
}

/** "until what time?", "thanks. till when?", "ok, until when is that?": asking when the watch just made ends. */
const UNTIL_WHAT_TIME =
  /^(?:(?:thanks|thank you|cheers|ta|ok(?:ay)?|great|perfect|lovely|nice|cool|and|so)[,.!]*\s+)*(?:until|till|til|up to) (?:what time|when)(?: (?:is (?:that|it)|does (?:that|it) (?:run|go|last)))?\s*\?*[\s.!]*$/i;

/**
 * "watch the terrace tonight" — "thanks. until what time?": right after a watch was made or changed, the question is
 * when that watch ends, answered as "when does it end?" is; after any other turn it is left to the general reader
 * (docs/decisions.md, "Before round S: follow-ups").
 */
function answerUntilWhen(message: string, ctx: HouseholdContext): Plan | undefined {
  if (!UNTIL_WHAT_TIME.test(message.trim())) return undefined;
  const last = ctx.conversation?.turns.at(-1);
  if (!last?.actions.some((a) => a.type === 'watch.created' || a.type === 'watch.updated')) return undefined;
  const plan = planOffline('when does it end?', ctx);
  return plan.answers?.length && !plan.calls.length && !plan.clarification ? plan : undefined;
}

/**
 * Where a compound may join two requests: "…, and then …", "… and …", "… then …" ("going to bed, arm everything" is one
 * request); "… but …" only before a watch ("disarm the house but keep watching the carport tonight": both done, in
 * order — docs/decisions.md, "Round T: arming").
 */
const JOINS = /[,;]?\s+(?:and then|and|then|but(?: also)?)\s+/g;

/**
 * "stop the garage watch and arm the house", "disarm and watch the garden from 3 to 6": arming is one
 * of the agent's requests (tools/arm-house.ts), read inside a compound like any other. Both parts must
 * read cleanly on their own, each as a change; otherwise the whole message is read as before and asked
 * about (docs/decisions.md, "Round Q: verbs").
 */
function planArmInCompound(message: string, ctx: HouseholdContext): Plan | undefined {
  if (!/\b(?:dis)?arm\b/i.test(message)) return undefined;
  for (const join of message.matchAll(JOINS)) {
    const left = message.slice(0, join.index).trim();
    const right = message.slice(join.index + join[0].length).trim();
    const sides = [left, right].map((text) => readArmRequest(text, ctx));
    const at = sides.findIndex((p) => p?.calls.length === 1 && !p.clarification && !p.answers?.length && !p.refusals.length);
    if (at < 0 || sides[1 - at]?.calls.length) continue;
    const other = planOffline(at === 0 ? right : left, ctx);
    const arming = sides[at]!.calls[0].args.arm ? 'arm' : 'disarm';
    // ("disarm and watch the garden from 3 to 6": the other part's question is asked, the arming waits for it)
    if (!other.calls.length && other.clarification)
      return { ...other, clarification: `I can ${arming} the house, but the rest needs an answer first, so I haven't done either yet. ${other.clarification}` };
    if (!other.calls.length || other.clarification || other.refusals.length || other.answers?.length) return undefined;
    if (/\bbut\b/.test(join[0]) && !other.calls.every((c) => c.tool === 'create_watch')) return undefined;
    const calls = at === 0 ? [...sides[0]!.calls, ...other.calls] : [...other.calls, ...sides[1]!.calls];
    return { ...other, calls, confidence: other.confidence ?? 1 };
  }
  return undefined;
}

export function planOffline(message: string, ctx: HouseholdContext): Plan {
  const plan: Plan = { planner: 'offline', calls: [], refusals: [] };
  const early = planBeforeReading(message, ctx, plan);
  if (early) return early;
  const readings = readMessage(message, ctx);
  const state = startPlanState(ctx, readings);

  const clarifications: string[] = [];
  // "no wait, make it 10pm" corrects and goes on; "watch the…, actually wait, not sure" holds back
  const lastHesitation = readings.map((r) => r.hesitation).lastIndexOf(true);
  if (lastHesitation >= 0 && !readings.slice(lastHesitation + 1).some((r) => r.intent && r.intent !== 'help' && !r.hesitation)) {
    plan.clarification = `No problem, take your time. ${describeHome(ctx)} What would you like me to do?`;
    return plan;
  }
  // "the back one": the answer to the question the agent just asked
  if (readings.every((r) => !r.clause.intent && !r.outOfScope)) {
    const answered = answerClarification(message, ctx);
    if (answered) return answered;
  }
  const actionable = readings.filter((r) => r.intent && r.intent !== 'help');
  if (actionable.length === 0 && !readings.some((r) => r.outOfScope)) {
    plan.clarification =
      readings.some((r) => r.intent === 'help') || readings.every((r) => !r.mentions.length)
        ? `${HELP_TEXT} What would you like me to do?`
        : `I'm not sure what you'd like me to do there. ${HELP_TEXT}`;
    return plan;
  }
  // "kill all the watches but leave the pool one running": what the message keeps is out of its "all"
  markKept(readings);
  const keptIds = readings.filter((r) => r.intent === 'keep').flatMap((r) => r.mentions.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
  if (keptIds.length) for (const r of readings) if (r.intent === 'stand_down' && r.wantsAll) r.exceptSensorIds = [...r.exceptSensorIds, ...keptIds];
  // coverage before action: a request that changes the household acts only on a reading that
  // used every word that could change it (see docs/decisions.md, "Coverage before action")
  const uncovered =
    findUncoveredRequest(readings) ??
    findUnresolvedException(readings) ??
    askStopWhichSensor(readings, ctx) ??
    findConflict(readPartEffects(readings, state)) ??
    findPartialStandDown(readings, state);
  if (uncovered) return tidyPlan({ planner: 'offline', calls: [], refusals: [], clarification: uncovered, confidence: 0.3 });
  const declined = declineBesideOutOfScope(readings);
  if (declined) return tidyPlan(declined);
  for (const r of readings) {
    if (r.outOfScope) {
      plan.refusals.push(r.outOfScope);
      continue;
    }
    if (r.unresolved) {
      clarifications.push(r.unresolved);
      continue;
    }
    if (!r.intent || r.intent === 'help') continue;
    // "we're home now. stop the granny flat watch": the homecoming is the reason for the stand-down
    // that names its watch, not a second stand-down of whatever ran last
    if (
      r.intent === 'stand_down' &&
      !r.hasReference &&
      r.mentions.every((m) => m.place.type === 'group' && m.place.wholeHome && /^(?:at )?home$/.test(m.text)) &&
      readings.some((x) => x !== r && x.intent === 'stand_down' && x.mentions.some((m) => m.place.type === 'room' || m.place.type === 'sensor'))
    )
      continue;
    // "is the baby ok? check the nursery camera": a question about nothing we know, next to a complete request
    if (r.intent === 'describe' && !r.mentions.length && !r.hasReference && actionable.some((x) => x !== r && x.mentions.length)) continue;
    const outcome = planReading(r, state, plan);
    if (outcome) clarifications.push(outcome);
    for (const m of r.excluded) if (m.place.type === 'room' || m.place.type === 'sensor') addNote(plan, `I left the ${subjectOf(m.place)} out, as you asked.`);
  }
  if (clarifications.length) {
    return tidyPlan({ planner: 'offline', calls: [], refusals: [], clarification: clarifications.join(' '), confidence: 0.4 });
  }
  plan.calls = dropChangesOfStoodDown(dedupeCalls(plan.calls));
  // the plan must account for every time, day and date the message says, or it asks
  const mismatch = checkPlanAgainstMessage(message, plan, ctx);
  if (mismatch) return tidyPlan({ planner: 'offline', calls: [], refusals: [], clarification: mismatch, confidence: 0.4 });
  // read by meaning rather than by the home's own names: as sure as the lexicon was
  const meaning = readings.flatMap((r) => r.mentions.map((m) => ('byMeaning' in m.place ? m.place.byMeaning : undefined) ?? 1));
  plan.confidence = Math.min(1, ...meaning);
  sayCorrections(message, ctx, plan, readSlips(readings));
  return tidyPlan(plan);
}

/** The household as the plan starts from it, with the sensors the message names. */
function startPlanState(ctx: HouseholdContext, readings: Reading[]): PlanState {
  const state: PlanState = {
    ctx: { ...ctx },
    muted: new Set(ctx.sensors.filter((s) => s.muted).map((s) => s.id)),
    boundaries: [...ctx.boundaries],
    watches: [...ctx.watches],
    lastSubject: findLastSubject(ctx),
    lastWatchId: findLastWatchId(ctx),
    mentionedSensorIds: new Set(),
  };
  for (const r of readings)
    for (const m of r.mentions) for (const s of getPlaceSensors(m.place)) if (m.place.type !== 'group') state.mentionedSensorIds.add(s.id);
  return state;
}

/**
 * "…the kids have got a sleepover in there. stop that and leave the rumpus room alone": a change of a watch the same
 * plan then stands down changes nothing that stays, so it is not made (docs/decisions.md, "Before round S: follow-ups").
 */
function dropChangesOfStoodDown(calls: Plan['calls']): Plan['calls'] {
  return calls.filter(
    (c, k) => c.tool !== 'update_watch' || !calls.slice(k + 1).some((d) => d.tool === 'stand_down_watch' && d.args.watch_id === c.args.watch_id),
  );
}

/** Words a place was read through as slips of this home's names ("dor" as "door"): said like typos. */
function readSlips(readings: Reading[]): { from: string; to: string }[] {
  return readings.flatMap((r) => r.mentions.flatMap((m) => ('slips' in m.place ? (m.place.slips ?? []) : [])));
}

/**
 * A plan read through corrected typos says what it read them as ("I read "drievway" as
 * "driveway"."), so a wrong correction shows (see docs/decisions.md, "Round G: words").
 */
function sayCorrections(message: string, ctx: HouseholdContext, plan: Plan, slips: { from: string; to: string }[] = []): void {
  if (!plan.calls.length && !plan.answers?.length) return;
  const corrections = [...(normalizeMessage(message, listPlaceWords(ctx)).corrections ?? []), ...slips];
  if (!corrections.length) return;
  const seen = new Set<string>();
  const said = corrections.filter((c) => !seen.has(c.from) && seen.add(c.from)).map((c) => `"${c.from}" as "${c.to}"`);
  addNote(plan, `(I read ${said.length > 1 ? `${said.slice(0, -1).join(', ')} and ${said.at(-1)}` : said[0]}.)`);
}

/**
 * Thanks, greetings, compliments and wishes: the whole message is one of these, or several. A bare
 * "ok", "great" or "morning" is not here: it may answer the question just asked.
 */
const CHITCHAT =
  /^(?:(?:thanks(?: a lot| so much| very much)?|thank you(?: so much| very much)?|thx|ty|cheers|ta|nice one|you'?re a (?:star|legend|gem)|you are a (?:star|legend|gem)|you rock|legend|good (?:morning|night|evening|afternoon)|night night|hi|hello|hey|hiya|yo|happy (?:thanksgiving|christmas|new year|holidays|easter|hanukkah|diwali|eid|halloween|birthday|friday)|merry christmas|have a (?:good|nice|great) (?:one|day|night|evening|weekend)|good (?:job|work|bot)|well done|much appreciated|appreciate it|love you|you(?:'?re| are) (?:great|amazing|brilliant|the best))(?:\s*(?:to you|too|mate|buddy|pal|lol|haha|x+|!+|\.+|,|[\p{Extended_Pictographic}\u200d\ufe0f]+))*[\s,!.]*)+$/iu;

/** The reply to a message that is only chit-chat ("cheers, you're a star", "happy thanksgiving!!"), or undefined. */
function answerChitChat(message: string): string | undefined {
  const text = message.trim().toLowerCase().replace(/[’]/g, "'");
  if (!text || !CHITCHAT.test(text)) return undefined;
  const wish = /happy (\w+(?: year)?)|merry (christmas)/.exec(text);
  if (wish)
    return `${wish[1] ? `Happy ${wish[1].replace(/^./, (c) => c.toUpperCase())}` : 'Merry Christmas'} to you too! I'm here if you'd like anything watched.`;
  if (/thank|thx|\bty\b|cheers|\bta\b|appreciat|star|legend|gem|rock|nice one|well done|good (job|work|bot)|great|brilliant|amazing|best/.test(text))
    return "You're welcome! Just ask if you'd like anything else watched.";
  return "Hello! What would you like me to do? I can watch rooms and sensors, mute them, or tell you what's happening.";
}

/** "perfect", "lovely", "sounds good", "got it": the user takes in what was done or said. */
const ACKNOWLEDGEMENT =
  /^(?:(?:oh|ah|aw|ooh)?[\s,]*(?:perfect|great|lovely|brilliant|awesome|excellent|nice|super|cool|fab|fabulous|fantastic|wonderful|sweet|sound|spot on|ace|grand|ok|okay|okey|alright|all right|got it|gotcha|noted|good stuff|job done|that(?:'?s| is) (?:great|perfect|lovely|brilliant|fine|good|grand|everything)|sounds (?:good|great|perfect|lovely))\b[\s,!.]*)+/iu;

/**
 * An acknowledgement ("perfect, cheers", "lovely thanks", "great!"): with thanks it is chit-chat
 * wherever it is said; alone only after a turn that changed something — after a question, "great"
 * may be its answer (see docs/decisions.md, "Round G: words"). Nothing changes, nothing is asked.
 */
function answerAcknowledgement(message: string, ctx: HouseholdContext): string | undefined {
  const text = message.trim().replace(/[’]/g, "'");
  const ack = ACKNOWLEDGEMENT.exec(text);
  if (!ack) return undefined;
  const rest = text.slice(ack[0].length).replace(/^[\p{Extended_Pictographic}\u200d\ufe0f\s!.]+$/u, '');
  if (rest) return answerChitChat(rest);
  return ctx.conversation?.turns.at(-1)?.actions.length ? 'Glad that helps. Just ask if you need anything else watched.' : undefined;
}

const STATE_INTENTS = new Set<IntentKind>([
  'create_watch',
  'update_watch',
  'stand_down',
  'mute',
  'unmute',
  'set_boundary',
  'clear_boundary',
  'add_sensor',
  'set_location',
  'rename_room',
  'exclude',
]);

const INTENT_WORDS: Partial<Record<IntentKind, string>> = {
  create_watch: 'watch',
  update_watch: 'change the watch on',
  stand_down: 'stand down the watch on',
  mute: 'mute',
  unmute: 'unmute',
  set_boundary: 'leave alone',
  clear_boundary: 'watch again',
  exclude: 'leave out',
};

const ROLE_QUESTIONS: Record<WordRole, string> = {
  time: 'what time or how long did you mean?',
  number: 'what time or how long did you mean?',
  negation: 'did you want that done, or not?',
  question: 'what did you want to know?',
  place: 'which of your rooms or sensors did you mean?',
  unknown: 'could you say it another way?',
  action: 'could you say it another way?',
  thing: 'which of your rooms or sensors did you mean, or what should I look out for?',
};

/**
 * The planner's own words for coverage of content words (vocabulary.ts, isPlannerWord and NOTICE_WORDS), as said or as lemmas.
 * A verb it cannot do is not its word even when the noun is ("the camera feed" against "…and also feed the cat").
 */
const PLANNER_VOCABULARY: ContentVocabulary = {
  known: (t) => (isPlannerWord(t.text) || isPlannerWord(t.root)) && !(t.isVerb && OUT_OF_SCOPE_VERBS.has(t.text)),
  notice: (t) => NOTICE_WORDS.has(t.text),
};

/**
 * The question to ask when a request that changes the household left words over that could
 * change it ("half ten", "except", "the shed", "the motor"), or the decline of a joined action it
 * cannot do ("…and text my brother"); undefined when the reading used them all. A clause without a
 * request of its own ("we're away from the 3rd") counts too: its words set the request's time.
 */
function findUncoveredRequest(readings: Reading[]): string | undefined {
  if (!readings.some((r) => r.intent && STATE_INTENTS.has(r.intent))) return undefined;
  // ("…, the nursery keeps creaking", "…, we've got guests 37": what a reason beside the request left open;
  // "the porch or the garage": a choice of places, asked)
  const reason = readings.find((r) => r.reasonQuestion)?.reasonQuestion ?? askPlaceChoice(readings, (intent) => STATE_INTENTS.has(intent as IntentKind));
  if (reason) return reason;
  for (const r of readings) {
    // ("kill all the watches but leave the pool one running till the milkman comes": what is kept shapes the stand-down)
    const request = Boolean(r.intent && (STATE_INTENTS.has(r.intent) || r.intent === 'keep'));
    const checked = request || (!r.intent && !r.outOfScope && !r.question);
    const asked = askQuestionLeftovers(r, readings);
    if (asked) return asked;
    if (!checked) continue;
    // content words count in a request's own clause (not in a statement beside it: "we fly out on the 9th and land back…")
    const vocabulary = request && !r.outOfScope ? PLANNER_VOCABULARY : undefined;
    // "mute the office cam while I'm working": only a watch has a window for "while" to set
    const left = r.spans
      .flatMap(([from, to]) => findUncovered(r.tokens, from, to, r.used, vocabulary))
      // ("mute it for a bit" mutes until unmuted; "watch it for a bit" has no end to take)
      .filter((u) => (u.text !== 'while' && u.text !== 'bit') || readings.some((x) => x.intent === 'create_watch' || x.intent === 'update_watch'));
    if (request && !r.outOfScope) left.push(...findCueGapLeftOver(r, left));
    if (!left.length) continue;
    const action = left.find((u) => u.role === 'action');
    return action ? declineJoinedAction(r, readings, action) : askAboutLeftOver(r, readings, left);
  }
  return undefined;
}

/** The question for what a question beside a request left open (findQuestionLeftovers), or undefined when it left nothing. */
function askQuestionLeftovers(r: Reading, readings: Reading[]): string | undefined {
  const asked = findQuestionLeftovers(r);
  const [verb, place] = [asked.find((u) => u.role === 'action'), asked.find((u) => u.role === 'place')];
  if (verb) return declineJoinedAction(r, readings, verb);
  const request = readings.find((x) => x.intent && STATE_INTENTS.has(x.intent));
  if (place && request) return askPlaceReason(request, { text: place.text } as Mention);
  return asked.length ? askAboutLeftOver(r, readings, asked) : undefined;
}

/**
 * "turn the pool pump off": a noun or verb inside the cue's gap that no reader took ("pump", which the
 * tagger reads as a verb) is a thing the request may be about, so it is left over (isCueGapFiller;
 * docs/decisions.md, "Round P: household").
 */
function findCueGapLeftOver(r: Reading, left: Uncovered[]): Uncovered[] {
  const cue = r.clause.cue;
  if (!cue) return [];
  const out: Uncovered[] = [];
  for (let k = cue.start; k < cue.end; k++) {
    const t = r.tokens[k];
    if (r.used.has(k) || cue.matched.includes(k) || left.some((u) => u.index === k) || !(t.isNoun || t.isVerb)) continue;
    if (/^[a-z]+$/.test(t.text) && !PLANNER_VOCABULARY.known(t) && !AUXILIARIES.has(t.text)) out.push({ index: k, text: t.text, role: 'thing' });
  }
  return out;
}

/** Words that name a watch, not a sensor ("stop the camera one", "stop watching the shed"). */
const WATCH_NOUNS = new Set(['watch', 'watches', 'watching', 'one', 'ones', 'monitoring', 'guarding']);
const SENSOR_NOUN = /\b(?:camera|cameras|cam|cams|sensor|sensors|contact|detector)$/;

/**
 * "stop the bike storage camera": "stop" with a sensor, not a watch, may mean mute it or stand
 * down its watch; when that sensor has a watch, the agent asks which (docs/decisions.md, "Round M household: coverage").
 */
function askStopWhichSensor(readings: Reading[], ctx: HouseholdContext): string | undefined {
  for (const r of readings) {
    if (r.intent !== 'stand_down' || r.question || r.negated || !r.mentions.length) continue;
    const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
    if (!words.includes('stop') || words.some((w) => WATCH_NOUNS.has(w))) continue;
    const sensors = r.mentions.filter((m) => m.place.type === 'sensor' && SENSOR_NOUN.test(m.text));
    if (sensors.length !== r.mentions.length) continue;
    const ids = sensors.flatMap((m) => getPlaceSensors(m.place).map((x) => x.id));
    if (!ctx.watches.some((w) => w.sensor_ids.some((id) => ids.includes(id)))) continue;
    const named = sensors.map((m) => `the ${subjectOf(m.place)}`).join(' and ');
    return `Did you want me to mute ${named} (no more notifications from it), or stand down the watch on it? I haven't changed anything yet.`;
  }
  return undefined;
}

/** Words that open an exception to a request ("all of them apart from …", "everything except …"). */
const EXCEPTION_WORDS = new Set(['except', 'excepting', 'excluding', 'besides', 'apart', 'aside', 'minus', 'bar', 'barring']);

/**
 * "stand down all of them apart from the one I set up last week": an exception that names no room,
 * sensor or watch the reading resolved would be dropped, and the request would take in what it
 * excepts, so the agent asks which it means (docs/decisions.md, "Round J household: coverage of verbs and objects").
 */
function findUnresolvedException(readings: Reading[]): string | undefined {
  for (const r of readings) {
    if (!r.intent || !STATE_INTENTS.has(r.intent) || r.question) continue;
    const at = r.spans.flatMap(([from, to]) => Array.from({ length: to - from }, (_, j) => ({ k: from + j }))).find(({ k }) => isExceptionAt(r.tokens, k));
    if (!at) continue;
    const unread = r.excluded.find((m) => m.place.type === 'unknown');
    if (unread) return askUnknownException(unread);
    // (the places it leaves out are the reading's exceptions: readExceptSensorIds, isExcludedMention)
    if (r.exceptSensorIds.length || r.excluded.length) continue;
    const said = r.tokens
      .slice(at.k, Math.min(r.clause.to, at.k + 9))
      .map((t) => t.text)
      .join(' ');
    const doable = describeDoable(readings);
    return `${doable ? `I understood that you want me to ${doable}, but ` : ''}I couldn't tell what "${said}" leaves out, so I haven't changed anything. Which room, sensor or watch should I leave out?`;
  }
  return undefined;
}

/**
 * "watch everything except the glorpy rumpus room": a place left out that no reader resolved would leave out nothing,
 * so the request would take it in; the agent asks (docs/decisions.md, "Before round S: probe leaks").
 */
function askUnknownException(unread: Mention): string {
  const said = unread.place.type === 'unknown' ? unread.place.label : unread.text;
  return `There's no ${said} in your home to leave out, so I haven't changed anything. Which room, sensor or watch should I leave out?`;
}

/** tokens[k] opens an exception: "except", "apart from", "other than", "but not" ("bar" only before "the"). */
function isExceptionAt(tokens: Token[], k: number): boolean {
  const w = tokens[k].text;
  const next = tokens[k + 1]?.text ?? '';
  if (w === 'bar' || w === 'barring') return next === 'the';
  if (w === 'apart' || w === 'aside') return next === 'from';
  if (w === 'other') return next === 'than';
  return EXCEPTION_WORDS.has(w);
}

/** What the message asks that the agent can do, as "watch the driveway", or undefined. */
function describeDoable(readings: Reading[]): string | undefined {
  const action = readings.find((x) => x.intent && INTENT_WORDS[x.intent]);
  const places = (action?.mentions ?? []).map((m) => subjectOf(m.place));
  const verb = action?.intent ? INTENT_WORDS[action.intent] : undefined;
  if (!verb) return undefined;
  // "make that 3": the watch the message refers to has no place of its own in the message
  if (!places.length) return verb.endsWith(' the watch on') ? `${verb.slice(0, -' the watch on'.length)} that watch` : verb;
  return `${verb} the ${places.join(' and the ')}`;
}

/**
 * "order a pizza and mute the garage camera", "book a locksmith for tomorrow and watch the driveway
 * tonight": a part Vigil cannot do, beside one it can, changes nothing, whichever comes first. The
 * part it can do may depend on the other, and a word of the other ("tomorrow") may have been read
 * into it (docs/decisions.md, "Round J household: coverage of verbs and objects").
 */
function declineBesideOutOfScope(readings: Reading[]): Plan | undefined {
  const outside = readings.flatMap((r) => (r.outOfScope && r.outOfScopeRequest ? [r.outOfScope] : []));
  const inside = readings.filter((r) => !r.outOfScope);
  if (!outside.length || !inside.some((r) => r.intent && (STATE_INTENTS.has(r.intent) || r.intent === 'keep'))) return undefined;
  const doable = describeDoable(inside);
  // "watch the verandah and ring my son if anything happens": the part hangs on what the watch sees, so
  // whether to watch without it is asked, as for a joined action (docs/decisions.md, "Round Q: verbs")
  if (isOutOfScopeOnCondition(readings)) {
    const ask = `So I haven't changed anything — do you still want me to ${doable ?? 'do the rest'}, without that part?`;
    return { planner: 'offline', calls: [], refusals: [], clarification: `${outside.join(' ')} ${ask}`, confidence: 0.3 };
  }
  const device = askJustTheDoablePart(readings, doable);
  if (device) return { planner: 'offline', calls: [], refusals: [], clarification: device, confidence: 0.3 };
  const unchanged = `So I haven't changed anything — ask me again without that part if you still want me to ${doable ?? 'do the rest'}.`;
  return { planner: 'offline', calls: [], refusals: [`${outside.join(' ')} ${unchanged}`], confidence: 0.3 };
}

/**
 * "mute the till camera and lock the shutter at 6", "unmute the kitchen cam and turn the heating down a notch": a
 * request Vigil can do joined to device control it cannot is asked about, changing nothing, so the user can say
 * whether the first part alone is still wanted (docs/decisions.md, "Round S: places").
 */
function askJustTheDoablePart(readings: Reading[], doable: string | undefined): string | undefined {
  const device = readings.find((r) => r.outOfScope && r.outOfScopeRequest && opensDeviceControl(r.tokens, r.clause.from, r.clause.to));
  if (!device || !doable) return undefined;
  const said = device.tokens
    .slice(device.clause.from, device.clause.to)
    .map((t) => t.text)
    .join(' ');
  return `I can't do that ("${said}"): I watch your home's cameras and sensors, but I can't control locks, lights, heating or other devices. I can ${doable}, but I haven't changed anything — shall I just ${doable}?`;
}

const ON_CONDITION_WORDS = new Set(['if', 'when', 'whenever', 'should', 'once']);

/** The part the agent cannot do is said on a condition ("…if anything happens", "…when someone comes"). */
function isOutOfScopeOnCondition(readings: Reading[]): boolean {
  return readings.some((r) => r.outOfScope && r.outOfScopeRequest && r.tokens.some((t) => ON_CONDITION_WORDS.has(t.text)));
}

function askAboutLeftOver(r: Reading, readings: Reading[], left: Uncovered[]): string {
  const said = quoteUncovered(r.tokens, left)
    .map((w) => `"${w}"`)
    .join(' and ');
  const doable = describeDoable(readings);
  const understood = doable ? `I understood that you want me to ${doable}, but ` : '';
  return `${understood}I didn't understand ${said}, so I haven't changed anything — ${ROLE_QUESTIONS[left[0].role]}`;
}

/** Words that end what a joined action says ("text my brother | if anyone shows up", "book a locksmith | for tomorrow"). */
const ACTION_ENDS = new Set([
  'if',
  'when',
  'whenever',
  'while',
  'until',
  'till',
  'for',
  'because',
  'so',
  'as',
  'before',
  'after',
  'once',
  'unless',
  'and',
  'but',
]);

/**
 * "watch the driveway tonight and text my brother if anyone shows up": the joined action is nothing
 * the agent can do, and the request it is joined to may depend on it, so nothing is done and the
 * reply says what it can do and what it cannot (docs/decisions.md, "Round J household: coverage of verbs and objects").
 */
function declineJoinedAction(r: Reading, readings: Reading[], action: Uncovered): string {
  let end = action.index + 1;
  // (the words the request read into it count: "feed the cat at 7" set the watch's kind and time)
  while (end < r.tokens.length && end - action.index < 6 && !ACTION_ENDS.has(r.tokens[end].text) && !r.tokens[end - 1].breakAfter) end++;
  const said = r.tokens
    .slice(action.index, end)
    .map((t) => t.text)
    .join(' ');
  // ("heat the sauna for 7pm": the verb it cannot do is the request's own, so nothing of it is doable)
  const doable = [...r.used].some((u) => u < action.index) ? describeDoable(readings) : undefined;
  return (
    `${doable ? `I can ${doable}, but ` : ''}I can't "${said}" for you: I only watch your home's cameras and sensors and notify you here in the app. ` +
    `So I haven't changed anything — do you still want me to ${doable ?? 'do the rest'}, without that part?`
  );
}

/** `wide` holds every sensor of `part` and more: "the whole yard" of "just the side gate" (docs/decisions.md, "Round Q: places"). */
function isWiderPlace(wide: Place, part: Place): boolean {
  const ids = new Set(getPlaceSensors(wide).map((s) => s.id));
  const own = getPlaceSensors(part);
  return own.length > 0 && ids.size > own.length && own.every((s) => ids.has(s.id));
}

/** What each part of the message does to what the agent may see, for the conflict check (plan-conflicts.ts). */
function readPartEffects(readings: Reading[], state: PlanState): PartEffect[] {
  const parts: PartEffect[] = [];
  const last = state.lastSubject;
  let before: Place[] = !last
    ? []
    : last.kind === 'room'
      ? [{ type: 'room', room: last.room, sensors: state.ctx.sensors.filter((s) => s.room === last.room) }]
      : [{ type: 'sensor', sensor: last.sensor }];
  readings.forEach((r, index) => {
    const places = r.mentions.length ? r.mentions.map((m) => m.place) : r.hasReference ? before : [];
    if (r.mentions.length) before = places;
    if (!r.intent || r.question || r.outOfScope || !places.length) return;
    const seeing = ['create_watch', 'update_watch', 'unmute', 'clear_boundary'].includes(r.intent);
    // "…but don't watch the hallway", "…but stop watching it": the watch said not to happen (a time of its own moves it instead)
    const takenBack = r.intent === 'stand_down' && (r.negated || r.clause.contrast) && !r.time.hasTime;
    const blinding = r.intent === 'mute' || r.intent === 'set_boundary' || takenBack;
    if (!seeing && !blinding) return;
    // ("watch everything and mute the study cam": a group watched is what may be watched)
    const kept = seeing ? places.filter((p) => p.type === 'room' || p.type === 'sensor') : places;
    const sensorIds = kept.flatMap((p) => getPlaceSensors(p).map((s) => s.id));
    if (!sensorIds.length || (r.intent === 'update_watch' && !r.mentions.length)) return;
    // "watch the garage and the hallway but not the hallway": a named place left out again
    // ("watch just the side gate, not the whole yard": a wider place left out does not take back the part named in it)
    const narrow = r.excluded.filter((m) => !kept.some((p) => isWiderPlace(m.place, p)));
    const out = new Set(narrow.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
    const gone = seeing ? kept.filter((p) => getPlaceSensors(p).every((s) => out.has(s.id))) : [];
    if (gone.length) {
      const ids = gone.flatMap((p) => getPlaceSensors(p).map((s) => s.id));
      parts.push({ polarity: 'blind', sensorIds: ids, said: `leave ${gone.map((p) => `the ${subjectOf(p)}`).join(' and ')} out`, index: index + 0.5 });
    }
    const names = places.map((p) => `the ${subjectOf(p)}`).join(' and ');
    const said: Partial<Record<IntentKind, string>> = {
      create_watch: `watch ${names}`,
      update_watch: `watch ${names}`,
      unmute: `unmute ${names}`,
      clear_boundary: `look at ${names} again`,
      mute: `mute ${names}`,
      set_boundary: `leave ${names} alone`,
      stand_down: `not watch ${names}`,
    };
    parts.push({ polarity: seeing ? 'see' : 'blind', sensorIds, said: said[r.intent] ?? names, index });
  });
  return parts;
}

/**
 * A stand-down of only part of a watch: "cancel the garden watch but keep it for the rest of the
 * week", "stop watching the garden just for tonight" on a watch that runs every night. The tools stand
 * a watch down whole or change its hours; they cannot skip one night, so the agent asks rather than
 * stand down all of it (see docs/decisions.md, "Round G: intent").
 */
function findPartialStandDown(readings: Reading[], state: PlanState): string | undefined {
  for (const r of readings) {
    if (r.intent !== 'stand_down' || r.question || r.wantsAll || r.negated) continue;
    const { watches } = findTargetWatches(r, state, true);
    if (!watches.length) continue;
    const ids = new Set(watches.flatMap((w) => w.sensor_ids));
    const named = r.mentions.length ? r.mentions.map((m) => m.place) : [];
    // "…, keep it for the rest of the week": kept in the same message
    const kept = readings.some(
      (x) =>
        x !== r &&
        x.intent === 'keep' &&
        !x.question &&
        (x.mentions.length ? x.mentions.map((m) => m.place) : x.hasReference ? named : []).some((p) => getPlaceSensors(p).some((s) => ids.has(s.id))),
    );
    // "…just for tonight": a stand-down with a time of its own that ends before the watch does
    // ("stop watching the porch at 10pm" is a new end, read as a change of the watch)
    let limited = false;
    // ("scrap the nightly shed thing", "the every-night stoop watch": a recurrence names the watch, it limits nothing)
    if (!kept && r.time.hasTime && !r.time.recurrence && r.time.anchors.length !== 1 && !needsLocation(r.time)) {
      const window = resolveWatchWindow(r.time, state.ctx);
      limited =
        !window.defaulted &&
        watches.some((w) => w.recurrence !== 'none' || (Date.parse(w.ends_at) > window.endsAt + 3_600_000 && !isTonightsWatch(r.time, w, window)));
      // "stop watching the bike store on the 14th", "…tomorrow": a day of its own narrows the
      // stand-down to that day or puts it off till then, unless the watch lies wholly in that day
      if (window.defaulted && !r.time.anchors.length && (r.time.date !== undefined || r.time.dayOffset > 0))
        limited = watches.some((w) => w.recurrence !== 'none' || Date.parse(w.starts_at) < window.startsAt || Date.parse(w.ends_at) > window.endsAt);
    }
    if (!kept && !limited && !isDayLeftOut(r, watches)) continue;
    const which = watches.map((w) => `the ${w.subject} watch (${w.window})`).join(' and ');
    return (
      `I can't stand down only part of ${which}: I can stand it down altogether, or change its hours or days, ` +
      "but not skip part of it, so I haven't changed anything. Which would you like?"
    );
  }
  return undefined;
}

/**
 * "no need to watch the side gate tonight" of a one-off watch from 22:00 to 06:00: "tonight" names the night that watch
 * is, though the night's window ends at sunrise, before the watch does; so it is all of the watch, stood down, not a part
 * (docs/decisions.md, "Before round S: words"). A watch running on past the next morning stays a part.
 */
function isTonightsWatch(time: TimeSpec, w: { recurrence: string; starts_at: string; ends_at: string }, window: { endsAt: number }): boolean {
  if (!time.night || time.recurrence || time.anchors.length || time.dayOffset || time.date || (time.nights ?? 1) > 1 || w.recurrence !== 'none') return false;
  return Date.parse(w.starts_at) < window.endsAt && Date.parse(w.ends_at) <= window.endsAt + 6 * 3_600_000;
}

/**
 * "but leave out mondays", "drop fridays" on a watch that repeats: one day of the week taken out of a
 * recurring window, which the tools cannot express (docs/decisions.md, "Round N: times, follow-ups, arming").
 * A day said as the plural, or after "on"/"for", limits the stand-down; "cancel the monday watch" names it.
 */
function isDayLeftOut(r: Reading, watches: readonly { recurrence: string }[]): boolean {
  if (!watches.some((w) => w.recurrence !== 'none')) return false;
  // (the whole message: "not tuesdays though, cancel those" says the day in a clause of its own)
  const words = r.tokens.map((t) => t.text);
  return words.some((w, k) => parseWeekday(w) !== undefined && w.length > 3 && (/s$/.test(w) || ['on', 'for', 'out'].includes(words[k - 1] ?? '')));
}

const UNDO =
  /^(?:(?:ok(?:ay)?|actually|oops|sorry|no|please|wait|hm+|um+|uh|erm?|oh|ah)[,!.]?\s+)*(?:undo(?: that| it| this| the last(?: thing| change| one)?)?|reverse (?:that|it|the last(?: thing| change)?)|revert (?:that|it)|put (?:it|that|them|everything) back(?: (?:how|the way|as) it was)?|change (?:it|that) back|take that back|go back to how it was)(?:\s+please)?[.!]*$/i;

/** A reply that only leaves things as they are: acknowledgement plus "leave it", "forget it", "don't bother". */
const LEAVE_IT =
  /^(?:(?:ok(?:ay)?|oh|ah|right|alright|all right|fine|sure|cool|no|nah|nope|no worries|never mind|nevermind|that's fine|thats fine|in that case)[\s,.!]*)*(?:(?:just|then)\s+)?(?:leave (?:it|that|them|things)(?: (?:as it is|as they are|alone|be))?|forget (?:it|that)|don'?t bother|no need|never mind|nevermind|not to worry|no change)(?:[\s,]+(?:then|for now|thanks|thank you|cheers|please))*[\s.!]*$/i;

/** Markup and phrasing of a message that pretends to be the system or overrides the rules: all of it is content. */
const PRETEND_SYSTEM =
  /<\|\s*[a-z_]+\s*\|>|\[\/?\s*(INST|SYS)\s*\]|<<\s*\/?\s*SYS\s*>>|(^|\n)\s*#+\s*(system|admin|override|instructions?)\b|\b(as|i am|i'm) (the|an|your) (system )?(administrator|admin|developer|operator)\b|\b(the )?user (is|has been) (now )?(an? |the )?(verified )?(administrator|admin|developer|operator)\b|\bnew (rules|instructions)\s*:|\byou are now (in|an?|the)\b|#{2,}\s*(system|admin|override|instruction)|\bsystem (override|prompt|message)\b|\b(ignore|disregard|forget) (all|any|previous|prior|your|the) (previous |prior )?(rules|instructions|guidelines)\b|\bassistant (must|shall|will now)\b|\bdeveloper mode\b/i;

/**
 * A claim of authority the user's own words never need: a bracketed tag ("[ADMIN OVERRIDE]", "[SUPPORT
 * NOTICE]", "(system)"), or "authorised by Vigil support". Like <system> markup it is content, never an
 * instruction (see docs/decisions.md, "Round H: intent").
 */
const PRETEND_AUTHORITY =
  /[[({]\s*(?:[\w-]+\s+){0,2}(?:admin(?:istrator)?|system|sys|override|root|sudo|support|developer|operator|security team|vigil)(?:\s+[\w-]+){0,2}\s*[\])}]|\b(?:authori[sz]ed|approved|sanctioned|ordered|requested) by (?:the )?(?:vigil|admin(?:istrator)?|support|developers?|operators?|security team|system)\b|\b(?:vigil|technical|customer) support (?:here|says|team)\b|\b(?:admin|root|override|emergency) (?:code|access|mode|privileges?)\b/i;

/**
 * Markup or a claim of authority beside a question of the user's own ("<system>…</system> what are you
 * watching?"): the question is answered and nothing in the markup is done. Undefined when the user's
 * own words ask for a change, or are only the markup.
 */
function answerOwnQuestionBesideMarkup(message: string, ctx: HouseholdContext): Plan | undefined {
  const { own, found } = setAsideQuoted(message);
  if (!found || !/\p{L}/u.test(own) || PRETEND_SYSTEM.test(own) || PRETEND_AUTHORITY.test(own) || claimsAuthority(own)) return undefined;
  if (!/\?\s*$/.test(own) && !isQuestionAboutQuote(own)) return undefined;
  const inner = planOffline(own, ctx);
  const readOnly = inner.calls.every((c) => ['list_watches', 'list_events', 'describe_scene'].includes(c.tool));
  if (!readOnly || inner.clarification || !(inner.answers?.length || inner.calls.length)) return undefined;
  const note = "I haven't acted on the text that reads as instructions from the system or another speaker: only your own request changes anything.";
  return { ...inner, notes: [...(inner.notes ?? []), note] };
}

/** Quoted or forwarded text and markup pretending to be another speaker, set aside from the user's own words. */
function setAsideQuoted(message: string): { own: string; found: boolean } {
  let own = message;
  // markup: <system>…</system>, [SYSTEM] …, "SYSTEM:" / "assistant:" prefixes, ``` blocks
  own = own.replace(/<\s*(system|assistant|admin|developer|instructions?|tool|user)[^>]*>[\s\S]*?(<\s*\/\s*\1\s*>|$)/gi, ' ');
  own = own.replace(/\[\s*(system|admin|assistant|developer|instructions?)\s*\][\s\S]*$/gi, ' ');
  own = own.replace(/(^|\n)\s*(system|assistant|admin|developer)\s*(message|prompt|override)?\s*:[\s\S]*$/gi, ' ');
  own = own.replace(/```[\s\S]*?(```|$)/g, ' ');
  // a pasted block between rules: "---- From: Vigil Support. Reply STOP ALL … ----"
  own = own.replace(/(^|\s)(-{3,}|_{3,}|={3,}|~{3,})(?=\s)[\s\S]*?(\s\2(?=\s|$)|$)/g, ' ');
  // quoted text of three words or more: "…", “…”, '…' (an apostrophe inside a word is no quote)
  own = own.replace(/["\u201c\u201d]([^"\u201c\u201d]*\s[^"\u201c\u201d]*\s[^"\u201c\u201d]*)["\u201c\u201d]/g, ' ');
  // ("'don't bother watching the shed tonight'": an apostrophe between letters stays inside the quote)
  const inQuote = String.raw`(?:[^'\u2018\u2019]|(?<=\p{L})['\u2019](?=\p{L}))`;
  own = own.replace(new RegExp(String.raw`(^|[\s:(])['\u2018](${inQuote}*\s${inQuote}*\s${inQuote}*?)['\u2019](?=$|[\s.,!?;:)])`, 'gu'), '$1 ');
  // forwarded: "my son sent me this: …", "Fwd: …", lines starting with ">"
  if (own === message)
    own = own.replace(/\b(sent|forwarded|texted|wrote|emailed|messaged|posted)\b[^:\n]{0,40}:\s*[\s\S]*$/i, (m) => m.replace(/:[\s\S]*$/, ' '));
  own = own.replace(/(^|\n)\s*(fwd?|fw):[\s\S]*$/gi, ' ');
  own = own.replace(/(^|\n)\s*>[^\n]*/g, ' ');
  own = own.replace(/\s+/g, ' ').trim();
  return { own, found: own !== message.replace(/\s+/g, ' ').trim() };
}

/**
 * The user's own words about the text they quoted, which are no request: where it came from ("fwd
 * from the HOA newsletter:", "my brother sent me:") and what they make of it ("ignore him", "we are
 * NOT doing that lol"). What is left is the user's own request ("just watch the backyard tonight").
 */
function dropQuoteTalk(own: string): string {
  const sentences = own.split(/(?<=[.!?;])\s+|(?<=:)\s*/);
  const kept = sentences.filter((x, k) => {
    const t = x
      .toLowerCase()
      .trim()
      .replace(/^[-\u2013\u2014\s]+/, '');
    if (!/\p{L}/u.test(t)) return true;
    // the source, said before the quote: "my brother sent me:", "fwd from …:", "PS my lad left this in the notes app:"
    if ((k === 0 || /\b(this|these|that)\b/.test(t)) && /:\s*$/.test(t) && !/\b(watch|mute|unmute|stop|keep|monitor)\b/.test(t)) return false;
    // rejecting it: "ignore him", "don't listen to her", "pay no heed to that", "we are not doing that", "as if lol"
    if (
      /^(?:\w+\s+){0,2}(?:ignore|disregard|don'?t listen to|do not listen to|pay no (?:heed|attention|mind) to)\s+(?:him|her|them|that|this|it|the (?:message|text|newsletter|post))\b[^,]*[.!?;]?$/.test(
        t,
      )
    )
      return false;
    if (
      /\b(?:not|n'?t|never)\s+(?:doing|do|going to do|gonna do|happening)\s+(?:that|this|it)\b/.test(t) &&
      !/\b(watch|mute|unmute|stop|keep|monitor)\b/.test(t)
    )
      return false;
    return true;
  });
  return kept.length ? kept.join(' ') : own;
}

/** Nothing of the user's own beside a quote but where it came from, a question about it, or setting it aside: answered, nothing changed. */
function answerQuoteOnly(message: string, own: string, ctx: HouseholdContext): Plan | undefined {
  if (/\p{L}/u.test(own) && !isQuestionAboutQuote(own)) return undefined;
  // ("what's he on about?" asks about the quote; "is the garage still watched?" about the home)
  const names = listPlaceWords(ctx);
  const aboutHome = own
    .toLowerCase()
    .split(/[^\p{L}']+/u)
    .some((w) => names.includes(w));
  const inner = /\p{L}/u.test(own) && aboutHome ? planOffline(own, ctx) : undefined;
  if (inner && (inner.calls.length || inner.answers?.length)) return undefined;
  return { planner: 'offline', calls: [], refusals: [], answers: [answerAboutQuote(message, own, ctx)], confidence: 1 };
}

/**
 * "actually undo that, we do want the kitchen watched": "undo" followed by words that only restate
 * what the reverse is (they name no place but the one undone, and no time or number) is the undo.
 * Anything more is read as a message of its own. See docs/decisions.md, "Round H: intent".
 */
function planUndoWithRestatement(message: string, ctx: HouseholdContext): Plan | undefined {
  const m = /^(.*?\bundo (?:that|it|this|the last(?: thing| change| one)?))\s*[,;.!–—-]+\s*(.+)$/i.exec(message);
  if (!m || !UNDO.test(m[1]) || /\d|n['’]t\b/.test(m[2]) || /\b(?:not|never|no|but|and then|also|tonight|tomorrow|until|till|from)\b/i.test(m[2]))
    return undefined;
  const undo = planUndo(ctx);
  if (!undo.calls.length) return undefined;
  const undone = new Set(undo.calls.map((c) => c.subject?.toLowerCase()).filter(Boolean));
  const words = m[2].toLowerCase().split(/[^\p{L}']+/u);
  const said = listPlaceWords(ctx).filter((w) => words.includes(w));
  if (!said.length || !said.every((w) => [...undone].some((u) => u!.split(' ').includes(w)))) return undefined;
  return undo;
}

/** "never mind", "scrap that", "forget it" opening a message, with what follows. */
const WITHDRAWAL_THEN =
  /^(?:(?:ok(?:ay)?|oh|actually|sorry|no|wait|ah|hmm)[,!.]?\s+)*(?:never\s?mind|forget (?:it|that)|scrap that|cancel that)\s*[,;.!:\u2013\u2014-]+\s*(.+)$/i;

/**
 * "unmute the hall camera" — "actually never mind, mute it again": a withdrawal followed by a request that, read
 * alone, is exactly the reverse of the conversation's last change is that undo. Any other request after it is read
 * as before. See docs/decisions.md, "Round J household: follow-ups, references and arming".
 */
function planWithdrawalSaidAsReverse(message: string, ctx: HouseholdContext): Plan | undefined {
  const rest = WITHDRAWAL_THEN.exec(message)?.[1];
  if (!rest) return undefined;
  const undo = planUndo(ctx);
  if (!undo.calls.length || undo.clarification) return undefined;
  const said = planOffline(rest, ctx);
  if (said.clarification || said.refusals.length || said.calls.length !== undo.calls.length) return undefined;
  const same = said.calls.every((c, k) => c.tool === undo.calls[k].tool && JSON.stringify(c.args) === JSON.stringify(undo.calls[k].args));
  return same ? said : undefined;
}

/**
 * "watch the study tonight" — "hmm scrap that, the store room instead": a withdrawal followed by a place and no
 * request of its own corrects the object of the last change, as "no, I meant the store room" does (the watch
 * moves; a mute moves to the other sensor). Only right after a watch, mute or boundary of this conversation.
 */
function planWithdrawalThenPlace(message: string, ctx: HouseholdContext): Plan | undefined {
  const rest = WITHDRAWAL_THEN.exec(message)?.[1];
  const last = ctx.conversation?.turns.at(-1)?.actions ?? [];
  if (!rest || !last.some((a) => a.type === 'watch.created' || a.type === 'watch.updated' || a.type in SENSOR_CHANGES)) return undefined;
  const readings = readMessage(rest, ctx, 1);
  const placeOnly =
    readings.every((r) => !r.intent && !r.question && !r.outOfScope) &&
    readings.some((r) => r.mentions.some((m) => m.place.type === 'room' || m.place.type === 'sensor' || m.place.type === 'ambiguous'));
  return placeOnly ? planOffline(`no, I meant ${rest}`, ctx) : undefined;
}

/** "put it back on, just for tonight", "turn it back on till 6am": a stood-down watch set up again, for a new time. */
const RESTORE_FOR_TIME =
  /^(?:(?:ok(?:ay)?|actually|oh|hmm|wait|no|sorry)[,!.]?\s+)*(?:put|turn|switch)\s+(?:it|that|that watch)\s+back\s+on[,;]?\s+(.+?)[.!]*$/i;

/**
 * "stand down the boat shed watch" — "actually put it back on, just for tonight": the watch this conversation stood
 * down last, on its own sensors, for the time now said (read as "watch the boat shed just for tonight" is). Undefined
 * when the message is not such a request or nothing was stood down; the new reading's question when it asks
 * (docs/decisions.md, "Round O: times and follow-ups").
 */
function planRestoreForTime(message: string, ctx: HouseholdContext): Plan | undefined {
  const rest = RESTORE_FOR_TIME.exec(message)?.[1];
  const turns = ctx.conversation?.turns ?? [];
  const last = [...turns].reverse().find((t) => t.actions.some((a) => CHANGE_ACTIONS.has(a.type)));
  const stood = last?.actions.find((a) => a.type === 'watch.stood_down' && a.watch)?.watch;
  if (!rest || !stood?.subject) return undefined;
  const plan = planOffline(`watch the ${stood.subject} ${rest}`, ctx);
  const [call] = plan.calls;
  if (plan.calls.length !== 1 || call.tool !== 'create_watch') return plan.calls.length ? undefined : plan;
  call.args = { ...call.args, sensor_ids: stood.sensor_ids, subject: stood.subject };
  return plan;
}

/** "actually put it back on, he's not coming till tomorrow": "it" back on, with at most a reason said after it. */
const BACK_ON_WITH_REASON =
  /^(?:(?:ok(?:ay)?|actually|oh|hmm|wait|no|sorry|oops)[,!.]?\s+)*(?:put|turn|switch)\s+(?:it|that|them|those)\s+back\s+on(?:\s+(?:now|again|please))*(?:\s*[,;.]\s*(?:he|she|they|we|i|you|the\s+\w+)(?:'s|'re|'m| is| are| am| was| were|'ll| will|'s not| isn't| aren't| has| have)\b.*)?[.!]*$/i;

/**
 * "mute the loft sensor" — "actually put it back on, he's not coming till tomorrow": right after a mute (and only
 * then), "it" back on is the mute undone; what follows is the reason, whose times are not the request's
 * (docs/decisions.md, "Before round S: follow-ups").
 */
function planUnmuteSaidAsBackOn(message: string, ctx: HouseholdContext): Plan | undefined {
  if (!BACK_ON_WITH_REASON.test(message.replace(/[\u2018\u2019]/g, "'"))) return undefined;
  const changes = ctx.conversation?.turns.at(-1)?.actions.filter((a) => CHANGE_ACTIONS.has(a.type)) ?? [];
  if (!changes.length || changes.some((a) => a.type !== 'sensor.muted')) return undefined;
  const undo = planUndo(ctx);
  return undo.clarification || !undo.calls.every((c) => c.tool === 'unmute_sensor') ? undefined : undo;
}

/** The reverse of the conversation's last change ("undo that", "put it back"), or a question when it cannot be reversed. */
function planUndo(ctx: HouseholdContext): Plan {
  const plan: Plan = { planner: 'offline', calls: [], refusals: [] };
  const turns = ctx.conversation?.turns ?? [];
  const last = [...turns].reverse().find((t) => t.actions.some((a) => CHANGE_ACTIONS.has(a.type)));
  if (!last) {
    plan.clarification = "I haven't changed anything in this conversation, so there is nothing to undo. What would you like me to do?";
    return plan;
  }
  const sensorOf = (a: { id?: string; subject?: string }) => ctx.sensors.find((s) => s.id === a.id || s.name.toLowerCase() === a.subject?.toLowerCase());
  const roomOf = (a: { subject?: string }) => ctx.rooms.find((r) => r.name.toLowerCase() === a.subject?.toLowerCase())?.name;
  for (const a of last.actions.filter((x) => CHANGE_ACTIONS.has(x.type))) {
    const sensor = sensorOf(a);
    if (a.type === 'watch.created' && a.id && ctx.watches.some((w) => w.id === a.id)) {
      plan.calls.push({
        tool: 'stand_down_watch',
        args: { watch_id: a.id },
        subject: a.subject,
        say: `I've undone that: the watch on the ${a.subject} is stood down.`,
      });
    } else if (a.type === 'watch.stood_down' && a.watch) {
      // "stop watching the bike store" — "actually no, put it back": the watch as it was
      const restored = restoreWatch(a.watch, ctx);
      if (restored) plan.calls.push(restored);
    } else if (a.type === 'house.armed' || a.type === 'house.disarmed') {
      // "arm the house" — "undo that": disarmed again (and the other way round)
      const arm = a.type === 'house.disarmed';
      plan.calls.push({ tool: 'arm_house', args: { arm }, subject: 'house', say: `I've undone that: the house is ${arm ? 'armed' : 'disarmed'} again.` });
    } else if ((a.type === 'sensor.muted' || a.type === 'sensor.unmuted') && sensor) {
      const mute = a.type === 'sensor.unmuted';
      plan.calls.push({
        tool: mute ? 'mute_sensor' : 'unmute_sensor',
        args: { sensor_id: sensor.id },
        subject: sensor.name,
        say: `I've undone that: the ${sensor.name} is ${mute ? 'muted' : 'unmuted'} again.`,
      });
    } else if (a.type === 'boundary.set' || a.type === 'boundary.cleared') {
      const room = roomOf(a);
      const args = room ? { room } : sensor ? { sensor_id: sensor.id } : undefined;
      if (!args) continue;
      const set = a.type === 'boundary.cleared';
      plan.calls.push({
        tool: set ? 'set_boundary' : 'clear_boundary',
        args,
        subject: a.subject,
        say: set ? `I've undone that: I'm leaving the ${a.subject} alone again.` : `I've undone that: I can watch the ${a.subject} again.`,
      });
    } else {
      plan.calls = [];
      plan.clarification = `I can't undo that last change (${a.type.replace('.', ' ').replace('_', ' ')}${a.subject ? ` on the ${a.subject}` : ''}) by myself. Tell me how it should be, for example "watch the ${a.subject ?? 'garage'} tonight".`;
      return plan;
    }
  }
  if (!plan.calls.length) plan.clarification = "That last change can't be undone any more (it has already ended). What would you like me to do?";
  return tidyPlan(plan);
}

/**
 * The call that sets up again, as it was, a watch this conversation stood down: its sensors, window, recurrence and
 * conditions (a recurring watch keeps its schedule). Undefined when it was a one-off whose window has ended.
 */
function restoreWatch(w: StoodDownWatch, ctx: HouseholdContext): PlannedCall | undefined {
  if (w.recurrence === 'none' && Date.parse(w.ends_at) <= ctx.now) return undefined;
  const args = { ...w, subject: w.subject || 'watch', window: w.window || `${w.starts_at} to ${w.ends_at}` };
  return { tool: 'create_watch', args, subject: w.subject, say: `I've undone that: I'm watching the ${w.subject} again (${w.window}).` };
}

/** "never mind", "forget that", optionally "…, you can watch it (again)": the last change was not wanted. */
const NEVER_MIND =
  /^(?:(?:ok(?:ay)?|oh|actually|sorry|no|wait|ah)[,!.]?\s+)*(?:never\s?mind|forget (?:it|that)|scrap that|cancel that)(?:[,.!;]?\s*(?:you can|go ahead and|feel free to|it's fine to|it is fine to)?\s*(?:watch|look at|keep an eye on|monitor|use)\s+(?:it|that|them|there|that one)(?:\s+again)?)?(?:\s+please)?[.!]*$/i;
/** "no wait, I meant the hall camera": the object of the last change was the wrong one. */
const MEANT_OTHER = /^(?:(?:no|nope|sorry|oops|actually|wait|ah)[,!.]?\s+)*(?:i meant|i mean|i wanted|make that)\s+(.+?)[.!]*$/i;
/** "no, the shed", "sorry, the garage one", "no wait, the hall camera instead": a place alone after a correction word. */
const PLACE_SAID_AS_CORRECTION = /^(?:(?:no|nope|sorry|oops|wait|hm+|um+|uh)[,!.]?\s+)+((?:the|my|our)\s+.+?)(?:[,\s]+(?:please|instead|then))*[.!]*$/i;
/** "not that one, the other one", "no, the other", "wrong one, I meant the other one": the other of the places weighed. */
const OTHER_ONE_MEANT =
  /^(?:(?:no|nope|sorry|oops|wait|actually|not that one|wrong one|the wrong one)[,!.]?\s+)+(?:i meant |i mean |i wanted )?the other(?: one)?(?:[,\s]+(?:please|instead|then))*[.!]*$/i;

/**
 * The name of the other place the conversation weighed (findOtherPlace), for a correction of the last mute or boundary;
 * undefined when there is not exactly one, so the general reader asks (docs/decisions.md, "Before round T: follow-ups").
 */
function readOtherOneMeant(ctx: HouseholdContext): string | undefined {
  const other = findOtherPlace(ctx);
  return other ? `the ${subjectOf(other)}` : undefined;
}
/** Words that make the place after "no, …" more than a correction of the object ("no, the shed too", "no, the shed is fine"). */
const NOT_ONLY_A_PLACE = /\b(?:too|also|as well|and|or|both|all|is|are|was|were|fine|ok|okay|not|isn't|aren't|already|still|again|first|later)\b/i;

/**
 * "no, the shed", "sorry, the garage one" right after a mute or a boundary: the place said alone is the object meant,
 * as "no, I meant the shed" is (docs/decisions.md, "Before round S: follow-ups"). Anything more than a place is left to
 * the general reader.
 */
function readPlaceSaidAsCorrection(message: string): string | undefined {
  const place = PLACE_SAID_AS_CORRECTION.exec(message.trim())?.[1];
  return place && !NOT_ONLY_A_PLACE.test(place) ? place : undefined;
}

const SENSOR_CHANGES: Record<string, string> = {
  'sensor.muted': 'mute',
  'sensor.unmuted': 'unmute',
  'boundary.set': 'leave alone',
  'boundary.cleared': 'stop leaving alone',
};

/**
 * A correction of the conversation's last turn when that turn muted, unmuted or set a boundary
 * (watches have their own corrections): "never mind" reverses it, "I meant X" reverses it and does
 * the same to X. Undefined when the message is not such a correction or the last turn was not such a change.
 */
function planCorrectionOfSensorChange(message: string, ctx: HouseholdContext): Plan | undefined {
  const turns = ctx.conversation?.turns ?? [];
  const last = turns[turns.length - 1];
  const changes = last?.actions.filter((a) => CHANGE_ACTIONS.has(a.type)) ?? [];
  if (changes.length !== 1 || !(changes[0].type in SENSOR_CHANGES)) return undefined;
  if (NEVER_MIND.test(message)) return planUndo(ctx);
  const meant = OTHER_ONE_MEANT.test(message.trim()) ? readOtherOneMeant(ctx) : (MEANT_OTHER.exec(message)?.[1] ?? readPlaceSaidAsCorrection(message));
  if (!meant) return undefined;
  const verb = changes[0].type;
  const redo = planOffline(
    verb === 'boundary.set' ? `leave ${meant} alone` : verb === 'boundary.cleared' ? `you can watch ${meant} again` : `${SENSOR_CHANGES[verb]} ${meant}`,
    { ...ctx, conversation: { turns: [] } },
  );
  const undo = planUndo(ctx);
  if (redo.clarification || undo.clarification || redo.calls.length !== 1 || undo.calls.length !== 1) return undefined;
  // the same target again is no correction
  if (JSON.stringify(redo.calls[0].args) === JSON.stringify({ ...undo.calls[0].args })) return undefined;
  return tidyPlan({ planner: 'offline', calls: [undo.calls[0], redo.calls[0]], refusals: [...redo.refusals], notes: redo.notes, confidence: redo.confidence });
}

const CHANGE_ACTIONS = new Set([
  'watch.created',
  'watch.updated',
  'watch.stood_down',
  'sensor.muted',
  'sensor.unmuted',
  'boundary.set',
  'boundary.cleared',
  'sensor.added',
  'household.updated',
  'notification_preferences.set',
  'house.armed',
  'house.disarmed',
]);

/**
 * When the previous turn asked "which X do you mean: A, B?" and this message picks one option by
 * its words ("the back one", "the porch"), plans the previous request again with that option.
 */
function answerClarification(message: string, ctx: HouseholdContext): Plan | undefined {
  const turns = ctx.conversation?.turns ?? [];
  // "which door?" — "no wait, half ten" — "the front one": the question is still the request's
  const asked = findAskedTurn(ctx);
  const last = turns[asked];
  if (!last || last.actions.length) return undefined;
  const earlier = { ...ctx, conversation: { turns: turns.slice(0, asked) } };
  const readings = readMessage(last.message, earlier, 1);
  const said = new Set(
    normalizeMessage(message, listPlaceWords(ctx))
      .tokens.map((t) => t.text)
      .filter((w) => !['the', 'one', 'a', 'please', 'i', 'mean', 'that', 'ones', 'it', 'is'].includes(w)),
  );
  if (!said.size) return undefined;
  for (const r of readings) {
    for (const m of r.mentions) {
      if (m.place.type !== 'ambiguous') continue;
      const yes = ['yes', 'yeah', 'yep', 'yup', 'correct', 'right', 'sure'].some((w) => said.has(w)) && m.place.options.length === 1;
      const picked =
        yes || takesEveryOption(said, m.place.options.length)
          ? m.place.options
          : m.place.options.filter((o) =>
              o
                .toLowerCase()
                .split(/\s+/)
                .some((w) => said.has(w)),
            );
      if (picked.length !== 1 && !takesEveryOption(said, picked.length)) continue;
      const named = picked.join(' and ').toLowerCase();
      // the place named in full, read with the corrections said since (findPreviousRequest)
      if (asked < turns.length - 1) {
        const plan = planOffline(named, ctx);
        return plan.clarification ? undefined : plan;
      }
      const tokens = r.tokens.map((t) => t.text);
      const rewritten = [...tokens.slice(0, m.start), ...named.split(/\s+/), ...tokens.slice(m.end)].join(' ');
      const plan = planOffline(rewritten, earlier);
      return plan.clarification ? undefined : plan;
    }
  }
  return undefined;
}

/** Words that may stand beside "both" or "all" in an answer that takes every option offered ("both of them please"). */
const EVERY_OPTION_FILLER = new Set(['of', 'them', 'those', 'these', 'please', 'thanks', 'ok', 'okay', 'just', 'do', 'oh', 'um', 'er', 'actually', 'and']);

/**
 * "both", "both of them", "all three", "all of them please": an answer to "which X do you mean: A, B?" that takes
 * every option; "both" only of two, "all" and "all three" only of as many (docs/decisions.md, "Before round T:
 * follow-ups"). Any other word said beside it ("both cameras but not tonight") is no such answer.
 */
function takesEveryOption(said: Set<string>, options: number): boolean {
  const count = ['two', 'three', 'four'].findIndex((w) => said.has(w)) + 2;
  const every = (said.has('both') && options === 2) || (said.has('all') && (count === 1 || count === options));
  return every && options > 1 && [...said].every((w) => ['both', 'all', 'two', 'three', 'four'].includes(w) || EVERY_OPTION_FILLER.has(w));
}

/** The turn whose question is still open: the last one, or the one before time corrections said alone since ("no wait, half ten"). */
function findAskedTurn(ctx: HouseholdContext): number {
  const turns = ctx.conversation?.turns ?? [];
  let t = turns.length - 1;
  while (t > 0 && t > turns.length - 4 && !turns[t].actions.length) {
    const readings = readMessage(turns[t].message, { ...ctx, conversation: { turns: turns.slice(0, t) } }, 1);
    const c = readings.length === 1 ? readings[0] : undefined;
    if (!c?.time.hasTime || c.intent || c.mentions.length || c.hasReference) break;
    t--;
  }
  return t;
}

/** Replies read naturally: no doubled articles ("the the whole home", "the all cameras"). */
function tidy(text: string): string {
  return (
    text
      .replace(/\b(the|a) (the|all|every) /gi, (_, article: string, next: string) => `${next === 'the' ? article : next} `)
      // a name with a possessive takes no article: "Aoife's room", not "the Aoife's room"
      .replace(/\bthe (\p{Lu}\p{L}*['\u2019]s )/gu, '$1')
  );
}

function tidyPlan(plan: Plan): Plan {
  for (const c of plan.calls) if (c.say) c.say = tidy(c.say);
  plan.refusals = plan.refusals.map(tidy);
  if (plan.notes) plan.notes = plan.notes.map(tidy);
  if (plan.answers) plan.answers = plan.answers.map(tidy);
  if (plan.clarification) plan.clarification = tidy(plan.clarification);
  return plan;
}

/** Words that open a correction said in a hurry ("no wait, half ten", "hang on, 11"). */
const HURRIED_OPENERS = new Set(['no', 'wait', 'hold', 'hang', 'on', 'sorry', 'oh', 'oops', 'actually']);
/** Words around a corrected time that say nothing more ("make it", "until", "instead", "till 6 only"). */
const TIME_GLUE = new Set(['make', 'it', 'that', 'until', 'till', 'til', 'from', 'at', 'to', 'by', 'instead', 'then', 'please', 'only', 'just', 'rather']);

/**
 * "no wait, half ten", "hold on, from 11": a hesitation whose other words are all a time is no
 * holding back but a correction of the time, read like "sorry, half ten" (the request it corrects,
 * made or still asked about, keeps what the time does not change). See docs/decisions.md, "Round I: the time grammar".
 */
function takeWaitAsTimeCorrection(r: Reading): void {
  if (!r.hesitation || r.intent !== 'help' || !r.time.hasTime || r.mentions.length || r.question) return;
  const openers: number[] = [];
  for (let k = r.clause.from; k < r.clause.to; k++) {
    if (r.time.consumed.has(k)) continue;
    if (!HURRIED_OPENERS.has(r.tokens[k].text) && !TIME_GLUE.has(r.tokens[k].text)) return;
    openers.push(k);
  }
  if (!openers.some((k) => ['wait', 'hold', 'hang'].includes(r.tokens[k].text))) return;
  r.intent = undefined;
  r.hesitation = false;
  r.clause = { ...r.clause, correction: true, intent: undefined, cue: undefined };
  for (const k of openers) r.used.add(k);
}

/**
 * "no wait, I meant the farmyard", "wait, I mean the barn": a hesitation said alone ("no wait") before a correction
 * that names the place meant opens the correction, as "no," does ("no, I meant the farmyard"); it is no hold
 * (docs/decisions.md, "Round T: stand-downs and scope").
 */
function takeWaitBeforeCorrection(r: Reading, prev: Reading | undefined): void {
  if (!prev || !prev.hesitation || prev.intent !== 'help' || !r.clause.correction || !r.mentions.length || r.question) return;
  const { from, to } = prev.clause;
  const words = prev.tokens.slice(from, to).map((t) => t.text);
  if (prev.mentions.length || prev.time.hasTime || !words.some((w) => ['wait', 'hold', 'hang'].includes(w))) return;
  if (!words.every((w) => HURRIED_OPENERS.has(w))) return;
  prev.intent = undefined;
  prev.hesitation = false;
  prev.clause = { ...prev.clause, intent: undefined, cue: undefined };
  for (let k = from; k < to; k++) prev.used.add(k);
}

/**
 * "sauna tomorrow evening 6 to 10, I don't trust the teenagers": the speaker's stance (isStanceNegation), naming no
 * place and no time, is a reason said with the request, read as one (docs/decisions.md, "Before round Q: times").
 */
function takeStanceReason(r: Reading): void {
  const { from, to } = r.clause;
  for (let k = from; k < to; k++) {
    const subject = NEGATIONS.has(r.tokens[k].text) ? findStanceSubject(r.tokens, k, from) : -1;
    if (subject < 0) continue;
    if (r.mentions.some((m) => m.end > subject) || [...r.time.consumed].some((j) => j >= subject && j < to)) return;
    // ("…, I don't trust them and text Kadri": what follows is a part of its own, left to be asked about)
    if (r.tokens.slice(k, to).some((t) => ['and', 'then', 'also', 'so'].includes(t.text))) return;
    markReasonUsed(r, subject, to);
    return;
  }
}

/** Animals said after "not" beside a watch for people: what the people filter already leaves out. */
const ANIMALS_LEFT_OUT = new Set([
  'bird',
  'birds',
  'animal',
  'animals',
  'cat',
  'cats',
  'dog',
  'dogs',
  'wildlife',
  'critters',
  'possums',
  'foxes',
  'deer',
  'pets',
]);

/**
 * "watch the deck for people from 12 till 1, just people not the birds": with the watch limited to people,
 * "not the birds" says what the filter already leaves out, so it is read (docs/decisions.md, "Before round Q:
 * words"). Without a people filter the "not" stays unread and is asked about.
 */
function takeAnimalsLeftOutOfPeople(r: Reading): void {
  // ("people only, not the dog": the animal read as a condition is the one left out)
  const leftOut = r.conditions.length === 2 && r.conditions.includes('person') && r.conditions.includes('animal');
  if ((!leftOut && (r.conditions.length !== 1 || r.conditions[0] !== 'person')) || r.negated) return;
  const taken = new Set<number>();
  for (let k = r.clause.from; k + 1 < r.clause.to; k++) {
    if (r.tokens[k].text !== 'not' && r.tokens[k].text !== 'no') continue;
    let j = k + 1;
    const words: number[] = [k];
    while (j < r.clause.to && ['the', 'any', 'or', 'and'].includes(r.tokens[j].text)) words.push(j++);
    if (j >= r.clause.to || !ANIMALS_LEFT_OUT.has(r.tokens[j].text)) continue;
    words.push(j);
    // ("not the cat or the dog")
    for (let n = j + 1; n < r.clause.to && ['or', 'and', 'the', 'any'].includes(r.tokens[n].text); n++) {
      if (!ANIMALS_LEFT_OUT.has(r.tokens[n + 1]?.text ?? '')) continue;
      while (j < n + 1) words.push(++j);
    }
    for (const w of words) taken.add(w);
  }
  // (an animal said anywhere else is asked for, not left out)
  if (leftOut && r.tokens.some((t, k) => k >= r.clause.from && k < r.clause.to && ANIMALS_LEFT_OUT.has(t.text) && !taken.has(k))) return;
  if (leftOut && taken.size) r.conditions = ['person'];
  for (const w of taken) r.used.add(w);
}

/**
 * "only for people, not the cat" (a follow-up, no watch verb): "not" with only animals after it, said after people,
 * negates no request; takeAnimalsLeftOutOfPeople reads it (docs/decisions.md, "Before round R: follow-ups").
 */
function leavesAnimalsOutOfPeople(tokens: Token[], k: number, from: number, to: number): boolean {
  if (!tokens.slice(from, k).some((t) => ['people', 'person', 'persons', 'humans'].includes(t.text))) return false;
  let j = k + 1;
  while (j < to && ['the', 'any', 'or', 'and', 'our', 'my'].includes(tokens[j].text)) j++;
  if (j >= to || !ANIMALS_LEFT_OUT.has(tokens[j].text)) return false;
  for (j++; j < to && ['or', 'and', 'the', 'any'].includes(tokens[j].text); j++);
  return j >= to || ANIMALS_LEFT_OUT.has(tokens[j].text) || !/[a-z]/.test(tokens[j].text);
}

/** Reads every clause, filling in follow-ups from the clause before or the conversation. */
function readMessage(message: string, ctx: HouseholdContext, depth = 0): Reading[] {
  const normalized = normalizeMessage(message, listPlaceWords(ctx));
  const { urls } = normalized;
  const tokens = restoreFunctionWordNames(normalized.tokens, ctx);
  const timeTokens = hideNameNumbers(tokens, ctx);
  const timeCache = new Map<string, TimeSpec>();
  const getTime = (from: number, to: number) => {
    const key = `${from}:${to}`;
    let spec = timeCache.get(key);
    if (!spec) {
      spec = extractTimeSpec(timeTokens, from, to, ctx);
      timeCache.set(key, spec);
    }
    return spec;
  };
  const clauses = splitClauses(
    tokens,
    (from, to) => findMentions(tokens, from, to, ctx, getTime(from, to).consumed).some((m) => m.place.type !== 'vague'),
    (from, to) => getTime(from, to).hasTime,
  );
  const readings: Reading[] = [];
  let bare: Reading | undefined;
  for (const said of clauses) {
    // "call off the bike shed watch, I've moved the bikes into the hall", "…, as the lock is not what
    // it was": the reason after the comma is no part of the request (docs/decisions.md, "Reasons are not requests")
    const reasonCut = findReasonCut(tokens, said, ctx, getTime(said.from, said.to));
    // ("…from 3 till 4 so I can see when he turns up": what the watch is for is no part of the request)
    const clause = { ...said, to: said.cue ? findPurposeCut(tokens, said.cue.end, reasonCut, getTime(said.from, said.to).consumed) : reasonCut };
    const r = readClause(tokens, clause, ctx, urls, getTime(clause.from, clause.to), message);
    takeWaitAsTimeCorrection(r);
    takeStanceReason(r);
    takeAnimalsLeftOutOfPeople(r);
    takeDislocatedPlace(r, bare, readings);
    bare = isBarePlace(r) ? r : undefined;
    if (reasonCut < said.to) {
      r.spans.push([reasonCut, said.to]);
      markReasonUsed(r, reasonCut, said.to);
    }
    const placeReason = findPlaceReason(r, ctx, undefined, said.to) ?? (reasonCut < said.to ? findPastReasonPlace(r, reasonCut, said.to, ctx) : undefined);
    if (placeReason) r.reasonQuestion = askPlaceReason(r, placeReason);
    // ("…, I can't decide": said after the request, as a reason would be, it still holds it back)
    if (clause.to < said.to && isUndecided(tokens.slice(clause.to, said.to).map((t) => t.text))) r.hesitation = true;
    const prev = readings.at(-1);
    takeWaitBeforeCorrection(r, prev);
    if (foldIntoPrevious(r, prev, readings, ctx, getTime)) continue;
    // "…, our granddaughter has gone home", "…, we're all in": "home" and "all" said of people are no place to act on
    const onlyHome =
      r.mentions.length > 0 &&
      r.mentions.every((m) => m.place.type === 'group' && m.place.wholeHome) &&
      !r.time.hasTime &&
      !r.hasReference &&
      r.tokens.slice(r.clause.from, r.clause.to).some((t) => ['we', 'i', 'he', 'she', 'they', 'our', 'my', 'has', 'have', 'are', 'is', 'am'].includes(t.text));
    resolvePlaceWords(r, prev, ctx, depth);
    takeCameraOfPlaceBefore(r, prev, ctx);
    takePlaceOfRequest(r, prev);
    if (inheritFromBefore(r, prev, readings, ctx, tokens, depth, onlyHome)) continue;
    if (completeWatchWindow(r, prev, readings, ctx)) continue;
    readings.push(r);
  }
  // "heading to bed, watch the back door till 7": the bedtime said anywhere sets the reading of "7"
  if (readings.some((r) => r.time.sleepContext)) for (const r of readings) r.time = { ...r.time, sleepContext: true };
  foldUnnamedStandDowns(readings);
  foldExclusions(readings);
  foldMuteNotWanted(readings);
  resolveThen(readings);
  declineOtherHomes(readings);
  moveCorrectedWatches(readings);
  for (const r of readings) correctPlaceWithinClause(r);
  if (depth === 0) for (const r of readings) resolvePluralReference(r, ctx);
  if (depth === 0) for (const r of readings) resolvePluralWatchReference(r, ctx);
  for (const r of readings) giveChangeAmountItsUnit(r, ctx);
  for (const r of readings) giveChangeAmountClock(r, ctx);
  return readings;
}

/** A clause that only names places ("the back door,"): no request, time, question or negation of its own. */
function isBarePlace(r: Reading): boolean {
  return !r.intent && r.mentions.length > 0 && !r.time.hasTime && !r.question && !r.negated && !r.outOfScope && !r.hasReference && !r.clause.cue;
}

/**
 * "the back door, lock it", "and the garden camera, mute it": "it" after places named alone in the same sentence is
 * those places (left dislocation); the bare clause is folded into the request (or the question: "the attic camera, is
 * it muted?") and never inherits a request of its own.
 * Only with nothing named in the message does "it" go back to earlier turns (docs/decisions.md, "Round R: places").
 */
function takeDislocatedPlace(r: Reading, bare: Reading | undefined, readings: Reading[]): boolean {
  if (!bare || readings.at(-1) !== bare || (!r.intent && !r.question) || r.clause.newSentence || !r.hasReference || r.mentions.length) return false;
  // ("…, switch it to mute": an "it" that is part of the verb's cue, "make it", "switch it", is the watch's, not a place's)
  const cueWords = new Set(r.clause.cue?.matched ?? []);
  if (!r.tokens.some((t, k) => k >= r.clause.from && k < r.clause.to && (t.text === 'it' || t.text === 'them') && !cueWords.has(k))) return false;
  readings.pop();
  r.mentions = bare.mentions;
  r.hasReference = false;
  foldInto(r, bare);
  return true;
}

/**
 * "watch the basement for 2 hours" — "make that three and a half": a change of the watch the
 * conversation made, set for a number of hours, counts the amount in hours. A watch set any other way
 * ("tonight", "for 45 minutes") leaves the amount unused, so the agent asks.
 */
function giveChangeAmountItsUnit(r: Reading, ctx: HouseholdContext): void {
  const amount = r.time.unitlessAmount;
  if (!amount || r.time.hasTime || r.intent !== 'update_watch' || r.mentions.length || !findLastWatchId(ctx)) return;
  const source = findPreviousRequest(ctx);
  if (source?.intent !== 'create_watch' || source.time.durationMs === undefined || source.time.durationMs < 3_600_000) return;
  r.time = { ...r.time, durationMs: amount.value * 3_600_000, hasTime: true };
  for (const k of amount.tokens) r.used.add(k);
}

/**
 * "watch the garage from 10 tonight to 6" — "change only the end, make it 7": a whole number said of
 * the end (or the start) of the watch the conversation made with clock times is that clock time,
 * its half of the day chosen as the watch's own. Said of neither, or of a watch set another way, it
 * stays unused and the agent asks (docs/decisions.md, "Round H: the time grammar").
 */
function giveChangeAmountClock(r: Reading, ctx: HouseholdContext): void {
  const amount = r.time.unitlessAmount;
  if (!amount || r.time.hasTime || r.intent !== 'update_watch' || r.mentions.length || !findLastWatchId(ctx)) return;
  if (!Number.isInteger(amount.value) || amount.value < 1 || amount.value > 12) return;
  const words = new Set(r.tokens.map((t) => t.text));
  const saysEnd = ['end', 'finish', 'ends', 'finishes', 'stop'].some((w) => words.has(w));
  const saysStart = ['start', 'begin', 'starts', 'begins'].some((w) => words.has(w));
  if (saysEnd && saysStart) return;
  const source = findPreviousRequest(ctx);
  // ("watch the balcony till 2am" — "make that 3": the one clock time the watch was set with)
  const clocks = source?.time.anchors.filter((a) => a.kind === 'clock' && !a.dateOnly) ?? [];
  // (12, noon or midnight, is never guessed from the watch's half of the day)
  const only = !saysEnd && !saysStart && clocks.length === 1 && source?.time.durationMs === undefined && amount.value < 12 ? clocks[0].role : undefined;
  const role = saysEnd ? 'end' : saysStart ? 'start' : only === 'end' || only === 'start' ? only : undefined;
  if (!role || source?.intent !== 'create_watch' || !source.time.anchors.some((a) => a.kind === 'clock' && a.role === role && !a.dateOnly)) return;
  r.time = { ...r.time, anchors: [{ kind: 'clock', hour: amount.value, minute: 0, meridiemCertain: false, role }], hasTime: true };
  for (const k of amount.tokens) r.used.add(k);
}

/** A clause that only completes the one before (a correction, a reason, a time said after): folded into it; true when it was. */
function foldIntoPrevious(
  r: Reading,
  prev: Reading | undefined,
  readings: Reading[],
  ctx: HouseholdContext,
  getTime: (from: number, to: number) => TimeSpec,
): boolean {
  if (r.clause.correction && prev && (prev.intent || prev.mentions.length || prev.time.hasTime)) {
    if (r.mentions.length) prev.mentions = r.mentions;
    if (r.time.hasTime) prev.time = r.time;
    foldInto(prev, r);
    return true;
  }
  // "watch the garage tonight, the nursery keeps creaking": a reason about another place of this home may ask
  // for that place too, so one question and no change (docs/decisions.md, "Coverage probe")
  const request = prev?.intent && STATE_INTENTS.has(prev.intent) ? prev : requestBeforeQuestion(prev, readings);
  const placeReason = request ? findPlaceReason(r, ctx, { ...request, mentions: [...request.mentions, ...prev!.mentions] }) : undefined;
  if (placeReason) r.reasonQuestion = askPlaceReason(request!, placeReason);
  // "…, I've moved the bikes into the hall", "…, the tenant upstairs asked me to": a reason said
  // after the request is no request of its own and names no place to act on (docs/decisions.md,
  // "Reasons are not requests")
  if (prev && (isReasonClause(r, ctx) || (readings.some((x) => x.intent && STATE_INTENTS.has(x.intent)) && isStatementSentence(r)))) {
    r.mentions = [];
    r.hasReference = false;
    r.conditions = [];
    markReasonUsed(r, r.clause.from, r.clause.to);
    readings.push(r);
    return true;
  }
  // "…while we're on holiday, back on the 30th": a time alone completes the clause before
  // ("…while we're out tonight. we leave at 6 and we'll be back by midnight": said as a sentence of
  // its own, the times of leaving and coming back set the window of the request before)
  const settingSentence =
    r.clause.newSentence && r.time.anchors.length > 0 && prev?.intent === 'create_watch' && ['we', 'i'].includes(r.tokens[r.clause.from]?.text ?? '');
  if (
    !r.intent &&
    !r.outOfScope &&
    !r.mentions.length &&
    !r.hasReference &&
    r.time.hasTime &&
    prev?.intent &&
    (!r.clause.newSentence || settingSentence || isWhenForWatch(r, prev))
  ) {
    prev.time = getTime(prev.clause.from, r.clause.to);
    foldInto(prev, r);
    for (const k of prev.time.consumed) prev.used.add(k);
    return true;
  }
  return false;
}

/**
 * "watch the driveway tonight - oh and is the patio door shut, the garage door was left open": a reason after a
 * question said beside a request is the request's reason, so a place it names is asked about as it is right after
 * the request (docs/decisions.md, "Before round T: probe leaks").
 */
function requestBeforeQuestion(prev: Reading | undefined, readings: Reading[]): Reading | undefined {
  if (!prev?.question || (prev.intent && STATE_INTENTS.has(prev.intent))) return undefined;
  return [...readings].reverse().find((x) => x !== prev && x.intent && STATE_INTENTS.has(x.intent));
}

/**
 * "can you watch the mudroom door? 5 tonight to sunday 6pm": a sentence of times alone after a watch asked for
 * without its own hours (or with an end nobody can tell, "while we're away") says when that watch is
 * (docs/decisions.md, "Before round Q: times").
 */
function isWhenForWatch(r: Reading, prev: Reading): boolean {
  if (prev.intent !== 'create_watch' || (prev.time.hasTime && !prev.time.openEnded) || (r.time.anchors.length === 0 && !r.time.night)) return false;
  for (let k = r.clause.from; k < r.clause.to; k++) if (!r.time.consumed.has(k) && !['and', 'from', 'then'].includes(r.tokens[k].text)) return false;
  return true;
}

/**
 * "…, the nursery keeps creaking", "…, the basement door was left open": words from `k` (after a comma or as a clause
 * of their own) that open with a place of this home the request did not name, then (at most one word on) a verb of
 * their own. The place they name.
 */
function findPlaceReasonAt(
  r: Pick<Reading, 'tokens' | 'mentions'>,
  k: number,
  to: number,
  named: Mention[],
  ctx: HouseholdContext,
  statementOnly = false,
): Mention | undefined {
  while (k < to && ['and', 'but', 'because', 'cause', 'cos', 'coz', 'as', 'since', 'so'].includes(r.tokens[k].text)) k++;
  if (['the', 'my', 'our'].includes(r.tokens[k]?.text ?? '')) k++;
  const m = r.mentions.find((x) => x.start === k && x.end > x.start);
  if (!m || named.some((x) => x !== m && x.text === m.text)) return undefined;
  // (a place this home lacks counts only when it opens with one of its rooms: "the living room door", not "the fence")
  const ofHome = (x: Mention) => x.place.type !== 'unknown' || ctx.rooms.some((room) => x.text.startsWith(`${room.name.toLowerCase()} `));
  if (!ofHome(m)) return undefined;
  // ("…, the basement door was left open": one word of the place's may come first; "so driveway, garden and shed" is a list)
  const inPlace = (j: number) => r.mentions.some((x) => x.start <= j && j < x.end);
  const verb = (j: number) =>
    j < to &&
    r.tokens[j].isVerb &&
    !inPlace(j) &&
    !['too', 'as', 'also'].includes(r.tokens[j].text) &&
    (!statementOnly || STATEMENT_VERBS.has(r.tokens[j].text));
  const next = r.tokens[m.end];
  // ("…, the pool guy is coming": a place's word before a person names the person, not the place; a place
  // said after it still asks: "…, the pool guy is coming and the garage needs a look")
  const places = listPlaceWords(ctx);
  const personAfter = (j: number) =>
    j > m.start && j < to && isPersonWord(r.tokens[j].text) && !places.includes(r.tokens[j].text) && !isPlaceWord(r.tokens[j].text);
  if (personAfter(m.end - 1) || personAfter(m.end))
    return r.mentions.find((x) => x.start >= m.end && x.end <= to && x.place.type !== 'vague' && ofHome(x) && !named.some((n) => n.text === x.text));
  return verb(m.end) || (next && next.isNoun && !next.isVerb && !inPlace(m.end) && !isPersonWord(next.text) && verb(m.end + 1)) ? m : undefined;
}

/** Verbs that make a clause a statement about its subject, whatever request the clause's other words suggest. */
const STATEMENT_VERBS = new Set(['is', 'was', 'are', 'were', 'has', 'had', 'have', 'keeps', 'kept', 'got', 'gets', 'been']);

/**
 * A reason about another place at the clause's start, or after a comma inside it ("…? mum's staying over, the bike
 * shed keeps creaking": docs/decisions.md, "Before round T: probe leaks").
 */
function findPlaceReasonAfterBreaks(r: Reading, prev: Reading, ctx: HouseholdContext): Mention | undefined {
  const statementOnly = Boolean(r.intent);
  const first = findPlaceReasonAt(r, r.clause.from, r.clause.to, prev.mentions, ctx, statementOnly);
  if (first || r.intent) return first;
  for (let k = r.clause.from; k + 1 < r.clause.to; k++) {
    const m = r.tokens[k].breakAfter === ',' ? findPlaceReasonAt(r, k + 1, r.clause.to, prev.mentions, ctx, true) : undefined;
    if (m) return m;
  }
  return undefined;
}

/** A request clause that goes on, after a comma, with a reason about another place ("watch the garage tonight, the nursery keeps creaking"). */
function findPlaceReason(r: Reading, ctx: HouseholdContext, prev?: Reading, reasonTo = r.clause.to): Mention | undefined {
  // (a clause of its own may have read a request into the statement: "the side door was left open")
  if (prev) return r.question || r.clause.correction || r.outOfScope ? undefined : findPlaceReasonAfterBreaks(r, prev, ctx);
  if (!r.intent || !STATE_INTENTS.has(r.intent) || r.question) return undefined;
  // ("watch everything except the study, the playroom keeps creaking": a place said after "except" counts too)
  const all = { tokens: r.tokens, mentions: [...r.mentions, ...r.excluded] };
  for (let k = r.clause.from; k + 1 < r.clause.to; k++) {
    const before = all.mentions.filter((m) => m.end <= k + 1);
    if (r.tokens[k].breakAfter === ',' && before.length) {
      const m = findPlaceReasonAt(all, k + 1, r.clause.to, before, ctx);
      if (m) return m;
    }
  }
  // ("mute the hall camera, we've got guests, the kitchen has been making noises": after a reason cut off the request)
  if (reasonTo <= r.clause.to) return undefined;
  const rest = { tokens: r.tokens, mentions: findMentions(r.tokens, r.clause.to, reasonTo, ctx, new Set()) };
  for (let k = r.clause.to; k < reasonTo; k++) {
    const m = k === r.clause.to || r.tokens[k - 1].breakAfter ? findPlaceReasonAt(rest, k, reasonTo, r.mentions, ctx) : undefined;
    if (m) return m;
  }
  return undefined;
}

function askPlaceReason(prev: Reading, place: Mention): string {
  const doing = INTENT_WORDS[prev.intent!] ?? 'do that for';
  return `You mentioned the ${place.text} as well: should I ${doing} the ${place.text} too, or only what you named? I haven't changed anything yet.`;
}

/** Place words that need the clause or conversation around them: "home" said of people, "the other one", "it", "the front one". */
function resolvePlaceWords(r: Reading, prev: Reading | undefined, ctx: HouseholdContext, depth: number): void {
  dropHomeOfPeople(r);
  if (depth === 0) resolveOtherOneAlone(r, ctx);
  if (depth === 0) resolveOtherOneBeside(r, ctx);
  takePlaceOfStatement(r, prev);
  takeStatementPlaces(r, prev);
  if (depth === 0) resolveModifierOne(r, prev, ctx);
}

/**
 * "we're staying home tonight so knock off the granny flat watch": "home" said of people beside a
 * named place is where they are, not a place to act on.
 */
function dropHomeOfPeople(r: Reading): void {
  const peopleHome = (m: Mention) =>
    m.place.type === 'group' &&
    m.place.wholeHome &&
    /^(?:at )?home$/.test(m.text) &&
    ['stay', 'staying', 'stayed', 'be', 'are', 'am', "we're", "i'm", 'get', 'got', 'getting', 'come', 'coming', 'back'].includes(
      r.tokens[m.start - 1]?.text ?? '',
    );
  const stayHome = (m: Mention) => peopleHome(m) && ['stay', 'staying', 'stayed'].includes(r.tokens[m.start - 1]?.text ?? '');
  if (r.mentions.some(peopleHome) && (r.mentions.some((m) => m.place.type === 'room' || m.place.type === 'sensor') || r.mentions.every(stayHome))) {
    for (const m of r.mentions.filter(peopleHome)) for (let k = m.start; k < m.end; k++) r.used.add(k);
    r.mentions = r.mentions.filter((m) => !peopleHome(m));
  }
}

/** "and the other one too": of the places the conversation weighed, the one not acted on. */
function resolveOtherOneAlone(r: Reading, ctx: HouseholdContext): void {
  if (
    r.mentions.length ||
    r.question ||
    !r.tokens.some((t, k) => k >= r.clause.from && k < r.clause.to && t.text === 'other' && ['one', 'ones'].includes(r.tokens[k + 1]?.text ?? ''))
  )
    return;
  const other = findOtherPlace(ctx) ?? findOtherWatchPlace(ctx);
  if (!other) {
    r.unresolved = 'Which one do you mean by "the other one"? Tell me the room or the camera.';
  } else {
    r.mentions = [{ start: r.clause.from, end: r.clause.from, text: subjectOf(other), place: other }];
    r.hasReference = false;
  }
  const otherAt = r.tokens.findIndex((t, k) => k >= r.clause.from && t.text === 'other');
  r.used.add(otherAt);
}

/**
 * "stop watching the garden and the other one": beside a named place, "the other one" is the one
 * watch not on it, when exactly one is; otherwise it is asked, never dropped
 * (see docs/decisions.md, "Round F household: relative days and starts").
 */
function resolveOtherOneBeside(r: Reading, ctx: HouseholdContext): void {
  const otherAt = r.tokens.findIndex(
    (t, k) => k >= r.clause.from && k < r.clause.to && t.text === 'other' && ['one', 'ones'].includes(r.tokens[k + 1]?.text ?? ''),
  );
  if (!r.mentions.length || !r.mentions.every((m) => m.end > m.start) || r.question || otherAt < 0 || r.unresolved) return;
  const named = new Set(r.mentions.flatMap((m) => getPlaceSensors(m.place).map((x) => x.id)));
  const rest = ctx.watches.filter((w) => !w.sensor_ids.some((id) => named.has(id)));
  const sensors = rest.length === 1 ? ctx.sensors.filter((x) => rest[0].sensor_ids.includes(x.id)) : [];
  if ((r.intent === 'stand_down' || r.intent === 'update_watch') && sensors.length) {
    const place: KnownPlace =
      sensors.length === 1 ? { type: 'sensor', sensor: sensors[0] } : { type: 'group', label: rest[0].subject, sensors, wholeHome: false, except: false };
    r.mentions = [...r.mentions, { start: otherAt, end: otherAt + 2, text: 'other one', place }];
  } else {
    r.unresolved =
      rest.length > 1
        ? `Which one do you mean by "the other one": ${rest.map((w) => `the ${w.subject} (${w.window})`).join(', ')}? I haven't changed anything yet.`
        : 'Which one do you mean by "the other one"? Tell me the room or the camera. I haven\'t changed anything yet.';
  }
  r.used.add(otherAt).add(otherAt + 1);
}

/** "the home office is private, never watch it": "it" is the place the sentence before named. */
function takePlaceOfStatement(r: Reading, prev: Reading | undefined): void {
  if (
    r.intent &&
    STATE_INTENTS.has(r.intent) &&
    r.hasReference &&
    !r.mentions.length &&
    !r.question &&
    prev &&
    !prev.intent &&
    !prev.question &&
    !prev.outOfScope &&
    prev.mentions.length &&
    prev.mentions.every((m) => m.place.type === 'room' || m.place.type === 'sensor')
  ) {
    r.mentions = prev.mentions.map((m) => ({ ...m }));
    for (const m of r.mentions) for (let k = m.start; k < m.end; k++) r.used.add(k);
  }
}

/**
 * "just the front one": a name's modifier with "one" picks among the places the conversation's
 * last request named (the front door of "the front door and the back door"); none or several → asked.
 */
function resolveModifierOne(r: Reading, prev: Reading | undefined, ctx: HouseholdContext): void {
  const oneAt = r.tokens.findIndex((t, k) => k > r.clause.from && k < r.clause.to && ['one', 'ones'].includes(t.text) && isPlaceToken(r.tokens[k - 1], ctx));
  if (r.mentions.length || r.question || oneAt <= 0 || prev) return;
  const before = findPreviousRequest(ctx);
  const word = r.tokens[oneAt - 1].text;
  const sensors = [...new Map((before?.mentions ?? []).flatMap((m) => getPlaceSensors(m.place)).map((x) => [x.id, x])).values()].filter((x) =>
    x.name.toLowerCase().split(/\s+/).includes(word),
  );
  if (sensors.length === 1) {
    r.mentions = [{ start: oneAt - 1, end: oneAt + 1, text: `${word} one`, place: { type: 'sensor', sensor: sensors[0] } }];
    r.used.add(oneAt - 1).add(oneAt);
  } else {
    r.unresolved = `Which one do you mean by "the ${word} one"? Tell me the room or the sensor.`;
  }
}

/**
 * "stop watching the chook pen but don't turn the camera off": "the camera" said alone after a clause that named
 * places is the one sensor of its kind there, when exactly one is; otherwise asked as before
 * (docs/decisions.md, "Round Q: verbs").
 */
function takeCameraOfPlaceBefore(r: Reading, prev: Reading | undefined, ctx: HouseholdContext): void {
  if (!prev?.mentions.length || !prev.mentions.every((m) => m.place.type === 'room' || m.place.type === 'sensor')) return;
  const rooms = new Set(prev.mentions.map((m) => (m.place.type === 'room' ? m.place.room : m.place.type === 'sensor' ? m.place.sensor.room : '')));
  r.mentions = r.mentions.map((m) => {
    if (m.place.type !== 'ambiguous' || !/^(?:camera|cam|sensor)$/.test(m.text)) return m;
    const options = new Set(m.place.options);
    const there = ctx.sensors.filter((x) => options.has(x.name) && rooms.has(x.room));
    return there.length === 1 ? { ...m, place: { type: 'sensor', sensor: there[0] } } : m;
  });
}

/** "stand down the shed watch and tell me what it picked up": "it" in a question after a request is that request's place. */
function takePlaceOfRequest(r: Reading, prev: Reading | undefined): void {
  if (!r.hasReference || r.mentions.length || (r.intent !== 'list_events' && r.intent !== 'describe') || !prev?.intent || !prev.mentions.length) return;
  if (prev.mentions.every((m) => m.place.type === 'room' || m.place.type === 'sensor')) r.mentions = prev.mentions.map((m) => ({ ...m }));
}

/**
 * "the motor's on the drive, is it alright?", "the bins are in the garden — are they ok?": a question
 * whose "it" has nothing of its own asks about the place the statement before it named (see
 * docs/decisions.md, "Round G: words").
 */
function takeStatementPlaces(r: Reading, prev: Reading | undefined): void {
  if (!r.question || r.intent !== 'describe' || !r.hasReference || r.mentions.length || !prev) return;
  if (prev.intent || prev.question || prev.outOfScope || !prev.mentions.length) return;
  if (!prev.mentions.every((m) => m.place.type === 'room' || m.place.type === 'sensor')) return;
  r.mentions = prev.mentions.map((m) => ({ ...m }));
}

/**
 * "leave the servant quarter alone" — "also gate camera 10pm to 5am": a boundary is a room's and has no hours, so
 * sensors named alone with hours of their own after one are a new watch, not another boundary; a room named so
 * ("also the garage 10pm to 5am") is still asked about (docs/decisions.md, "Round S: places").
 */
function isSensorWindowAfterBoundary(r: Reading, source: Reading, ownTime: boolean): boolean {
  if (source.intent !== 'set_boundary' || !ownTime || r.negated || !r.mentions.length) return false;
  return r.mentions.every((m) => m.place.type === 'sensor') && (r.time.anchors.length >= 2 || (r.time.durationMs ?? 0) >= 60_000);
}

/**
 * "watch the loft and the garage tonight" — "actually skip the garage", "actually no garage": a correction that names
 * only places the watch just made was asked for with others is no move to them (the word before may take them off, or
 * narrow to them), so it is asked, never moved (docs/decisions.md, "Before round T: follow-ups").
 */
function askAboutPlaceOfOwnWatch(r: Reading, source: Reading): void {
  const own = new Set(source.mentions.map((m) => subjectOf(m.place).toLowerCase()));
  if (own.size < 2 || !r.mentions.every((m) => own.has(subjectOf(m.place).toLowerCase())) || r.mentions.length >= own.size) return;
  const names = r.mentions.map((m) => `the ${subjectOf(m.place)}`).join(' and ');
  r.unresolved = `${names.replace(/^t/, 'T')} is already part of the watch I just set up: should I take it off that watch, or watch only ${names}? I haven't changed anything yet.`;
}

/** Words that set a time only against the request before ("a bit longer", "later", "start earlier"): no time of their own. */
const COMPARED_TIME_WORDS = new Set(['longer', 'later', 'earlier', 'shorter', 'sooner']);

/**
 * "watch the terrace until midnight" — "and the jetty a bit longer": a follow-up that takes the request before's time
 * but says its own only against it has no time the agent can act on, so it is asked, never given the time before
 * (docs/decisions.md, "Before round T: follow-ups").
 */
function askComparedTime(r: Reading, words: string[]): void {
  const word = words.find((w) => COMPARED_TIME_WORDS.has(w));
  if (!word || r.unresolved || (r.intent !== 'create_watch' && r.intent !== 'update_watch')) return;
  const names = r.mentions.length ? r.mentions.map((m) => `the ${subjectOf(m.place)}`).join(' and ') : 'it';
  r.unresolved = `I didn't understand "${word}" as a time, so I haven't changed anything — from when until when should I watch ${names}?`;
}

/** A clause without a request of its own takes the one before or the conversation's; true when it was folded into the one before. */
function inheritFromBefore(
  r: Reading,
  prev: Reading | undefined,
  readings: Reading[],
  ctx: HouseholdContext,
  tokens: Token[],
  depth: number,
  onlyHome: boolean,
): boolean {
  if (
    !r.intent &&
    !r.outOfScope &&
    !r.question &&
    !onlyHome &&
    (r.mentions.length || r.time.hasTime || r.hasReference || (r.conditions.length && depth === 0 && !prev))
  ) {
    const inMessage = prev?.intent && prev.intent !== 'help';
    const source = inMessage ? prev : depth === 0 ? findPreviousRequest(ctx) : undefined;
    if (source?.intent) {
      const ownPlaces = r.mentions.length > 0;
      const sourceIds = new Set(source.mentions.flatMap((m) => getPlaceSensors(m.place).map((x) => x.id)));
      const ownTime = r.time.hasTime;
      inheritRequest(giveAmountItsUnit(r, source), source, !inMessage, ctx);
      const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
      if (!inMessage && isSensorWindowAfterBoundary(r, source, ownTime)) r.intent = 'create_watch';
      if (!ownTime) askComparedTime(r, words);
      // "and tomorrow night too", "saturday as well": another watch besides the one made
      // ("and the same tomorrow", "same again on friday": the same hours on another day)
      const dayOnly =
        r.time.hasTime &&
        (r.time.dayOffset !== 0 || r.time.date !== undefined) &&
        r.tokens.slice(r.clause.from, r.clause.to).every((t, k) => !r.time.consumed.has(r.clause.from + k) || !/\d/.test(t.text));
      const additive =
        words.includes('too') ||
        words.includes('also') ||
        (words.includes('as') && words.includes('well')) ||
        words.includes('another') ||
        (words.includes('same') && dayOnly);
      if (!inMessage && words.includes('same')) askWhenNothingToRepeat(r, source, ctx);
      // "actually only till 6", "can it start at 9pm instead?": a follow-up edits the watch the
      // conversation made; only a new place ("same for the back door") asks for a new one
      // ("also the driveway from 10pm" (asked until when) — "till 6am": the answer completes the request asked about,
      // not the watch made before it; docs/decisions.md, "Round R: times")
      if (!inMessage && source.intent === 'create_watch' && !ownPlaces && !additive && findLastWatchId(ctx) && !wasRequestAskedAbout(ctx)) {
        r.intent = 'update_watch';
        r.mentions = [];
      }
      // "just the camera": a kind that names several sensors of the home names one of the watch just made
      if (!inMessage && source.intent === 'create_watch' && (words.includes('just') || words.includes('only'))) narrowKindToSource(r, sourceIds, ctx);
      // "just the front one", "only the back door": the watch just made narrows to part of its places
      const narrows =
        ownPlaces &&
        (words.includes('just') || words.includes('only')) &&
        !additive &&
        r.mentions.every((m) => m.place.type !== 'group' && getPlaceSensors(m.place).length > 0 && getPlaceSensors(m.place).every((x) => sourceIds.has(x.id)));
      if (!inMessage && source.intent === 'create_watch' && narrows && findLastWatchId(ctx)) {
        r.intent = 'update_watch';
        r.hasReference = true;
      }
      // "no sorry, I meant the driveway": the watch just made moves to the place named, none is added
      if (!inMessage && (source.intent === 'create_watch' || source.intent === 'update_watch') && ownPlaces && isCorrection(tokens) && findLastWatchId(ctx)) {
        r.intent = 'update_watch';
        r.hasReference = true;
        if (!narrows) askAboutPlaceOfOwnWatch(r, source);
      }
    }
  } else if (r.intent === 'create_watch' && !r.mentions.length && r.hasReference && prev?.intent === 'create_watch' && !r.clause.newSentence) {
    // "watch the back door tonight and let me know if it opens": what to look for, on the same watch
    prev.conditions = [...new Set([...prev.conditions, ...r.conditions])];
    foldInto(prev, r);
    return true;
  } else if (r.intent === 'create_watch' && (!r.time.hasTime || isAwayOnly(r.time))) {
    // "watch the back door from sunset to sunrise and let me know if anyone's in the backyard": one
    // window; "I'm going away for the weekend, watch the house": the setting clause gives it
    // ("we fly out on the 10th at 6am and land back on the 14th. watch everything while we're away":
    // the times of leaving and coming back are the away window)
    const earlier = [...readings]
      .reverse()
      .find((x) => (x.intent === 'create_watch' || !x.intent) && x.time.hasTime && (!r.time.hasTime || x.time.anchors.length));
    if (earlier) r.time = r.time.hasTime ? { ...earlier.time, openEnded: true } : earlier.time;
    // "watch the lounge tonight" (declined: muted) — "ok unmute it and watch it then": the watch asked for before
    else if (depth === 0 && r.hasReference && !r.mentions.length) {
      const before = findPreviousRequest(ctx);
      if (before?.intent === 'create_watch' && before.time.hasTime && !before.time.past) r.time = before.time;
    }
  }
  return false;
}

/** The words a reading's time was read from. */
function saidTime(x: Reading, from = 0, to = x.tokens.length): string {
  const at = [...x.time.consumed].filter((i) => i >= from && i < to);
  return at.length
    ? x.tokens
        .slice(Math.min(...at), Math.max(...at) + 1)
        .map((t) => t.text)
        .join(' ')
    : '';
}

/** The question when a statement's day and a watch's own words leave its start open. */
function askStartBesideStatement(r: Reading, statementDay: string, ownTo: number): string {
  const places = r.mentions.map((m) => `the ${subjectOf(m.place)}`).join(' and ');
  const own = saidTime(r, r.clause.cue?.start ?? r.clause.from, ownTo);
  const end = r.time.anchors.some((a) => a.role === 'end') && !r.time.night && r.time.durationMs === undefined && /^(?:until|till|til|to) /.test(own);
  const window = end ? ` until ${own.replace(/^(?:until|till|til|to) /, '')}` : '';
  return (
    `I understood that you want me to watch ${places || 'there'}${window}, but not when to start: ` +
    `now, or "${statementDay}" as you said? I haven't changed anything — say when the watch should start.`
  );
}

/** Words before a subject that make its clause the request's own time ("until we leave friday"), not a statement. */
const OWN_TIME_OPENERS = new Set(['until', 'till', 'til', 'from', 'before', 'after', 'when', 'once', 'by', 'while', 'whilst', 'starting', 'on']);

/**
 * "we're off to Goa tomorrow so watch the balcony until Sunday", "watch the balcony till Sunday because we fly
 * out friday": a day said in a statement inside the watch's own clause is no start of the watch (docs/decisions.md,
 * "Before round L"). The day's words, when a statement (a subject and its verb, no request) holds them.
 */
function findStatementDay(r: Reading, ctx: HouseholdContext): { word: string; at: number } | undefined {
  const { cue, from, to } = r.clause;
  if (!cue || (r.time.dayOffset === 0 && !r.time.date)) return undefined;
  for (const d of [...r.time.consumed].sort((a, b) => a - b)) {
    const word = d >= from && d < to ? r.tokens[d].text : '';
    if (!/^(?:tomorrow|tmrw|tmr|tomoz|tomorow)$/.test(word) && parseWeekday(word) === undefined) continue;
    for (let s = d; s >= from && (s < cue.start || s >= cue.end); s--) {
      if (!REASON_SUBJECTS.has(r.tokens[s].text) || r.tokens[s].text === 'it' || r.tokens[s].text === 'there') continue;
      if (OWN_TIME_OPENERS.has(r.tokens[s - 1]?.text ?? '')) break;
      if (isReasonSpan(r.tokens, s, s < cue.start ? cue.start : to, ctx)) return { word, at: s };
    }
  }
  return undefined;
}

/**
 * "watch the back gate tonight" — "just the camera": a sensor kind that is ambiguous in the home but
 * matches exactly one sensor of the watch just made is that sensor (docs/decisions.md, "Round K household").
 */
function narrowKindToSource(r: Reading, sourceIds: ReadonlySet<string>, ctx: HouseholdContext): void {
  r.mentions = r.mentions.map((m) => {
    if (m.place.type !== 'ambiguous') return m;
    const options = new Set(m.place.options);
    const mine = ctx.sensors.filter((x) => options.has(x.name) && sourceIds.has(x.id));
    return mine.length === 1 ? { ...m, place: { type: 'sensor', sensor: mine[0] } } : m;
  });
}

/** "while we're away" and no other time word: a window whose start and end the clause leaves to the words around it. */
function isAwayOnly(time: TimeSpec): boolean {
  return (
    time.openEnded &&
    !time.anchors.length &&
    !time.date &&
    time.dayOffset === 0 &&
    time.durationMs === undefined &&
    !time.night &&
    !time.recurrence &&
    !time.weekend &&
    !time.nights
  );
}

/** A watch's window from the clauses around it (coming back at a time, a place and a window, a day said before); true when folded. */
function completeWatchWindow(r: Reading, prev: Reading | undefined, readings: Reading[], ctx: HouseholdContext): boolean {
  // "…watch the garage over the weekend? We leave friday at 6pm and we're back monday morning at 8":
  // coming back at a time, said after a watch is asked for, ends that watch's window; it stands nothing down
  const homecoming =
    r.intent === 'stand_down' &&
    !r.mentions.length &&
    !r.hasReference &&
    !r.question &&
    r.time.anchors.length > 0 &&
    prev?.intent === 'create_watch' &&
    r.tokens.slice(r.clause.from, r.clause.to).some((t) => t.text === 'back' || t.text === 'home');
  if (homecoming && prev) {
    const starts = prev.time.anchors.filter((a) => a.role !== 'end').map((a) => ({ ...a, role: 'start' as const }));
    prev.time = { ...prev.time, anchors: [...starts, ...r.time.anchors.map((a) => ({ ...a, role: 'end' as const }))], hasTime: true };
    foldInto(prev, r);
    return true;
  }
  // "front door contact, 9pm to 7am please": a place and a window, nothing else, is a watch
  // ("pool gate, 90 min", "front door cam for the next 2.5 hrs": a place and how long)
  if (
    !r.intent &&
    !r.outOfScope &&
    !r.question &&
    r.mentions.length &&
    (r.time.anchors.length || r.time.night || r.time.recurrence || r.time.dayOffset || r.time.durationMs !== undefined) &&
    !r.time.past
  ) {
    r.intent = 'create_watch';
  }
  // "the cleaner comes around 4 tomorrow, can you watch the living room from 4 to 6": the day carries over
  // ("starting in 20 minutes, watch the front yard for an hour": so does a delayed start)
  const statementDay = r.intent === 'create_watch' && !r.unresolved && !r.time.anchors.some((a) => a.role !== 'end') ? findStatementDay(r, ctx) : undefined;
  if (statementDay !== undefined) {
    r.unresolved = askStartBesideStatement(r, statementDay.word, statementDay.at > r.clause.cue!.start ? statementDay.at : r.clause.to);
    return false;
  }
  if (r.intent === 'create_watch' && r.time.hasTime && r.time.dayOffset === 0 && !r.time.date && r.time.delayMs === undefined) {
    const setting = readings.find((x) => !x.intent && (x.time.dayOffset !== 0 || x.time.date || x.time.delayMs !== undefined));
    // "we go to Pune for the week starting tomorrow, watch the balcony till Saturday": an end of its own and
    // the day of a statement beside it: the watch may start now or when that day comes (docs/decisions.md, "Round K household")
    // (a length or "tonight" is no start either: "…tomorrow, watch the balcony for the week" asks too)
    const ownStart = r.time.anchors.some((a) => a.role !== 'end');
    if (setting && !ownStart && setting.time.delayMs === undefined && !r.unresolved) {
      r.unresolved = askStartBesideStatement(r, saidTime(setting), r.clause.to);
      return false;
    }
    if (setting) {
      r.time = {
        ...r.time,
        dayOffset: setting.time.dayOffset,
        date: setting.time.date,
        ...(setting.time.delayMs !== undefined && !r.time.anchors.some((a) => a.role !== 'end') ? { delayMs: setting.time.delayMs } : {}),
      };
    }
  }
  return false;
}

/**
 * "leave the driveway and the shed ones, bin the rest", "keep the porch one, stop all the others": places
 * said with "keep" or "leave" before a stand-down of every watch are kept out of it, as they are after
 * it (docs/decisions.md, "Round L household: places and words").
 */
function markKeptBeforeRest(readings: Reading[]): void {
  readings.forEach((r, k) => {
    const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
    const first = words.find((w) => !['just', 'please', 'ok', 'okay', 'so'].includes(w));
    // "keep the garage watch, stop all the others": "watch" there names the watch kept, not a new one
    const keptWatch = r.intent === 'create_watch' && ['watch', 'watches'].includes(words.at(-1) ?? '') && !r.time.anchors.length && !r.conditions.length;
    // ("leave the driveway watch alone, stop all the others": the watch left running, not the place left out)
    const leftAlone = r.intent === 'set_boundary' && words.at(-1) === 'alone' && words.some((w) => ['watch', 'one'].includes(w)) && !r.time.anchors.length;
    if ((r.intent && !keptWatch && !leftAlone) || r.question || !r.mentions.length) return;
    if ((first === 'keep' || first === 'leave') && readings.slice(k + 1).some((x) => x.intent === 'stand_down' && x.wantsAll && !x.question)) r.intent = 'keep';
  });
  // "bin the rest" with nothing kept in the message: the rest of what is not said, so it is asked
  if (readings.some((r) => r.intent === 'keep')) return;
  for (const r of readings) {
    const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
    const restAt = words.findIndex((w, k) => (w === 'rest' || w === 'others') && words[k - 1] === 'the');
    // "stop all the others": the "all" of "all the others" is no "all" of its own; the others of nothing said are asked
    const all = words.some((w, k) => ['all', 'every', 'everything'].includes(w) && k !== restAt - 2);
    if (r.intent !== 'stand_down' || restAt < 0 || r.exceptSensorIds.length || all) continue;
    r.wantsAll = false;
    // never the watch last made, nor the only one: "the others" is the others of something said
    if (!r.mentions.some((m) => m.place.type !== 'group') && !r.hasReference)
      r.unresolved = `Which watches do you mean by "the ${words[restAt]}"? Tell me the ones to keep, or the ones to stop. I haven't changed anything yet.`;
  }
}

/** A homecoming beside a named stand-down stands down only what is named. */
function foldUnnamedStandDowns(readings: Reading[]): void {
  // "we're back early, stop watching the front yard and the carport": the homecoming stands down
  // only what the message names, not every watch
  for (let k = 0; k < readings.length; k++) {
    const r = readings[k];
    const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
    const named = readings.find((x) => x !== r && x.intent === 'stand_down' && x.mentions.length);
    if (r.intent === 'stand_down' && r.wantsAll && !r.mentions.length && named && !words.some((w) => ['all', 'every', 'everything'].includes(w))) {
      foldInto(named, r);
      readings.splice(k, 1);
      k--;
    }
  }
}

/** A place left out of a watch being made is out of that watch. */
function foldExclusions(readings: Reading[]): void {
  // "watch everything tonight but leave the nursery out": the place is out of the watch being made,
  // not a watch to stand down after it
  for (let k = 1; k < readings.length; k++) {
    const [make, out] = [readings[k - 1], readings[k]];
    if (make.intent !== 'create_watch' || out.intent !== 'stand_down' || !out.clause.contrast || !out.mentions.length || out.question) continue;
    const ids = new Set(out.mentions.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
    // ("watch the hallway tonight but don't watch the hallway": a place named, then taken back, is a conflict to ask about)
    if (make.mentions.some((m) => m.place.type !== 'group' && getPlaceSensors(m.place).every((s) => ids.has(s.id)))) continue;
    const label = out.mentions.map((m) => subjectOf(m.place)).join(' and ');
    make.mentions = make.mentions
      .map((m) =>
        m.place.type === 'group'
          ? { ...m, place: { ...m.place, sensors: m.place.sensors.filter((s) => !ids.has(s.id)), label: `${m.place.label} except ${label}` } }
          : m,
      )
      .filter((m) => getPlaceSensors(m.place).length > 0);
    foldInto(make, out);
    readings.splice(k, 1);
    k--;
  }
}

/**
 * "don't mute the alley camera, just stop the watch on it": a mute said not to be done, beside a stand-down of the
 * same place (named or "it"), only says the stand-down is no mute; the stand-down is done (docs/decisions.md,
 * "Round Q: verbs").
 */
function foldMuteNotWanted(readings: Reading[]): void {
  for (let k = 0; k < readings.length; k++) {
    const r = readings[k];
    if (r.intent !== 'exclude' || !r.negated || r.clause.intent !== 'mute' || !r.mentions.length || r.question) continue;
    const ids = new Set(r.mentions.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
    const samePlace = (x: Reading) =>
      x.mentions.length ? x.mentions.every((m) => getPlaceSensors(m.place).some((s) => ids.has(s.id))) : x.hasReference && readings.indexOf(x) > k;
    const stop = [readings[k - 1], readings[k + 1]].find((x) => x?.intent === 'stand_down' && !x.negated && !x.question && samePlace(x));
    if (!stop) continue;
    if (!stop.mentions.length) stop.mentions = r.mentions.map((m) => ({ ...m }));
    foldInto(stop, r);
    readings.splice(k, 1);
    k--;
  }
}

/** "then" is the time just named. */
function resolveThen(readings: Reading[]): void {
  // "what time is sunset? and watch the garden from then until midnight": "then" is the time just named
  for (let k = 1; k < readings.length; k++) {
    const r = readings[k];
    const thenAt = r.tokens.findIndex(
      (t, j) =>
        j > r.clause.from && j < r.clause.to && t.text === 'then' && ['from', 'after', 'since', 'until', 'till', 'til', 'at'].includes(r.tokens[j - 1].text),
    );
    if (thenAt < 0) continue;
    const role = ['until', 'till', 'til'].includes(r.tokens[thenAt - 1].text) ? 'end' : 'start';
    if (r.time.anchors.some((a) => a.role === role)) continue;
    const named = readings
      .slice(0, k)
      .reverse()
      .flatMap((x) => x.time.anchors)[0];
    if (!named) continue;
    r.time = { ...r.time, anchors: [{ ...named, role }, ...r.time.anchors], hasTime: true };
    r.used.add(thenAt).add(thenAt - 1);
  }
}

/** Someone else's home is not this household's to watch. */
function declineOtherHomes(readings: Reading[]): void {
  // "watch my ex's house", "keep an eye on her flat": someone else's home is not this household's
  // to watch (only the home's own cameras and sensors are); declined, never the whole home
  for (const r of readings) {
    const other = r.mentions.find((m) => {
      const homeAt = r.tokens.findIndex((t, k) => k >= m.start && k < m.end && HOME_WORDS.has(t.text));
      const owner = r.tokens[homeAt - 1];
      return (
        m.place.type === 'group' &&
        m.place.wholeHome &&
        homeAt > 0 &&
        owner &&
        (['his', 'her', 'their'].includes(owner.text) ||
          (isPersonWord(owner.text) && !owner.isVerb && ['my', 'our', 'the', 'a', 'his', 'her', 'their', 'your'].includes(r.tokens[homeAt - 2]?.text ?? '')))
      );
    });
    if (!other || r.question) continue;
    const homeAt = r.tokens.findIndex((t, k) => k >= other.start && k < other.end && HOME_WORDS.has(t.text));
    const owner = r.tokens[homeAt - 1].text;
    r.outOfScope = `I can only watch your own home's cameras and sensors, not ${['his', 'her', 'their'].includes(owner) ? owner : `your ${owner}'s`} ${r.tokens[homeAt].text}.`;
    r.intent = undefined;
  }
}

/** "forget the driveway, do the garage instead": the watch moves. */
/** Words that take back the place just said: "no sorry", "no wait", "I mean", "or rather", "scratch that". */
const SELF_CORRECTION_WORDS = new Set([
  'no',
  'sorry',
  'wait',
  'i',
  'mean',
  'meant',
  'actually',
  'rather',
  'or',
  'correction',
  'scratch',
  'that',
  'oops',
  'make',
  'it',
]);
const SELF_CORRECTION_SIGNS = new Set(['no', 'sorry', 'mean', 'meant', 'rather', 'correction', 'scratch', 'oops']);

/**
 * "watch the garage tonight, no sorry, the shed", "mute the porch camera - I mean the driveway one":
 * the place said after the correction replaces the one before it, in the same request; nothing is done
 * to the place taken back (see docs/decisions.md, "Round H: intent").
 */
function correctPlaceWithinClause(r: Reading): void {
  if (r.question || r.mentions.length < 2) return;
  for (let k = r.mentions.length - 1; k > 0; k--) {
    const between = r.tokens.slice(r.mentions[k - 1].end, r.mentions[k].start);
    const said = between
      .map((t, j) => ({ t, k: r.mentions[k - 1].end + j }))
      .filter(({ t, k: at }) => (SELF_CORRECTION_WORDS.has(t.text) || !r.used.has(at)) && !['the', ',', '-', '–', '—'].includes(t.text));
    if (!said.length || !said.some(({ t }) => SELF_CORRECTION_SIGNS.has(t.text)) || !said.every(({ t }) => SELF_CORRECTION_WORDS.has(t.text))) continue;
    // ("watch the porch, not the garage, no the shed": only the last correction counts)
    for (const { k: at } of said) r.used.add(at);
    for (const m of r.mentions.slice(0, k)) for (let j = m.start; j < m.end; j++) r.used.add(j);
    r.mentions = r.mentions.slice(k);
    return;
  }
}

function moveCorrectedWatches(readings: Reading[]): void {
  // "forget the driveway, do the garage instead": one watch moves to the new place; nothing is
  // stood down and nothing is added (a correction, see docs/decisions.md, "Corrections move")
  for (const r of readings) {
    // said as one clause: "forget the driveway, do the garage instead"
    const insteadAt = r.tokens.findIndex((t, k) => k >= r.clause.from && k < r.clause.to && t.text === 'instead');
    if (r.intent !== 'stand_down' || insteadAt < 0 || r.mentions.length < 2 || r.question) continue;
    const cut = r.mentions.findIndex(
      (m, k) =>
        k > 0 &&
        m.start < insteadAt &&
        r.tokens
          .slice(r.mentions[k - 1].end - 1, m.start)
          .some((t, j, all) => (t.breakAfter && j < all.length - 1) || ['do', 'watch', 'use', 'try', 'and'].includes(t.text)),
    );
    if (cut < 0) continue;
    r.replaces = r.mentions.slice(0, cut);
    r.mentions = r.mentions.slice(cut);
    r.intent = 'update_watch';
    r.hasReference = true;
  }
  for (let k = 0; k + 1 < readings.length; k++) {
    const [off, on] = [readings[k], readings[k + 1]];
    const instead = on.tokens.slice(on.clause.from, on.clause.to).some((t) => t.text === 'instead');
    if (off.intent === 'stand_down' && off.mentions.length && on.mentions.length && instead && (!on.intent || on.intent === 'create_watch') && !on.question) {
      on.intent = 'update_watch';
      on.hasReference = true;
      on.replaces = off.mentions;
      if (!on.time.hasTime) on.time = off.time;
      foldInto(on, off);
      readings.splice(k, 1);
      k--;
    }
  }
}

/** "…? heard something down there", "…, saw someone by the gate": what the user perceived, said with the "I" dropped: a reason. */
const PERCEIVED = new Set(['heard', 'saw', 'noticed', 'spotted', 'seen']);

const REASON_SUBJECTS = new Set(['i', 'we', 'he', 'she', 'they', 'there', 'someone', 'somebody', 'it', 'its', 'my', 'our', 'his', 'her', 'their']);

/**
 * A clause after the request that gives a reason: it has no request, no time, is not a question,
 * and opens with a subject ("I've moved…", "there is a man…", "someone nicked…", "the tenant asked…").
 */
function isReasonClause(r: Reading, ctx: HouseholdContext): boolean {
  // ("…, thought I heard something up there last night": a time in the past is the reason's own)
  if (r.intent || r.question || (r.time.hasTime && !isPastSpan(r.tokens, r.clause.from, r.clause.to)) || r.outOfScope) return false;
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  // "it's the garage I meant", "it too": a correction or a follow-up naming a place, not a reason
  if (words[0] === 'it' && r.mentions.length && !words.some((x) => ['was', 'were', 'been', 'has', 'had', 'keeps', 'is'].includes(x))) return false;
  return isReasonSpan(r.tokens, r.clause.from, r.clause.to, ctx);
}

/** Verbs of a clause telling what happened, and the words that put a time said with them in the past. */
const PAST_VERBS = new Set(['was', 'were', 'had', 'came', 'saw', 'seen', 'spotted', 'heard', 'got', 'went', 'tried', 'broke', 'been', 'did', 'happened']);
const PAST_TIMES = new Set(['last', 'yesterday', 'ago', 'earlier', 'previous']);
const FUTURE_TIMES = new Set(['tonight', 'tomorrow', 'until', 'till', 'from', 'next', 'while', 'when', 'later', 'again', 'and', 'but', 'then']);

/**
 * "…, there were coyotes by the fence last week", "…, we saw someone by the bins yesterday": words after a comma
 * that tell what happened, their time in the past: a reason, not a window or more places to act on
 * (docs/decisions.md, "Before round Q: words").
 */
function isPastSpan(tokens: Token[], from: number, to: number): boolean {
  const words = tokens.slice(from, to).map((t) => t.text);
  return words.some((w) => PAST_VERBS.has(w)) && words.some((w) => PAST_TIMES.has(w)) && !words.some((w) => FUTURE_TIMES.has(w));
}

/** A room or sensor of the home a past reason names beside the request ("…, there were coyotes by the garage last week"): asked about. */
function findPastReasonPlace(r: Reading, from: number, to: number, ctx: HouseholdContext): Mention | undefined {
  if (!isPastSpan(r.tokens, from, to)) return undefined;
  const named = (m: Mention) => r.mentions.some((x) => x.text === m.text);
  return findMentions(r.tokens, from, to, ctx, new Set()).find((m) => (m.place.type === 'room' || m.place.type === 'sensor') && !named(m));
}

/**
 * A sentence of its own, after a request, that tells how things are or were rather than asking
 * for anything: "Black Friday deliveries and porch pirates are a thing around here", "Someone had
 * the neighbours' shed done over on Tuesday". Its places and times describe the world (no watch on
 * "porch pirates", no window on Tuesday); a sentence that sets a time ("we leave at 6") is not one.
 */
function isStatementSentence(r: Reading): boolean {
  if (r.intent || r.question || r.outOfScope || !r.clause.newSentence) return false;
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  const past = words.some((w) => ['had', 'was', 'were', 'did', 'got', 'went', 'came', 'broke', 'stole', 'nicked', 'tried'].includes(w));
  const be = words.slice(1).some((w) => ['is', 'are'].includes(w));
  return past || (be && r.time.anchors.length === 0 && !r.time.night && !r.time.durationMs);
}

/** Words that make the number after them a time or an amount ("at 6", "for 2"). */
const TIME_LEADS = new Set(['at', 'by', 'from', 'till', 'until', 'to', 'for', 'around', 'about', 'on', 'the', 'before', 'after', 'since', 'past', 'til']);

/** What a reason may not swallow: a number, a word no lexicon knows, a request of its own ("…, tenants are moving out and call the plumber"). */
const REASON_LEFTOVER_ROLES = new Set<WordRole>(['number', 'unknown', 'action']);

/** "we both are at work", "they all went out": "both" or "all" after a plural subject counts people, not a time or an amount. */
function isPeopleCount(tokens: Token[], k: number): boolean {
  return ['both', 'all'].includes(tokens[k].text) && ['we', 'they', 'you', 'us', 'them'].includes(tokens[k - 1]?.text ?? '');
}

/** "thought I heard…", "reckon we saw…": the verb that opens what the user believes, its subject after it. */
const THOUGHT_OPENERS = new Set(['thought', 'think', 'reckon', 'reckoned']);

function isThoughtOpener(tokens: Token[], k: number): boolean {
  return THOUGHT_OPENERS.has(tokens[k].text) && ['i', 'we'].includes(tokens[k + 1]?.text ?? '');
}

/** Verbs of telling: said of someone else ("…, I'm a bit spooked and tell my wife"), a request the agent cannot do (docs/decisions.md, "Before round T: probe leaks"). */
const TELL_VERBS = new Set(['tell', 'let', 'warn', 'ask', 'ring', 'phone', 'message']);

/** A reason's words count as read, except those that could still change the request (docs/decisions.md, "Coverage probe"). */
function markReasonUsed(r: Reading, from: number, to: number): void {
  const t = r.tokens;
  const left = findUncovered(t, from, to, new Set(), PLANNER_VOCABULARY).filter(
    // ("…, we've got guests till the milkman comes": an end said in the reason that no time reader knows)
    (u) =>
      (REASON_LEFTOVER_ROLES.has(u.role) && !isPeopleCount(t, u.index) && !isThoughtOpener(t, u.index)) ||
      (u.role === 'time' && isEventEndWord(t, u.index, from)),
  );
  // ("…, I'm a bit spooked and tell my wife": a verb joined on by "and" is read as a part of its own, past the reason's subject)
  for (let k = from + 1; k + 1 < to; k++) {
    let v = k + 1;
    while (v + 1 < to && ['then', 'also', 'just', 'please', 'pls'].includes(t[v].text)) v++;
    const own = t[v].isVerb && t[v].root === t[v].text && (OUT_OF_SCOPE_VERBS.has(t[v].text) || !PLANNER_VOCABULARY.known(t[v]) || TELL_VERBS.has(t[v].text));
    if (t[k].text === 'and' && own && !['me', 'us'].includes(t[v + 1]?.text ?? '')) left.push({ index: v, text: t[v].text, role: 'action' });
  }
  // ("…, we've got guests 37": a bare number no word of time goes with)
  for (let k = from; k < to; k++)
    if (/^\d+$/.test(t[k].text) && !TIME_LEADS.has(t[k - 1]?.text ?? '') && k + 1 === to) left.push({ index: k, text: t[k].text, role: 'number' });
  const keep = new Set(left.map((u) => u.index));
  if (left.length) {
    const said = quoteUncovered(
      t,
      left.sort((a, b) => a.index - b.index),
    ).map((w) => `"${w}"`);
    r.reasonQuestion ??= `I didn't understand ${said.join(' and ')}, so I haven't changed anything — ${ROLE_QUESTIONS[left[0].role]}`;
  }
  for (let k = from; k < to; k++) if (!keep.has(k)) r.used.add(k);
}

/** Words that bound a window ("till 5", "from noon", "by tonight"): a reason said with one may still set the request's time. */
const TIME_BOUNDS = new Set(['till', 'til', 'until', 'from', 'by', 'at', 'before', 'after', 'starting', 'noon', 'midnight']);

/** Words that open a reason with no comma before them ("as" and "since" may open a time or "as well", so not those). */
const BECAUSE_WORDS = new Set(['because', 'cause', 'cos', 'coz', 'cuz']);

/** Where a clause's request ends when a reason follows it after a comma (the clause's end when none does). */
function findReasonCut(tokens: Token[], clause: Clause, ctx: HouseholdContext, time: TimeSpec): number {
  // ("the hay loft between 1 and 3 tonight please, thought I heard something up there last night": said with no
  // verb of its own, the request is cut only before a reason told in the past — docs/decisions.md, "Round S: reasons")
  const start = clause.cue ? Math.max(clause.from, clause.cue.end - 1) : clause.from;
  for (let k = start; k + 1 < clause.to; k++) {
    // ("call off the gate watch, we're not going anywhere this weekend": a request with no window, beside a
    // statement said in the negative, takes no time from it — docs/decisions.md, "Round K household")
    const timeless = clause.intent === 'stand_down' && tokens.slice(k + 1, clause.to).some((t) => classifyWord(t.text) === 'negation');
    // ("scrap the gate watch, we're moving stock through there every night now": a stand-down takes no window,
    // so a time that names no hour and no bound is the reason's — docs/decisions.md, "Round R: reasons, corrections and arming")
    const reasonTime = clause.intent === 'stand_down' && !tokens.slice(k + 1, clause.to).some((t) => /\d/.test(t.text) || TIME_BOUNDS.has(t.text));
    const pastReason = isPastSpan(tokens, k + 1, clause.to);
    if (!clause.cue && !pastReason) continue;
    // ("… tonight because we are hosting a braai": "because" opens a reason as a comma does — docs/decisions.md, "Round T: reasons")
    const opensReason = tokens[k].breakAfter === ',' || (!tokens[k].breakAfter && BECAUSE_WORDS.has(tokens[k + 1].text));
    if (!opensReason || ([...time.consumed].some((j) => j > k && j < clause.to) && !timeless && !pastReason && !reasonTime)) continue;
    if (isReasonSpan(tokens, k + 1, clause.to, ctx)) return k + 1;
  }
  return clause.to;
}

/** The words tokens[from, to) open with a subject and a verb and ask for nothing: a reason. */
function isReasonSpan(tokens: Token[], from: number, to: number, ctx: HouseholdContext): boolean {
  const words = tokens.slice(from, to).map((t) => t.text);
  let first = words.findIndex((w) => !['and', 'but', 'because', 'cause', 'cos', 'since', 'as', 'so', 'coz'].includes(w));
  // ("…, thought I heard something up there last night": the "I" after "thought" is the reason's subject)
  if (first >= 0 && isThoughtOpener(tokens, from + first)) first++;
  const w = words[first];
  // "…, as the lock is not what it was", "…, because the fence is down": said as a reason
  const because = first > 0 && ['because', 'cause', 'cos', 'coz', 'as', 'since'].includes(words[first - 1]);
  if (w === undefined || words.length - first < 2 || words.some((x) => ['meant', 'mean', 'want', 'wanted', 'need', 'like', 'please'].includes(x))) return false;
  // ("…? heard something", "…, saw a fox": the verb is the clause's first word)
  if (PERCEIVED.has(w)) return tokens[from + first].isVerb;
  if (words.length - first < 3) return false;
  // "the tenant upstairs asked me to", "the pool guy comes early": a person, then what they did
  const personFirst = isPersonSubject(tokens, from + first, to, ctx);
  if (!REASON_SUBJECTS.has(w) && !personFirst && !because && !isThingSubject(tokens, from + first, to, ctx) && !isPlaceSubject(tokens, from + first, to, ctx))
    return false;
  return words.some((_x, k) => k > first && tokens[from + k].isVerb);
}

/** Verbs that say what a place is doing or did, never what is asked of it ("keeps creaking", "is open", "sounds odd"). */
const PLACE_STATE_VERBS = new Set(['is', 'was', 'has', 'had', 'keeps', 'kept', 'sounds', 'sounded', 'seems', 'looks', 'makes', 'made', 'creaks', 'creaked']);

/**
 * "…, the attic keeps creaking", "…, the back door is open again": "the" and a place (this home's or any
 * home's), then a verb that tells how it is: a reason, whose place is never the request's target.
 */
function isPlaceSubject(tokens: Token[], k: number, to: number, ctx: HouseholdContext): boolean {
  if (!['the', 'my', 'our'].includes(tokens[k]?.text ?? '')) return false;
  const places = listPlaceWords(ctx);
  for (let j = k + 1; j < Math.min(to - 1, k + 4); j++) {
    const w = tokens[j].text;
    if (!places.includes(w) && !isPlaceWord(w)) return false;
    if (PLACE_STATE_VERBS.has(tokens[j + 1].text)) return true;
  }
  return false;
}

/** Words for a group of workers, said after what they do ("shearing gang", "building crew"): people. */
const PEOPLE_GROUPS = new Set(['gang', 'crew', 'team', 'mob']);

/** Verbs after one person said bare that tell of them, never ask ("maid is coming", "plumber comes at 4"). */
const BARE_PERSON_VERBS = new Set(['is', 'was', 'has', 'will', 'comes', 'came', 'arrives', 'arrived', "'s"]);

/**
 * "the tenant upstairs asked me to", "the window fella is coming", "lads are doing the gutters": a person
 * (after "the", "my" or "our" and at most one word more), or people said bare, then what they do.
 */
function isPersonSubject(tokens: Token[], k: number, to: number, ctx: HouseholdContext): boolean {
  const places = listPlaceWords(ctx);
  const person = (j: number) => j < to && isPersonWord(tokens[j].text) && !places.includes(tokens[j].text);
  // (people said bare, in the plural: "lads are…", "builders are in"; or one, then a verb of being or coming: "maid is coming")
  // ("the road crew are digging out there": a group takes "are" and "were" too — docs/decisions.md, "Round T: reasons")
  const bareOne = (j: number) =>
    j + 2 < to &&
    !isPlaceWord(tokens[j].text) &&
    (BARE_PERSON_VERBS.has(tokens[j + 1].text) || (PEOPLE_GROUPS.has(tokens[j].text) && ['are', 'were'].includes(tokens[j + 1].text))) &&
    !tokens.slice(j + 2, to).some((t) => places.includes(t.text));
  // ("shearing gang is here", "cleaning lady comes at 9": one known word of what they do, then the person)
  const group = (j: number) => j < to && PEOPLE_GROUPS.has(tokens[j].text);
  if (['the', 'my', 'our'].includes(tokens[k]?.text ?? ''))
    return (
      person(k + 1) ||
      (person(k + 2) && tokens[k + 1].isNoun && !tokens[k + 1].unknown && k + 3 < to && tokens[k + 3].isVerb) ||
      (group(k + 2) && !tokens[k + 1].unknown && !places.includes(tokens[k + 1].text) && bareOne(k + 2))
    );
  if (!person(k) && (person(k + 1) || group(k + 1)) && !tokens[k].unknown && !places.includes(tokens[k].text) && /^[a-z]+$/.test(tokens[k].text))
    return bareOne(k + 1);
  return person(k) && ((tokens[k].text.endsWith('s') && k + 1 < to && tokens[k + 1].isVerb) || bareOne(k));
}

/**
 * "…, the possums keep tripping it", "…, the wind sets it off": "the" and a noun that names no place, sensor
 * or time of this home, then a verb of its own — something else doing something, a reason. The noun is a
 * thing, not a place any home could have ("the attic…"), a kind of sensor ("the camera too") or a reference
 * ("the other one"). See docs/decisions.md, "Round L household: places and words"; "a gecko keeps…" and
 * "the gate latch is…" likewise ("Round O: words").
 */
function isThingSubject(tokens: Token[], k: number, to: number, ctx: HouseholdContext): boolean {
  if (!['the', 'my', 'our', 'those', 'these', 'some', 'a', 'an'].includes(tokens[k]?.text ?? '')) return false;
  if (isThingNoun(tokens[k + 1], ctx) && k + 2 < to) return tokens[k + 2].isVerb && !tokens[k + 2].isNoun;
  // "…, the gate latch is busted": a thing of a place (any word before it), then a verb
  const [modifier, noun, verb] = [tokens[k + 1], tokens[k + 2], tokens[k + 3]];
  if (!modifier?.isNoun || modifier.unknown || !isThingNoun(noun, ctx) || k + 3 >= to) return false;
  return PLACE_STATE_VERBS.has(verb.text);
}

/** A noun that names no place, sensor kind, reference or time of this home or of any home ("possums", "wind", "latch"). */
function isThingNoun(noun: Token | undefined, ctx: HouseholdContext): boolean {
  if (!noun || !noun.isNoun || noun.isVerb || !/^[a-z]{3,}$/.test(noun.text) || noun.unknown) return false;
  const w = noun.text;
  if (listPlaceWords(ctx).includes(w) || w in KIND_WORDS || WHOLE_HOME_WORDS.has(w) || REFERENCE_WORDS.has(w) || VAGUE_SUBJECTS.has(w)) return false;
  return !isPlaceWord(w) && classifyWord(w) === undefined;
}

/** Words for a whole home, which another person's possessive makes theirs ("my ex's house"). */
const HOME_WORDS = new Set(['house', 'home', 'place', 'flat', 'apartment', 'property', 'bungalow', 'cottage', 'condo', 'unit']);

/** "both watches", "both of them", "both the watches": every watch the clause is about. */
/**
 * "all" inside a set phrase that says nothing of how many watches: "at all", "after all", "all
 * right", "all in all", "that's all", "all good", "we're all in" (see docs/decisions.md, "Round H: intent").
 */
function isAllOfAPhrase(words: string[], k: number): boolean {
  if (words[k] !== 'all') return false;
  const [before, after] = [words[k - 1] ?? '', words[k + 1] ?? ''];
  if (['at', 'after', 'above', "that's", 'thats', "we're", 'were', 'we', "y'all", 'you', 'thanks', 'cheers', 'is'].includes(before)) return true;
  return ['right', 'good', 'set', 'clear', 'fine', 'done', 'ok', 'okay', 'in', 'out', 'home', 'back', 'away', 'of'].includes(after);
}

function isBothWatches(words: string[], k: number): boolean {
  return words[k] === 'both' && ['watches', 'of', 'the'].includes(words[k + 1] ?? '');
}

/** Words that open a correction of what was just done ("no, I meant…", "sorry, …", "actually …"). */
const CORRECTION_OPENERS = new Set(['no', 'nope', 'sorry', 'oops', 'actually', 'rather', 'correction']);

/** Sounds of hesitation that may come before a correction's opener ("hmm no, just the camera"). */
const HESITATIONS = new Set(['hmm', 'hmmm', 'hm', 'um', 'umm', 'uh', 'er', 'erm', 'ah', 'oh']);

/** The message corrects the conversation's last request rather than adding one. */
function isCorrection(tokens: Token[]): boolean {
  const words = tokens.map((t) => t.text);
  while (HESITATIONS.has(words[0]) && CORRECTION_OPENERS.has(words[1])) words.shift();
  if (CORRECTION_OPENERS.has(words[0]) && words[1] !== 'need' && words[1] !== 'longer' && words[1] !== 'more') return true;
  return words.some((w, k) => w === 'i' && (words[k + 1] === 'meant' || words[k + 1] === 'mean'));
}

/** A clause folded into the reading before it: its words count for that reading's coverage. */
function foldInto(prev: Reading, r: Reading): void {
  prev.spans.push(...r.spans);
  for (const k of r.used) prev.used.add(k);
}

/**
 * A follow-up that takes the earlier request ("watch the basement for 2 hours" — "three and a half
 * then"): an amount said without its unit is in hours when the earlier request was for hours.
 * Anything else leaves the amount unused, so the agent asks.
 */
function giveAmountItsUnit(r: Reading, source: Reading): Reading {
  const amount = r.time.unitlessAmount;
  if (!amount || r.time.hasTime || source.time.durationMs === undefined || source.time.durationMs < 3_600_000 || source.intent !== 'create_watch') return r;
  r.time = { ...r.time, durationMs: amount.value * 3_600_000, hasTime: true };
  for (const k of amount.tokens) r.used.add(k);
  return r;
}

/** A follow-up takes the earlier request's intent, and its time and conditions unless it has its own. */
function inheritRequest(r: Reading, source: Reading, fromConversation = false, ctx?: HouseholdContext): void {
  r.intent = source.intent;
  // "watch the letterbox tomorrow morning" (asked which hours) — "from 8 till 11": that morning's hours
  if (r.time.hasTime && source.time.dayPart && r.time.anchors.some((a) => a.kind === 'clock')) r.time = settleDayPart(r.time, source.time);
  if (!r.time.hasTime) r.time = source.time;
  else if (fromConversation && source.time.hasTime && !source.time.past) {
    // "watch the backyard from 7" — "till midnight": the answer adds the end, the start stays
    const roles = new Set(r.time.anchors.map((a) => a.role));
    // "from half nine till six" — "sorry, I meant half ten": one time said alone replaces the start
    const kept = source.time.anchors
      .filter((a) => !roles.has(a.role === 'point' ? 'start' : a.role) && !(roles.has('point') && (a.role === 'point' || a.role === 'start')))
      .map((a) => (a.role === 'point' && roles.has('end') ? { ...a, role: 'start' as const } : a));
    // "same on friday": a day the follow-up names moves the kept times to it
    const newDay = r.time.date !== undefined || r.time.dayOffset !== 0;
    if (newDay)
      kept.forEach((a, k) => {
        if (a.kind === 'clock' && a.date && !a.dateOnly) kept[k] = { ...a, date: undefined };
      });
    let own = r.time.anchors.map((a) => (a.role === 'point' && kept.some((k) => k.role === 'end') ? { ...a, role: 'start' as const } : a));
    // "watch the kitchen from 11" — "till 7 tomorrow": the day said with the end dates the end only;
    // the kept start stays its next occurrence (docs/decisions.md, "Round L household: times")
    // "…from 8pm to 6am" — "the shed too but from 10": a bare hour that replaces a time keeps that time's half of the day
    if (kept.length) own = own.map((a) => keepHalfOfReplaced(a, source.time.anchors));
    const endDay = dateEndOnly(r, source, kept, own, ctx);
    if (endDay) own = own.map((a) => (a.kind === 'clock' && !a.date ? { ...a, date: endDay } : a));
    if (kept.length)
      r.time = {
        ...r.time,
        anchors: [...kept, ...own],
        night: r.time.night || source.time.night,
        dayOffset: endDay ? source.time.dayOffset : r.time.dayOffset || source.time.dayOffset,
        date: r.time.date ?? source.time.date,
      };
    // "watch the garden tonight" — "same again tomorrow": the night moves to the day named
    else if (newDay && source.time.night && !r.time.anchors.length && r.time.durationMs === undefined && !r.time.recurrence)
      r.time = { ...r.time, night: true };
    else r.time = takeAskedDay(r.time, source.time, newDay);
  }
  if (!r.conditions.length) r.conditions = source.conditions;
  if (!r.mentions.length) r.mentions = source.mentions;
  r.startRequested ||= source.startRequested;
}

/**
 * A clock said with no am/pm that replaces a time of the request before ("from 8pm to 6am" — "but from 10") is in
 * the half of the day nearest the time it replaces (22:00, not 10:00), when that time's half was said; a tie or any
 * other anchor is kept as read (docs/decisions.md, "Before round S: follow-ups").
 */
function keepHalfOfReplaced(a: TimeSpec['anchors'][number], before: TimeSpec['anchors']): TimeSpec['anchors'][number] {
  if (a.kind !== 'clock' || a.meridiemCertain || a.date || a.hour > 12) return a;
  const replaced = before.find((b) => b.role === a.role);
  if (replaced?.kind !== 'clock' || !replaced.meridiemCertain) return a;
  const distance = (h: number) => Math.min(Math.abs(h - replaced.hour), 24 - Math.abs(h - replaced.hour));
  const [am, pm] = [a.hour % 12, (a.hour % 12) + 12];
  if (distance(am) === distance(pm)) return a;
  return { ...a, hour: distance(am) < distance(pm) ? am : pm, meridiemCertain: true };
}

/**
 * "watch the living room while I'm at work tomorrow" (asked until when) — "9 to 6": the hours are
 * of the day the request named, not today's (docs/decisions.md, "Round Q: bare hours").
 */
function takeAskedDay(time: TimeSpec, source: TimeSpec, newDay: boolean): TimeSpec {
  if (newDay || (!source.dayOffset && !source.date) || source.night || !time.anchors.some((a) => a.kind === 'clock' && a.role === 'start')) return time;
  if (time.anchors.some((a) => a.kind === 'clock' && a.date)) return time;
  return { ...time, dayOffset: source.dayOffset, date: source.date };
}

/** The day of a follow-up that says only an end and a relative day ("till 7 tomorrow") after a request with a start of its own and no day. */
function dateEndOnly(r: Reading, source: Reading, kept: Reading['time']['anchors'], own: Reading['time']['anchors'], ctx: HouseholdContext | undefined) {
  if (!ctx || r.time.dayOffset <= 0 || r.time.date || source.time.dayOffset || source.time.date) return undefined;
  if (!own.length || !own.every((a) => a.role === 'end' && a.kind === 'clock' && !a.date)) return undefined;
  // only a start still ahead today, its own half of the day or the evening's when none was said ("from 9" said at 21:30 is tomorrow's)
  const now = toWallClock(ctx.now, ctx.timeZone);
  const start = kept.find((a) => a.role === 'start');
  if (start?.kind !== 'clock' || start.date) return undefined;
  const hour = start.meridiemCertain ? start.hour : (start.hour % 12) + 12;
  const ahead = hour * 60 + start.minute - (now.hour * 60 + now.minute);
  // (an open hour is tonight's only when said in the evening, a few hours before: as src/platform/language/time/watch-window.ts, isTonightStart)
  if (ahead <= 0 || (!start.meridiemCertain && (now.hour < 17 || ahead > 2 * 60))) return undefined;
  return { ...addDays(toLocalDate(ctx.now, ctx.timeZone), r.time.dayOffset), hour: 0, minute: 0 };
}

const NOT_REPEATABLE = new Set<IntentKind>(['help', 'ask_watch', 'ask_muted', 'ask_boundary', 'keep', 'exclude']);

/**
 * "and the same again tomorrow night" after a turn that only asked: no window was set to repeat, so the agent asks.
 * A request that said its own time and was asked about or declined still said it ("watch Mere's room tonight"
 * (declined) — "just the lounge then, same time"): its time is taken, and asked about again if still open
 * (docs/decisions.md, "Before round R: follow-ups").
 */
function askWhenNothingToRepeat(r: Reading, source: Reading, ctx: HouseholdContext): void {
  if (source.intent === 'create_watch' && !(source.time.hasTime && !source.time.past && r.mentions.length) && !didPreviousRequestAct(ctx))
    r.unresolved = "I haven't set up a watch in this conversation yet, so there is nothing to repeat. What should I watch, and from when until when?";
}

/** Whether the turn of the conversation's last request created or changed a watch ("the same again" repeats only what was done). */
function didPreviousRequestAct(ctx: HouseholdContext): boolean {
  const turns = ctx.conversation?.turns ?? [];
  for (let t = turns.length - 1; t >= Math.max(0, turns.length - 4); t--) {
    const readings = readMessage(turns[t].message, { ...ctx, conversation: { turns: turns.slice(0, t) } }, 1);
    if (readings.some((r) => r.intent && !NOT_REPEATABLE.has(r.intent)))
      return turns[t].actions.some((a) => a.type === 'watch.created' || a.type === 'watch.updated');
  }
  return false;
}

/** The conversation's last turn asked for a new watch from a start with no end and changed nothing ("from 10pm" — asked until when). */
function wasRequestAskedAbout(ctx: HouseholdContext): boolean {
  const turns = ctx.conversation?.turns ?? [];
  const last = turns.at(-1);
  if (!last || last.actions.length) return false;
  const readings = readMessage(last.message, { ...ctx, conversation: { turns: turns.slice(0, -1) } }, 1);
  return readings.some(
    (x) =>
      x.intent === 'create_watch' &&
      x.time.anchors.some((a) => a.role === 'start') &&
      !x.time.anchors.some((a) => a.role === 'end') &&
      x.time.durationMs === undefined &&
      !x.time.recurrence,
  );
}

/** The last request of the conversation that had an intent, read again ("what about the garage?"). */
function findPreviousRequest(ctx: HouseholdContext): Reading | undefined {
  const turns = ctx.conversation?.turns ?? [];
  const corrections: Reading[] = [];
  for (let t = turns.length - 1; t >= Math.max(0, turns.length - 4); t--) {
    const readings = readMessage(turns[t].message, { ...ctx, conversation: { turns: turns.slice(0, t) } }, 1);
    // questions answered from state are not requests to repeat ("when does it start?")
    const last = [...readings].reverse().find((r) => r.intent && !NOT_REPEATABLE.has(r.intent));
    if (last) return withPendingCorrections(last, corrections);
    const correction = readings.length === 1 && !turns[t].actions.length ? readings[0] : undefined;
    if (correction?.time.hasTime && !correction.intent && !correction.mentions.length && !correction.hasReference) corrections.push(correction);
  }
  return undefined;
}

/**
 * "watch the lounge from 10 tonight till 6" — "which lounge?" — "no wait, half ten" — "the lounge
 * room": a time said alone while the request was still asked about corrects that request, keeping
 * what it does not change, as it would a watch already made (see docs/decisions.md, "Round I: the time grammar").
 */
function withPendingCorrections(request: Reading, corrections: Reading[]): Reading {
  let out = request;
  for (const c of [...corrections].reverse()) {
    const r: Reading = { ...c, mentions: [], conditions: [] };
    inheritRequest(r, out, true);
    out = { ...out, time: r.time };
  }
  return out;
}

function readClause(tokens: Token[], clause: Clause, ctx: HouseholdContext, urls: string[], time: TimeSpec, message: string): Reading {
  const { from, to } = clause;
  const { rawMentions, found, excluded, mentions, inMention } = readClauseMentions(tokens, clause, ctx, time);
  const words = tokens.slice(from, to).map((t) => t.text);
  const conditions = readConditions(tokens, clause, words, inMention, excluded, time.consumed);
  const { named, people, peopleQuestion } = readNamedPeople(message, ctx, conditions);
  if (conditions.has('loitering') || conditions.has('unrecognized_person') || conditions.has('recognized_person')) conditions.delete('person');
  // "is it open?" describes; "tell me if it opens" watches for it
  const text = words.join(' ');
  const read = readIntent(tokens, clause, words, text, time);
  let intent = read.intent;
  const outOfScope = read.outOfScope;
  const negationAt = findNegation(tokens, from, to, clause);
  // ("…, not the camera": a kind word left out, which refineMentions folds into the places, is left out too)
  const leftOutKinds = rawMentions.filter((m) => !found.includes(m) && isExcludedMention(tokens, m.start, from));
  const negated = negationAt >= 0 && !onlyExcludes(tokens, negationAt, mentions, [...excluded, ...leftOutKinds]);
  const question = isQuestion(words);
  intent = scopeIntent(intent, { negated, question, words, clause });
  // "is the dog in the yard?": a question about a place, with no other cue, is answered from what the place shows
  if (question && !intent && mentions.some((m) => m.place.type !== 'group' || !m.place.wholeHome) && !time.past && !time.sinceMs) intent = 'describe';
  const hasReference = words.some(
    (w, k) =>
      REFERENCE_WORDS.has(w) &&
      !inMention.has(from + k) &&
      !(w === 'there' && words[k - 1] !== 'in') &&
      // "the porch one": named by its place
      !((w === 'one' || w === 'ones') && inMention.has(from + k - 1)),
  );
  const used = collectUsed(
    tokens,
    clause,
    time,
    [...found, ...rawMentions],
    conditions,
    named && 'people' in named ? named.people : [],
    negationAt,
    question || intent === 'set_location',
  );
  // "…and call it the side gate camera": the words that name a new sensor are read (planAddSensor)
  const naming = intent === 'add_sensor' ? findNewSensorNameSpan(words) : undefined;
  if (naming) for (let k = naming.start; k < naming.end; k++) used.add(from + k);
  return {
    used,
    spans: [[from, to]],
    intent,
    clause,
    tokens,
    mentions,
    time,
    conditions: [...conditions],
    people,
    peopleQuestion,
    hasReference,
    wantsAll: readWantsAll(words, from, time, intent, mentions, text),
    startRequested: words.includes('start') || words.includes('begin') || words.includes('starting'),
    negated,
    question,
    outOfScope,
    outOfScopeRequest: read.outOfScopeRequest,
    excluded,
    exceptSensorIds: readExceptSensorIds(tokens, rawMentions, from),
    hesitation: (intent === 'help' && words.some((w) => HESITATION_WORDS.has(w))) || (words.includes('not') && words.includes('sure')) || isUndecided(words),
    urls,
    text,
    message,
  };
}

/**
 * "stop watching the garage but keep the sensors on": kept on is left unmuted, as it is — the stand-down
 * alone, with no question about which sensors (docs/decisions.md, "Round O: words"). Only every sensor
 * (or camera) of the home said by its kind in the plural, with "on"; a place named is read as before.
 */
function markKept(readings: Reading[]): void {
  markKeptBeforeRest(readings);
  for (const r of readings) if (keepsKindsOn(r, readings)) r.mentions = [];
}

function keepsKindsOn(r: Reading, readings: Reading[]): boolean {
  if (r.intent !== 'keep' || !r.mentions.length || !r.text.split(' ').includes('on')) return false;
  if (!readings.some((x) => x.intent === 'stand_down') || readings.some((x) => x.intent === 'mute')) return false;
  return r.mentions.every((m) => m.place.type === 'ambiguous' && /^(?:(?:the|all|my|your|of) )*(?:sensors|cameras|cams)$/.test(m.text));
}

/** The places a clause names: all found, those it leaves out ("not the driveway"), those it asks about, and their tokens. */
function readClauseMentions(
  tokens: Token[],
  clause: Clause,
  ctx: HouseholdContext,
  time: TimeSpec,
): { rawMentions: Mention[]; found: Mention[]; excluded: Mention[]; mentions: Mention[]; inMention: Set<number> } {
  const { from, to } = clause;
  const consumed = new Set(time.consumed);
  // the cue's own words are not places ("turn … back on"), except names inside it ("watch" is no room)
  if (clause.cue) for (const k of clause.cue.matched) if (!isPlaceToken(tokens[k], ctx) || tokens[k].text === 'back') consumed.add(k);
  const rawMentions = findMentions(tokens, from, to, ctx, consumed);
  const found = refineMentions(rawMentions, tokens);
  // "watch the garage, not the driveway": a place under "not" / "except" is left out of the request
  // ("…, not the whole yard": a room's whole said under "not" is left out too; docs/decisions.md, "Round Q: places")
  const wholeRoom = (m: Mention) => m.place.type === 'group' && !m.place.wholeHome && tokens[m.start]?.text === 'whole';
  const excluded = found.filter((m) => (m.place.type !== 'group' || wholeRoom(m)) && isExcludedMention(tokens, m.start, from));
  const mentions = found.filter((m) => !excluded.includes(m));
  const inMention = new Set<number>();
  for (const m of mentions) for (let k = m.start; k < m.end; k++) inMention.add(k);
  return { rawMentions, found, excluded, mentions, inMention };
}

/** Words that open the object of a verb ("move the …", "move it …"). */
const OBJECT_OPENERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'this', 'that', 'these', 'those', 'it', 'them', 'both', 'all', 'every', 'each']);

/** The conditions a clause's words name ("a person", "the door opens", "someone I don't recognise"), outside its places. */
function readConditions(tokens: Token[], clause: Clause, words: string[], inMention: Set<number>, excluded: Mention[], timeWords: Set<number>): Set<Condition> {
  const conditions = new Set<Condition>();
  // a place left out ("not the bike room") names no object to look for either
  const inExcluded = new Set(excluded.flatMap((m) => Array.from({ length: m.end - m.start }, (_, j) => m.start + j)));
  for (let k = clause.from; k < clause.to; k++) {
    if (inMention.has(k) || inExcluded.has(k)) continue;
    // "move the porch one", "move it to 9": moving something is an edit, not movement to look for
    if (CONDITION_WORDS[tokens[k].text] === 'motion' && tokens[k].isVerb && OBJECT_OPENERS.has(tokens[k + 1]?.text ?? '')) continue;
    const c = CONDITION_WORDS[tokens[k].text];
    // ("until we open at 8" is a time, read by ../../platform/language/time/business-hours.ts, not a door opening)
    if (c === 'door_open' && timeWords.has(k)) continue;
    if (c) conditions.add(c);
  }
  // "someone I don't recognise", "anyone we don't know": a stranger
  if (/\b(not|never) (recogni[sz]e|know)\b/.test(words.join(' '))) conditions.add('unrecognized_person');
  return conditions;
}

/**
 * "the cellar door, not the bike room": the "not" takes the place after it out of the request; it
 * does not turn the request around (the places before it are still what was asked for).
 */
function onlyExcludes(tokens: Token[], negationAt: number, mentions: Mention[], excluded: Mention[]): boolean {
  return (
    negationAt >= 0 &&
    mentions.length > 0 &&
    tokens[negationAt].text === 'not' &&
    excluded.some((m) => m.start > negationAt && tokens.slice(negationAt + 1, m.start).every((t) => ['the', 'my', 'our'].includes(t.text)))
  );
}

/** "all the watches", "everything"; and "we're back, you can relax": every watch stands down. */
function readWantsAll(words: string[], from: number, time: TimeSpec, intent: IntentKind | undefined, mentions: Mention[], text: string): boolean {
  return (
    words.some(
      (w, k) => (['all', 'every', 'everything'].includes(w) || isBothWatches(words, k)) && !time.consumed.has(from + k) && !isAllOfAPhrase(words, k),
    ) ||
    (intent === 'stand_down' && !mentions.length && /\b(relax|(we|i) (are|am|be) (back|home)|back home|home now)\b/.test(text)) ||
    // "…, bin the rest", "stop the others": every watch but those kept (markKeptBeforeRest)
    (intent === 'stand_down' && words.some((w, k) => (w === 'rest' || w === 'others') && words[k - 1] === 'the'))
  );
}

/** The sensors named after "except", "but (not)", "apart from" and the like: kept out of an "all" request. */
function readExceptSensorIds(tokens: Token[], rawMentions: Mention[], from: number): string[] {
  return rawMentions
    .filter(
      (m) =>
        tokens
          .slice(Math.max(from, m.start - 4), m.start)
          .some((t) => ['except', 'but', 'besides', 'excluding', 'apart', 'aside', 'not', 'without', 'minus'].includes(t.text)) ||
        isInExceptList(tokens, rawMentions, m.start, from),
    )
    .flatMap((m) => getPlaceSensors(m.place).map((s) => s.id));
}

/** The known people a clause names, the condition they bring, or the question an unknown or ambiguous name asks. */
function readNamedPeople(
  message: string,
  ctx: HouseholdContext,
  conditions: Set<Condition>,
): { named: ReturnType<typeof findPeople>; people: ContextPerson[]; peopleQuestion?: string } {
  // "when Maria arrives": a known person, recognized by face; a name nobody answers to is asked about
  // read on the message as typed: names are not corrected like words, and a capital marks one
  const named = findPeople(message, ctx.people ?? []);
  let people: ContextPerson[] = [];
  let peopleQuestion: string | undefined;
  if (named && 'people' in named) {
    people = named.people;
    conditions.add('recognized_person');
  } else if (named && 'ambiguous' in named) {
    peopleQuestion = `Who do you mean by "${named.said}": ${named.ambiguous.map((p) => p.name).join(' or ')}?`;
  } else if (named) {
    const known = ctx.people?.length ? ` The people I know are ${ctx.people.map((p) => p.name).join(', ')}.` : " I don't know anyone's face yet.";
    peopleQuestion = named.relation
      ? `I don't know who ${named.unknown} is: I only recognize people you enrolled.${known} Add them under People with a photo of their face first, or tell me who you mean.`
      : `I don't know anyone called ${named.unknown}.${known} Add them under People with a photo of their face first, or tell me who you mean.`;
  }
  return { named, people, peopleQuestion };
}

/** The clause's intent from its cue and first word, or why it is out of scope. */
function readIntent(
  tokens: Token[],
  clause: Clause,
  words: string[],
  text: string,
  time: TimeSpec,
): { intent: IntentKind | undefined; outOfScope?: string; outOfScopeRequest?: boolean } {
  let intent = clause.intent;
  const first = words.find((w) => !['please', 'can', 'could', 'would', 'you', 'just', 'ok', 'okay', 'now', 'then', 'also'].includes(w));
  let outOfScope: string | undefined;
  let outOfScopeRequest = false;
  // ("stop the den camera from recording": a word of a mute cue is the cue's, see vocabulary.ts)
  const muteCue = new Set(intent === 'mute' ? (clause.cue?.matched ?? []).map((k) => tokens[k].text) : []);
  const oosNoun = words.find((w) => OUT_OF_SCOPE_NOUNS.has(w) && !muteCue.has(w));
  const strongCue = clause.cue && clause.cue.words >= 2;
  const cueOwnsFirst = clause.cue !== undefined && clause.cue.matched.some((k) => tokens[k].text === first);
  if (first && OUT_OF_SCOPE_VERBS.has(first) && !cueOwnsFirst && intent !== 'rename_room' && !(first === 'open' && intent === 'describe')) {
    outOfScope = describeOutOfScope(text, first);
    outOfScopeRequest = true;
  } else if (oosNoun && ['recording', 'record', 'filming'].includes(oosNoun) && isQuestion(words)) {
    intent = 'ask_watch';
  } else if (oosNoun && (!strongCue || ['mute', 'unmute', 'create_watch'].includes(intent ?? ''))) {
    outOfScope = describeOutOfScope(text, oosNoun);
    // "turn on the porch light" asks for something; "the new lock is installed" tells
    const opener = tokens.slice(clause.from, clause.to).find((t) => t.text === first);
    outOfScopeRequest = opener !== undefined && opener.isVerb && !opener.isNoun && !AUXILIARIES.has(opener.text);
  }
  // questions without a cue: "any cars in the driveway today?"
  const since = words.includes('since') && time.anchors.length > 0;
  if (!intent && first && ['any', 'anyone', 'anybody', 'anything', 'did', 'were', 'was'].includes(first))
    intent = time.sinceMs || time.night || since ? 'list_events' : 'describe';
  if (intent === 'describe' && since) intent = 'list_events';
  if (intent === 'describe' && time.sinceMs) intent = 'list_events';
  // "who's been in the backyard?", "what's been going on?", "what happened while I was out?": the past
  if ((!intent || intent === 'describe') && (words.includes('been') || words.includes('happened') || time.past) && isQuestion(words)) intent = 'list_events';
  return { intent, outOfScope, outOfScopeRequest };
}

/** The words a clause's reading used; what is left over is checked before any action (see docs/decisions.md, "Coverage before action"). */
/**
 * A word in a cue's gap that the cue may take as its own ("turn the lights off": "the"). A word no lexicon
 * knows is none of the cue's, nor is a noun or verb that no place reader took ("turn the pool pump off":
 * "pump" stays left over, so coverage asks; the places' own words are marked by their mentions) — see
 * docs/decisions.md, "Round P: household".
 */
function isCueGapFiller(token: Token): boolean {
  return !token.unknown && !token.isNoun && !token.isVerb;
}

function collectUsed(
  tokens: Token[],
  clause: Clause,
  time: TimeSpec,
  mentions: Mention[],
  conditions: Set<Condition>,
  people: ContextPerson[],
  negationAt: number,
  question: boolean,
): Set<number> {
  const { from, to } = clause;
  const used = new Set<number>();
  for (const k of time.consumed) used.add(k);
  if (clause.cue) {
    // ("leave the nursery and the zorble alone": a word no lexicon knows inside the cue's gap is none of the cue's — docs/decisions.md, "Coverage probe")
    for (let k = clause.cue.start; k < clause.cue.end; k++) if (isCueGapFiller(tokens[k]) || clause.cue.matched.includes(k)) used.add(k);
    // "let me know when …", "tell me who …": the word that opens what to look for ("turn the camera back on when the
    // cleaner leaves": after a change that looks for nothing it says when to make it, which no reader reads — docs/decisions.md,
    // "Before round S: probe leaks")
    const looksFor = !clause.intent || !STATE_INTENTS.has(clause.intent) || clause.intent === 'create_watch' || clause.intent === 'update_watch';
    if (looksFor && ['when', 'whenever', 'who', 'where', 'if'].includes(tokens[clause.cue.end]?.text ?? '')) used.add(clause.cue.end);
  }
  if (negationAt >= 0) {
    used.add(negationAt);
    if (tokens[negationAt].text === 'no') used.add(negationAt + 1);
  }
  for (const m of mentions) {
    for (let k = m.start; k < m.end; k++) used.add(k);
    // "not the driveway", "except the nursery": the word that puts it out
    for (let k = m.start - 1; k >= Math.max(from, m.start - 3); k--) {
      if (['not', 'except', 'excluding', 'without', 'besides', 'but', 'apart', 'aside', 'other', 'than', 'minus'].includes(tokens[k].text)) used.add(k);
    }
  }
  // "everything except the nursery": the word that takes the places after it out
  for (let k = from; k < to; k++) {
    if (['except', 'excluding', 'besides', 'but', 'apart', 'aside', 'minus'].includes(tokens[k].text) && [1, 2, 3].some((d) => used.has(k + d))) used.add(k);
  }
  // "no sorry, I meant …": the words that open a correction
  for (let k = from; k < to && (CORRECTION_OPENERS.has(tokens[k].text) || HESITATIONS.has(tokens[k].text)); k++) used.add(k);
  for (let k = from; k + 1 < to; k++) if (tokens[k].text === 'i' && ['meant', 'mean'].includes(tokens[k + 1].text)) used.add(k).add(k + 1);
  // "someone I don't recognise": a stranger, read as a condition
  for (let k = from; k + 1 < to; k++) {
    if (['not', 'never'].includes(tokens[k].text) && ['recognise', 'recognize', 'know'].includes(tokens[k + 1].text) && conditions.has('unrecognized_person'))
      used.add(k).add(k + 1);
    // "what about the garage?": a follow-up, not a question
    if (['what', 'how'].includes(tokens[k].text) && tokens[k + 1].text === 'about') used.add(k).add(k + 1);
  }
  const nameWords = new Set(people.flatMap((p) => p.name.toLowerCase().split(/\s+/)));
  for (let k = from; k < to; k++) {
    const w = tokens[k].text;
    if ((CONDITION_WORDS[w] && conditions.has(CONDITION_WORDS[w])) || REFERENCE_WORDS.has(w) || w in KIND_WORDS || nameWords.has(w)) used.add(k);
    // "anyone hanging round it": "round" after a word of loitering is "around" (docs/decisions.md, "Round Q: verbs")
    if (w === 'round' && k > from && CONDITION_WORDS[tokens[k - 1].text] === 'loitering' && conditions.has('loitering')) used.add(k);
    if (['all', 'every', 'everything', 'anything'].includes(w)) used.add(k);
    if (
      isBothWatches(
        tokens.map((t) => t.text),
        k,
      )
    )
      used.add(k);
    // "same times", "same hours": the hours of another watch (planCreateWatch)
    if (w === 'same' && ['times', 'time', 'hours', 'window'].includes(tokens[k + 1]?.text ?? '')) used.add(k).add(k + 1);
    // a question's own words: it is answered, never acted on
    if (question) used.add(k);
  }
  return used;
}

/**
 * "watch the driveway tonight - oh and is the patio door shut 37", "…, and what time does the driveway one start till
 * the milkman comes": a question said after a request still leaves open a bare number at its end and an end or start
 * from an event no reader knows, so the request is not acted on with them unread (docs/decisions.md, "Before round R:
 * coverage probe").
 */
function findQuestionLeftovers(r: Reading): Uncovered[] {
  const { from, to } = r.clause;
  const t = r.tokens;
  if (!r.question || (r.intent && STATE_INTENTS.has(r.intent)) || from === 0) return [];
  // ("…, is the camera on and order a pizza": the joined verb made the whole question one the agent cannot do)
  if (r.outOfScope) return findQuestionTail(r);
  const out: Uncovered[] = [];
  for (let k = from; k < to; k++) if (isEventEndWord(t, k, from)) out.push({ index: k, text: t[k].text, role: 'time' });
  if (/^\d+$/.test(t[to - 1]?.text ?? '') && !isQuestionNumber(t, to - 1)) out.push({ index: to - 1, text: t[to - 1].text, role: 'number' });
  return [...out, ...findQuestionTail(r)];
}

/** "is the camera on 5" reads no number after a state said with a verb ("switched on 37"): only a word of time makes it one. */
function isQuestionNumber(t: Token[], k: number): boolean {
  const stateWord = ['on', 'off'].includes(t[k - 1]?.text ?? '') && Boolean(t[k - 2]?.isVerb);
  return TIME_LEADS.has(t[k - 1]?.text ?? '') && !stateWord;
}

/**
 * What a question beside a request swallowed after it (docs/decisions.md, "Before round T: probe leaks"): a verb the
 * planner cannot do joined on by "and" ("… is the patio door shut and book a taxi"), or after a comma a place of the
 * home said with a verb of how it is ("…, the hallway keeps creaking"), which may ask for that place too.
 */
function findQuestionTail(r: Reading): Uncovered[] {
  const from = r.clause.from;
  const to = Math.max(r.clause.to, ...r.spans.map(([, end]) => end));
  const t = r.tokens;
  const out: Uncovered[] = [];
  for (let k = from + 1; k + 1 < to; k++) {
    // ("…, could you frobble them?": a request put to the agent after a break, its verb one it cannot do)
    const framed = t[k].breakAfter && ['can', 'could', 'will', 'would'].includes(t[k + 1].text) && t[k + 2]?.text === 'you' && k + 3 < to;
    const j = framed ? k + 3 : k + 1;
    const v = t[j];
    // (after "could you" the word is a verb whatever the tagger said: "could you water the plants")
    const cannotDo = OUT_OF_SCOPE_VERBS.has(v.text) || !PLANNER_VOCABULARY.known(v) || TELL_VERBS.has(v.text);
    const own = framed ? cannotDo : v.isVerb ? v.root === v.text && cannotDo : v.unknown;
    // ("… and tell me", "… and let us know" are for the user; "… and book me a cab" is not)
    const forUser = ['me', 'us'].includes(t[j + 1]?.text ?? '') && (TELL_VERBS.has(v.text) || PLANNER_VOCABULARY.known(v));
    if ((t[k].text === 'and' || framed) && own && !forUser) out.push({ index: j, text: v.text, role: 'action' });
    if (t[k].breakAfter !== ',') continue;
    const at = ['the', 'my', 'our'].includes(t[k + 1].text) ? k + 2 : k + 1;
    const m = r.mentions.find((x) => x.start === at && (x.place.type === 'room' || x.place.type === 'sensor'));
    if (m && (PLACE_STATE_VERBS.has(t[m.end]?.text ?? '') || STATEMENT_VERBS.has(t[m.end]?.text ?? '')))
      out.push({ index: m.start, text: m.text, role: 'place' });
  }
  return out;
}

/**
 * "the cameras in the living room and the nursery", "any motion in the garage": a bare kind word
 * next to named places narrows them instead of being a place of its own. "everything except the
 * nursery": places after "except" are taken out of the whole-home group.
 */
function refineMentions(allMentions: Mention[], tokens: Token[]): Mention[] {
  const mentions = dropHostRooms(allMentions, tokens);
  const isKindOnly = (m: Mention) => m.text.split(' ').every((w) => w in KIND_WORDS);
  const named = mentions.filter((m) => !isKindOnly(m) && m.place.type !== 'group');
  let out = mentions;
  if (named.length) {
    // ("the annexe, not the camera": a kind left out takes that kind out of the room, see leaveOutKinds)
    const kindMentions = mentions.filter((m) => isKindOnly(m) && !isExcludedMention(tokens, m.start, 0) && findKindDismissal(tokens, m.end) < 0);
    const kinds = kindMentions.flatMap((m) => m.text.split(' ').map((w) => KIND_WORDS[w])).filter((k) => k !== 'any');
    out = leaveOutKinds(mentions, isKindOnly, tokens)
      .filter((m) => !isKindOnly(m))
      .map((m) => {
        if (!kinds.length || m.place.type !== 'room') return m;
        const sensors = m.place.sensors.filter((s) => kinds.includes(s.kind));
        return sensors.length ? { ...m, place: { type: 'group' as const, label: m.place.room, sensors, wholeHome: false, except: false } } : m;
      });
  }
  // "all the outside bits, so the driveway, garden and shed": a list after "so", "namely", "i.e."
  // spells out what the vague group meant, and the named places win over it
  const vague = out.find((m) => m.place.type === 'group' && m.place.wholeHome);
  if (vague) {
    const listAt = tokens.findIndex((t, k) => k >= vague.end && LIST_MARKERS.has(t.text));
    const listed = out.filter((m) => m !== vague && m.start > listAt && m.place.type !== 'group' && !isExcludedMention(tokens, m.start, listAt + 1));
    const between = tokens.slice(listAt + 1, listed[0]?.start ?? listAt + 1).every((t) => ['the', 'my', 'our'].includes(t.text));
    if (listAt >= 0 && listed.length && between && listAt - vague.end <= 6) out = out.filter((m) => m !== vague);
    else if (isAreaSpeltOut(vague, out, tokens)) out = out.filter((m) => m !== vague);
  }
  const group = out.find((m) => m.place.type === 'group' && m.place.wholeHome);
  if (group) {
    // "all the cameras except / but / apart from / other than / without the den"
    const exceptAt = tokens.findIndex(
      (t, k) =>
        k >= group.end &&
        (['except', 'but', 'besides', 'excluding', 'without', 'minus'].includes(t.text) ||
          (['apart', 'aside', 'other'].includes(t.text) && ['from', 'than'].includes(tokens[k + 1]?.text ?? ''))),
    );
    if (exceptAt >= 0 && out.some((m) => m.start > exceptAt)) {
      const excluded = out.filter((m) => m.start > exceptAt);
      const ids = new Set(excluded.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
      const g = group.place as Extract<Place, { type: 'group' }>;
      const kept = {
        ...group,
        place: { ...g, sensors: g.sensors.filter((s) => !ids.has(s.id)), label: `${g.label} except ${excluded.map((m) => subjectOf(m.place)).join(' and ')}` },
      };
      // ("everything except the glorpy rumpus room": a place no reader resolved stays a mention, asked in findUnresolvedException)
      out = out.filter((m) => (m.start < exceptAt || m.place.type === 'unknown') && m !== group).concat(kept);
    }
  }
  return out;
}

/**
 * "the side door of the garage", "the door contact on the detached garage": a sensor named inside
 * the room it is in. The room only says where the sensor is, so it is no place of its own (see
 * docs/decisions.md, "Round N: scope").
 */
function dropHostRooms(mentions: Mention[], tokens: Token[]): Mention[] {
  const hosts = new Set<Mention>();
  for (const m of mentions) {
    // ("any motion in the garage": a kind word alone is no sensor named, see refineMentions)
    if (m.place.type !== 'sensor' || m.text.split(' ').every((w) => w in KIND_WORDS)) continue;
    const room = m.place.sensor.room;
    let k = m.end;
    if (!['of', 'on', 'in', 'at', 'inside'].includes(tokens[k]?.text ?? '')) continue;
    k++;
    while (['the', 'my', 'our'].includes(tokens[k]?.text ?? '')) k++;
    const host = mentions.find((o) => o.start === k && o.place.type === 'room' && o.place.room === room);
    if (host) hosts.add(host);
  }
  return hosts.size ? mentions.filter((m) => !hosts.has(m)) : mentions;
}

/**
 * "watch the annexe tomorrow, not the camera": a bare kind word under "not" / "except" beside a named
 * room takes that kind out of the room, instead of narrowing the room to it (docs/decisions.md,
 * "Round N: scope"). A room left with nothing stays as it was, for the reader after to refuse or ask.
 */
function leaveOutKinds(mentions: Mention[], isKindOnly: (m: Mention) => boolean, tokens: Token[]): Mention[] {
  // ("…, the motion one is useless": a kind said to be of no use is left out too)
  const out = mentions.filter((m) => isKindOnly(m) && (isExcludedMention(tokens, m.start, 0) || findKindDismissal(tokens, m.end) >= 0));
  const kinds = out.flatMap((m) => m.text.split(' ').map((w) => KIND_WORDS[w])).filter((k) => k !== 'any');
  if (!kinds.length) return mentions;
  return mentions.map((m) => {
    if (m.place.type !== 'room') return m;
    const sensors = m.place.sensors.filter((s) => !kinds.includes(s.kind));
    return sensors.length ? { ...m, place: { type: 'group' as const, label: m.place.room, sensors, wholeHome: false, except: false } } : m;
  });
}

const LIST_MARKERS = new Set(['so', 'namely', 'ie', 'specifically', 'meaning']);
/** Words that say where a group is ("everything outside"), which only a list of the places can make exact. */
const AREA_WORDS = new Set(['outside', 'outdoor', 'outdoors', 'inside', 'indoor', 'indoors', 'upstairs', 'downstairs', 'exterior', 'interior']);
/** Words that may stand between "everything outside" and its list ("…tonight - porch, driveway, backyard"). */
const AREA_LIST_GAP = new Set(['tonight', 'today', 'tomorrow', 'now', 'the', 'my', 'our', 'please']);

/**
 * "watch everything outside tonight - porch, driveway, backyard", "all the outdoor bits: the shed, the
 * gate": a group said by where it is, followed at once by a list of two or more places and nothing
 * else, is spelt out by that list (the dash or colon is not kept in the tokens). Without the list the
 * area word is asked about (plan-check.ts, checkScope).
 */
function isAreaSpeltOut(group: Mention, mentions: Mention[], tokens: Token[]): boolean {
  const first = mentions.find((m) => m.start >= group.end);
  if (!first || !tokens.slice(group.start, first.start).some((t) => AREA_WORDS.has(t.text))) return false;
  if (!tokens.slice(group.end, first.start).every((t) => AREA_WORDS.has(t.text) || AREA_LIST_GAP.has(t.text))) return false;
  const listed = mentions.filter((m) => m.start >= first.start);
  if (listed.length < 2 || listed.some((m) => m.place.type === 'group')) return false;
  // the list runs to the end of the clause, its places joined only by commas, "and" or an article
  for (let k = first.start; k < tokens.length; k++) {
    if (listed.some((m) => k >= m.start && k < m.end)) continue;
    if (!['and', 'the', 'my', 'our'].includes(tokens[k].text)) return false;
  }
  return true;
}

const NEGATIONS = new Set(['not', 'never', "n't"]);

/**
 * A negation that scopes over the clause's request ("no need to keep an eye on…", "don't bother
 * with…", "not the garage anymore"), but not one that is part of the cue itself ("do not look" is
 * a boundary; "not sure" is hesitation).
 */
/** The words just before a mention put it out ("not the driveway", "except the nursery", "without the porch"). */
function isExcludedMention(tokens: Token[], start: number, from: number): boolean {
  for (let k = start - 1; k >= Math.max(0, from - 1, start - 3); k--) {
    const w = tokens[k].text;
    if (['not', 'except', 'excluding', 'without', 'besides', 'minus'].includes(w)) return true;
    // "apart from the den", "other than the pool"
    if (['apart', 'aside', 'other'].includes(w) && ['from', 'than'].includes(tokens[k + 1]?.text ?? '')) return true;
    if (!['the', 'my', 'our', 'but', 'apart', 'from', 'for', ','].includes(w)) return false;
  }
  return false;
}

/**
 * "except the driveway and the front door", "but not the shed, the garage or the porch": "except"
 * scopes over the whole list after it, not only its first place (see docs/decisions.md, "Round H: intent").
 */
function isInExceptList(tokens: Token[], mentions: Mention[], start: number, from: number): boolean {
  const inMention = (k: number) => mentions.some((m) => k >= m.start && k < m.end);
  let crossedList = false;
  for (let k = start - 1; k >= from; k--) {
    const w = tokens[k].text;
    if (['except', 'excluding', 'besides', 'minus', 'without'].includes(w)) return true;
    if (['apart', 'aside', 'other'].includes(w) && ['from', 'than'].includes(tokens[k + 1]?.text ?? '')) return true;
    if (w === 'but' && crossedList) return true;
    if (w === 'not' && ['but', ','].includes(tokens[k - 1]?.text ?? '')) return true;
    if (inMention(k)) {
      crossedList = true;
      continue;
    }
    if (!['the', 'my', 'our', 'and', 'or', 'nor', ',', 'from', 'than'].includes(w)) return false;
  }
  return false;
}

function findNegation(tokens: Token[], from: number, to: number, clause: Clause): number {
  const cueWords = new Set(clause.cue?.matched ?? []);
  for (let k = from; k < to; k++) {
    const w = tokens[k].text;
    const next = tokens[k + 1]?.text;
    if (cueWords.has(k)) continue;
    if (w === 'no' && (next === 'need' || next === 'longer' || next === 'more')) return k;
    // "the cellar watch is not needed anymore", "isn't necessary now": said of the request, after its cue
    if (NEGATIONS.has(w) && ['needed', 'necessary', 'required', 'wanted'].includes(next ?? '')) return k;
    // "someone I don't recognise" qualifies a person; it does not negate the request
    if (NEGATIONS.has(w) && next !== 'sure' && !['recognise', 'recognize', 'know'].includes(next ?? '') && !(clause.cue && k > clause.cue.end)) {
      if (!isStanceNegation(tokens, k, from) && !leavesAnimalsOutOfPeople(tokens, k, from, to)) return k;
    }
  }
  return -1;
}

/**
 * "…, I don't trust the teenagers", "we do not trust the new lodger": what the speaker feels, said with "I" or "we",
 * is a reason; it negates no request (docs/decisions.md, "Before round Q: times").
 */
function isStanceNegation(tokens: Token[], k: number, from: number): boolean {
  return findStanceSubject(tokens, k, from) >= 0;
}

/** Where the "I" or "we" of a stance negation at `k` stands ("we do not trust": at "we"), or -1 when it is none. */
function findStanceSubject(tokens: Token[], k: number, from: number): number {
  const subject = tokens[k - 1]?.text === 'do' || tokens[k - 1]?.text === 'did' ? k - 2 : k - 1;
  return subject >= from && ['i', 'we'].includes(tokens[subject].text) && ['trust', 'believe'].includes(tokens[k + 1]?.text ?? '') ? subject : -1;
}

const QUESTION_STARTERS = new Set([
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'has',
  'have',
  'had',
  'what',
  'when',
  'who',
  'where',
  'which',
  'how',
  'why',
  'whose',
  'am',
]);

/**
 * Asked rather than requested: starts like a question ("is…", "when does…", "are you…") and is
 * not a request put as one ("what about the garage?", "are you able to…", "do you mind…").
 */
function isQuestion(words: string[]): boolean {
  // openers before the question itself: "wait is the carport being watched?", "sorry, is it on?"
  const first = words.findIndex(
    (w) =>
      ![
        'so',
        'and',
        'but',
        'ok',
        'okay',
        'hey',
        'oh',
        'also',
        'then',
        'um',
        'hmm',
        'actually',
        'wait',
        'sorry',
        'quick',
        'question',
        'btw',
        'just',
        'hi',
        'hello',
        'right',
        'well',
        'erm',
        'er',
        'uh',
        'anyway',
        'yeah',
        'yes',
        'cool',
        'thanks',
        'great',
      ].includes(w),
  );
  if (first < 0) return false;
  // "(can you) tell me what you're watching", "let me know which cameras are muted": a question put as a request;
  // "tell me when / if / who …" waits for something to happen, a watch (see docs/decisions.md, "Round J household:
  // follow-ups, references and arming")
  const lead = ['can', 'could', 'would'].includes(words[first]) && words[first + 1] === 'you' ? first + 2 : first;
  const asked = words[lead] === 'let' ? lead + 3 : lead + 2;
  if (
    ((['tell', 'show'].includes(words[lead]) && words[lead + 1] === 'me') ||
      (words[lead] === 'let' && words[lead + 1] === 'me' && words[lead + 2] === 'know')) &&
    ['what', 'which', 'whether', 'how'].includes(words[asked]) &&
    words[asked + 1] !== 'about' &&
    // a question about how things are ("…what you're watching", "…which cameras are muted"), not what will happen
    words.slice(asked + 1).some((w) => ['you', 'is', 'are', 'be', 'was', 'were', "'re", "'s", 'been'].includes(w))
  )
    return true;
  if (!QUESTION_STARTERS.has(words[first])) return false;
  const next = words[first + 1];
  if ((words[first] === 'what' || words[first] === 'how') && next === 'about') return false;
  // "do not…", "do keep an eye…": imperative
  if (words[first] === 'do' && next !== 'you' && next !== 'i' && next !== 'we') return false;
  if (words.includes('able') || words.includes('possible') || words.includes('mind')) return false;
  return true;
}

const CHANGES = new Set<IntentKind>([
  'create_watch',
  'update_watch',
  'stand_down',
  'mute',
  'unmute',
  'set_boundary',
  'clear_boundary',
  'add_sensor',
  'set_location',
  'rename_room',
]);

/** What the clause asks for once negation, contrast and question form are read. */
/** Words that give a watch hours of its own ("keep watching the door till 6" is a request with hours, not a keeping). */
const KEEP_TIME_WORDS = new Set(['until', 'till', 'til', 'tonight', 'tomorrow', 'for', 'from', 'at', 'overnight', 'today']);

/**
 * "…but keep watching the garage door", "…, but keep an eye on the door": said in contrast with a change, keeping
 * watching asks for nothing new: the watch that runs stays as it is (docs/decisions.md, "Round S: places").
 */
function keepsWatching(r: { words: string[]; clause: Clause }): boolean {
  // (", but keep watching …": a comma before "but" leaves it at the clause's start)
  const opensBut = r.words[0] === 'but';
  const [first, second] = opensBut ? r.words.slice(1) : r.words;
  if ((!r.clause.contrast && !opensBut) || first !== 'keep' || !['watching', 'monitoring', 'an', 'eyes'].includes(second ?? '')) return false;
  return !r.words.some((w) => KEEP_TIME_WORDS.has(w) || /\d/.test(w));
}

function scopeIntent(intent: IntentKind | undefined, r: { negated: boolean; question: boolean; words: string[]; clause: Clause }): IntentKind | undefined {
  const { words } = r;
  if (r.question) {
    // "is the kids room camera on?": whether it is muted
    if (!intent && words.some((w) => ['on', 'off', 'working', 'active', 'enabled', 'disabled', 'live'].includes(w))) return 'ask_muted';
    // "which cameras have I got?", "what rooms do you know?"
    if (
      (!intent || intent === 'describe') &&
      ['which', 'what', 'how'].includes(words[0] ?? '') &&
      words.some((w) => ['have', 'got', 'know', 'many'].includes(w)) &&
      words.some((w) => ['cameras', 'sensors', 'rooms', 'devices', 'cams'].includes(w))
    )
      return 'ask_home';
    // a question never creates, changes or removes anything
    if (intent === 'mute' || intent === 'unmute') return 'ask_muted';
    if (intent === 'set_boundary' || intent === 'clear_boundary') return 'ask_boundary';
    if (['when', 'long', 'time', 'until', 'till'].some((w) => words.includes(w)) && (!intent || CHANGES.has(intent))) return 'ask_watch';
    if (intent && CHANGES.has(intent)) return intent === 'create_watch' || intent === 'stand_down' || intent === 'update_watch' ? 'ask_watch' : 'describe';
    return intent;
  }
  if (r.negated) {
    if (intent === 'create_watch') return 'stand_down';
    // "don't stop watching the alley", "do not cancel it": what runs stays as it is
    if (intent === 'stand_down') return 'keep';
    if (!intent || intent === 'describe' || intent === 'list_events') return 'exclude';
    if (intent === 'mute' || intent === 'unmute' || intent === 'add_sensor' || intent === 'update_watch') return 'exclude';
  }
  // "…but keep the driveway": keep what is, change nothing
  if (!intent && r.clause.contrast && words.some((w) => w === 'keep' || w === 'leave')) return 'keep';
  // "mute the garage camera but keep watching the garage door": the watch that runs stays, none is made
  if (intent === 'create_watch' && keepsWatching(r)) return 'keep';
  // "stop all the watches. actually no, keep the garden one": keeping said after a change of mind
  if (!intent && keepsAfterAll(words)) return 'keep';
  // "keep the gate one going": what runs stays as it is
  if ((!intent || intent === 'create_watch') && words.includes('keep') && words.some((w) => ['going', 'running', 'active'].includes(w))) return 'keep';
  return intent;
}

function isPlaceToken(token: Token, ctx: HouseholdContext): boolean {
  return listPlaceWords(ctx).includes(token.text) && !(token.text in KIND_WORDS);
}

function describeOutOfScope(text: string, word: string): string {
  if (
    ['police', 'ambulance', 'fire', 'call', 'phone', 'ring', 'dial', 'guards', 'garda', 'gardai', 'cops'].includes(word) &&
    /police|ambulance|fire|emergency|guards|garda|cops/.test(text)
  ) {
    return "I can't call anyone for you — if this is an emergency, call your local emergency number now.";
  }
  return `I can't do that ("${text}"): I watch your home's cameras and sensors, but I can't control locks, lights, doors or other devices, or do things outside your home's security.`;
}

// ---------------------------------------------------------------- planning one reading

/** Adds the reading's calls or refusals to the plan; returns a clarification question when ambiguous. */
function planReading(r: Reading, state: PlanState, plan: Plan): string | undefined {
  // "start the garden watch an hour later", "end the porch watch half an hour earlier": a shift of a
  // watch that runs is an edit of it, never a new watch or a stand-down
  if (r.time.shiftMs !== undefined && (r.intent === 'create_watch' || r.intent === 'stand_down')) {
    if (!r.mentions.length || !r.mentions.some((m) => watchesOn(m.place, state).length)) return planCreateWatch(r, state, plan);
    r = { ...r, intent: 'update_watch' };
  }
  switch (r.intent) {
    case 'create_watch':
      return planCreateWatch(r, state, plan);
    case 'update_watch':
      return planUpdateWatch(r, state, plan);
    case 'stand_down':
      return planStandDown(r, state, plan);
    case 'list_watches':
      plan.calls.push({ tool: 'list_watches', args: {} });
      // "how many watches are running?": the count, said first
      if (r.tokens.slice(r.clause.from, r.clause.to).some((t, k, all) => t.text === 'how' && all[k + 1]?.text === 'many')) {
        const n = state.watches.length;
        addAnswer(plan, n === 0 ? 'No watches are running.' : `${n === 1 ? 'One watch is' : `${n} watches are`} running.`);
      }
      answerWatchCoverage(r, state, plan);
      return undefined;
    case 'keep':
      return planKeep(r, state, plan);
    case 'exclude':
      return planExclude(r, state, plan);
    case 'ask_watch':
      return answerWatchQuestion(r, state, plan);
    case 'ask_muted':
      return answerMuteQuestion(r, state, plan);
    case 'ask_boundary':
      return answerBoundaryQuestion(r, state, plan);
    case 'ask_home':
      addAnswer(plan, describeHome(state.ctx));
      return undefined;
    case 'mute':
    case 'unmute':
      return planMute(r, state, plan, r.intent === 'mute');
    case 'set_boundary':
    case 'clear_boundary':
      return planBoundary(r, state, plan, r.intent === 'set_boundary');
    case 'describe':
      return planDescribe(r, state, plan);
    case 'list_events':
      return planListEvents(r, state, plan);
    case 'add_sensor':
      return planAddSensor(r, state, plan);
    case 'set_location':
      return planSetLocation(r, state, plan);
    case 'rename_room':
      return planRename(r, state, plan);
    default:
      return undefined;
  }
}

function getPlaceSensors(place: Place): ContextSensor[] {
  if (place.type === 'room' || place.type === 'group') return place.sensors;
  if (place.type === 'sensor') return [place.sensor];
  return [];
}

function listHomePlaces(ctx: HouseholdContext): string {
  const rooms = ctx.rooms.map((r) => r.name);
  return rooms.length ? `Your home has: ${rooms.join(', ')}.` : 'Your home has no rooms yet.';
}

function describeHome(ctx: HouseholdContext): string {
  return `${listHomePlaces(ctx)} Sensors: ${ctx.sensors.map((s) => s.name).join(', ') || 'none'}.`;
}

function explainUnknown(place: Extract<Place, { type: 'unknown' }>, state: PlanState): string {
  return `${place.reason ?? `There's no ${place.label} in your home.`} ${describeHome(state.ctx)}`;
}

function findBoundary(state: PlanState, sensor: ContextSensor): { room?: string; sensor_id?: string } | undefined {
  return state.boundaries.find((b) => (b.sensor_id && b.sensor_id === sensor.id) || (b.room && b.room === sensor.room && !b.sensor_id));
}

/** Why the agent may not look through a sensor, or undefined when it may. */
function explainOutOfReach(state: PlanState, sensor: ContextSensor): string | undefined {
  const b = findBoundary(state, sensor);
  if (b) {
    const what = b.room ? `the ${b.room}` : `the ${sensor.name}`;
    return `You asked me to leave ${what} alone, so I won't watch or look at it. If you want that lifted, say "you can watch ${what} again".`;
  }
  if (state.muted.has(sensor.id)) return `The ${sensor.name} is muted, so I can't watch or look at it — unmute it first if you want that.`;
  return undefined;
}

function subjectOf(place: Place): string {
  if (place.type === 'room') return place.room;
  if (place.type === 'sensor') return place.sensor.name;
  return place.label;
}

/** Resolves what a clause is about: its mentions, else "it"/nothing → the last subject. */
function resolveSubjects(r: Reading, state: PlanState): { places: Place[]; fromReference: boolean } {
  const places = r.mentions.map((m) => m.place);
  if (places.length) return { places, fromReference: false };
  const last = state.lastSubject;
  if (!last) return { places: [], fromReference: true };
  if (last.kind === 'room') {
    return { places: [{ type: 'room', room: last.room, sensors: state.ctx.sensors.filter((s) => s.room === last.room) }], fromReference: true };
  }
  return { places: [{ type: 'sensor', sensor: last.sensor }], fromReference: true };
}

function rememberSubject(state: PlanState, place: Place): void {
  if (place.type === 'room') state.lastSubject = { kind: 'room', room: place.room };
  else if (place.type === 'sensor') state.lastSubject = { kind: 'sensor', sensor: place.sensor };
}

type KnownPlace = Extract<Place, { type: 'room' | 'sensor' | 'group' }>;

/**
 * Calls `visit` for each place the clause is about; unknown places become refusals, and an
 * ambiguous or missing one the question to ask (`question` names what is missing).
 */
function visitPlaces(r: Reading, state: PlanState, plan: Plan, question: string, visit: (place: KnownPlace) => void): string | undefined {
  const { places } = resolveSubjects(r, state);
  if (!places.length || (!r.mentions.length && !r.hasReference)) return `${question} ${describeHome(state.ctx)}`;
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  const possessive = words.includes('its') || words.includes('their');
  for (let place of places) {
    // "mute its camera": the camera of what was just talked about
    if (place.type === 'ambiguous' && possessive && state.lastSubject?.kind === 'room') {
      const room = state.lastSubject.room;
      const kinds = place.label
        .split(' ')
        .map((w) => KIND_WORDS[w])
        .filter((k) => k && k !== 'any');
      const own = state.ctx.sensors.filter((s) => s.room === room && (!kinds.length || kinds.includes(s.kind)));
      if (own.length === 1) place = { type: 'sensor', sensor: own[0] };
      else if (own.length > 1) place = { type: 'group', label: room, sensors: own, wholeHome: false, except: false };
    }
    // "is anyone at the front door?" — "watch the door tonight": the conversation just named one of the options
    if (place.type === 'ambiguous') place = narrowToLastSubject(place, state);
    if (place.type === 'ambiguous') return askWhich(place);
    if (place.type === 'vague') return `${question} ${describeHome(state.ctx)}`;
    if (place.type === 'unknown') {
      plan.refusals.push(explainUnknown(place, state));
      continue;
    }
    visit(place);
  }
  return undefined;
}

/**
 * The option of an ambiguous bare word ("the door") that the conversation's last subject is (a room
 * or a sensor named among the options), else the place as it was. Only the turns before count, not a
 * place this message named first ("the garage, the shed"), and only a word every option's name holds
 * (not a plural reference: "both of them").
 */
function narrowToLastSubject(place: Extract<Place, { type: 'ambiguous' }>, state: PlanState): Place {
  const word = place.label.toLowerCase();
  const bare = !word.includes(' ') && place.options.every((o) => o.toLowerCase().split(/\s+/).includes(word));
  const last = bare ? findLastSubject(state.ctx) : undefined;
  if (!last) return place;
  const options = new Set(place.options.map((o) => o.toLowerCase()));
  if (last.kind === 'room' && options.has(last.room.toLowerCase()))
    return { type: 'room', room: last.room, sensors: state.ctx.sensors.filter((s) => s.room === last.room) };
  if (last.kind === 'sensor' && options.has(last.sensor.name.toLowerCase())) return { type: 'sensor', sensor: last.sensor };
  if (last.kind === 'sensor' && options.has(last.sensor.room.toLowerCase()))
    return { type: 'room', room: last.sensor.room, sensors: state.ctx.sensors.filter((s) => s.room === last.sensor.room) };
  return place;
}

function askWhich(place: Extract<Place, { type: 'ambiguous' }>): string {
  if (place.options.length === 1) return `There's no ${place.label} in your home — do you mean the ${place.options[0]}?`;
  return `Which ${place.label} do you mean: ${place.options.join(', ')}?`;
}

function isEntranceCamera(s: ContextSensor): boolean {
  return `${s.room} ${s.name}`
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((w) => ENTRANCE_WORDS.has(w));
}

/**
 * A face watch on an ambiguous place ("the door": the back door contact or the front porch) keeps
 * the options that have a camera: when one remains, it is the place meant.
 */
function narrowToCameras(place: Place, ctx: HouseholdContext): Place {
  if (place.type !== 'ambiguous') return place;
  const withCamera = place.options.filter((o) => ctx.sensors.some((s) => s.kind === 'camera' && (s.room === o || s.name === o)));
  if (withCamera.length !== 1) return place;
  const o = withCamera[0];
  const room = ctx.sensors.some((s) => s.room === o);
  return room
    ? { type: 'room', room: o, sensors: ctx.sensors.filter((s) => s.room === o) }
    : { type: 'sensor', sensor: ctx.sensors.find((s) => s.name === o)! };
}

function planCreateWatch(r: Reading, state: PlanState, plan: Plan): string | undefined {
  if (r.peopleQuestion) return r.peopleQuestion;
  // "an hour later" moves a watch that exists; a new one has nothing to be later than
  if (r.time.shiftMs !== undefined)
    return `Later or earlier than what? Tell me when the watch on the ${r.mentions.map((m) => subjectOf(m.place)).join(' and ') || 'home'} should start and end, for example "from 8pm to 6am".`;
  r = focusFaceWatch(r, state, plan);
  const faceWatch = r.people.length > 0 || r.conditions.includes('unrecognized_person');
  const timeQuestion = askAboutTime(r, state);
  if (timeQuestion) return timeQuestion;
  // "tonight and tomorrow night", "the next 3 nights": one watch a night
  const nights = r.time.nights ?? 1;
  const window = resolveFirstWindow(r, state, nights);
  if (typeof window === 'string') return window;
  const windowQuestion = askAboutWindow(r, state, window) ?? askAboutUnknownPlaces(r, state, faceWatch);
  if (windowQuestion) return windowQuestion;
  const { question, subjects, covered } = collectWatchPlaces(r, state, plan);
  if (question || !covered.length) return question;
  const subject = subjects.join(' and ');
  const args: Record<string, unknown> = {
    subject,
    sensor_ids: covered.map((s) => s.id),
    starts_at: new Date(window.startsAt).toISOString(),
    ends_at: new Date(window.endsAt).toISOString(),
    recurrence: window.recurrence,
    window: window.window,
  };
  if (r.conditions.length) args.conditions = r.conditions;
  if (faceWatch) {
    const cameraQuestion = focusOnCameras(r, state, covered, args);
    if (cameraQuestion) return cameraQuestion;
  }
  const callIndex = plan.calls.length;
  const say = describeNewWatch(r, state, window, subject, covered, args);
  plan.calls.push({ tool: 'create_watch', args, subject, say });
  if (window.note) addNote(plan, window.note);
  // a sensor that is offline is still watched, and the reply says it sees nothing until it is back (feed-status.ts)
  const offline = describeOfflineInWatch(covered, state.ctx);
  if (offline) addNote(plan, offline);
  state.watches.push({
    id: `$ref:${callIndex}`,
    subject,
    sensor_ids: covered.map((s) => s.id),
    starts_at: args.starts_at as string,
    ends_at: args.ends_at as string,
    recurrence: window.recurrence,
    window: window.window,
  });
  state.lastWatchId = `$ref:${callIndex}`;
  for (let n = 1; n < nights; n++) {
    const d = r.time.date;
    const next = resolveWatchWindow(
      d ? { ...r.time, nights: 1, date: { ...addDays(d, n), hour: 0, minute: 0 } } : { ...r.time, nights: 1, dayOffset: r.time.dayOffset + n },
      state.ctx,
    );
    const more = { ...args, starts_at: new Date(next.startsAt).toISOString(), ends_at: new Date(next.endsAt).toISOString(), window: next.window };
    plan.calls.push({
      tool: 'create_watch',
      args: more,
      subject,
      say: `I'm also watching the ${subject.replace(/ and /g, ' and the ')} ${describeSpan(next.startsAt, next.endsAt, next.recurrence, state.ctx)}.`,
    });
  }
  return undefined;
}

/** Who or what is watched for by face: known people at the way in or anywhere a camera sees, faces only on cameras. */
function focusFaceWatch(r: Reading, state: PlanState, plan: Plan): Reading {
  const isWholeHome = (m: Mention) => m.place.type === 'group' && m.place.wholeHome;
  // "when Maria gets home": "home" is where she arrives, not a place to watch every sensor of
  if (r.people.length && r.mentions.length && r.mentions.every(isWholeHome) && ARRIVAL_PHRASES.test(r.text)) r = { ...r, mentions: [] };
  // "let me know when Ana arrives": she arrives at the way in, so the entrance cameras (porch,
  // driveway, front door); "let me know when Ana is seen": wherever a camera can see her
  if (r.people.length && !r.mentions.length && !r.hasReference) {
    const cameras = state.ctx.sensors.filter((s) => s.kind === 'camera');
    const entrances = ARRIVAL_PHRASES.test(r.text) ? cameras.filter(isEntranceCamera) : [];
    const place: Place = entrances.length
      ? { type: 'group', label: 'entrances', sensors: entrances, wholeHome: false, except: false }
      : { type: 'group', label: 'whole home', sensors: cameras, wholeHome: true, except: false };
    r = { ...r, mentions: [{ start: r.clause.from, end: r.clause.from, text: '', place }] };
  }
  const faceWatch = r.people.length > 0 || r.conditions.includes('unrecognized_person');
  // only a camera sees a face: a door that is a contact and a porch with a camera is the porch
  if (faceWatch) {
    r = {
      ...r,
      mentions: r.mentions.map((m) => {
        // "anywhere in the house": for a face, the house's cameras
        if (isWholeHome(m) && m.place.type === 'group') {
          const cameras = m.place.sensors.filter((x) => x.kind === 'camera');
          return cameras.length ? { ...m, place: { ...m.place, sensors: cameras } } : m;
        }
        const place = narrowToCameras(m.place, state.ctx);
        if (place !== m.place && m.place.type === 'ambiguous') {
          const others = m.place.options.filter((o) => o !== subjectOf(place));
          plan.notes = [
            ...(plan.notes ?? []),
            `By "${m.place.label}" I took the ${subjectOf(place)}: only a camera sees faces, and the ${others.join(' and the ')} ${others.length > 1 ? 'have' : 'has'} none.`,
          ];
        }
        return { ...m, place };
      }),
    };
  }
  return r;
}

/** Questions the time said raises before any window is worked out (past, unsure day, no end, no location, am or pm). */
function askAboutTime(r: Reading, state: PlanState): string | undefined {
  // "watch the garage yesterday": no watch can run in the past
  if (r.time.past) {
    return 'That time is already past, so I can\'t watch it. Did you mean from now on (for example "tonight"), or do you want to know what happened then?';
  }
  if (r.time.doubtfulDate ?? r.time.vagueCount) return r.time.doubtfulDate ?? r.time.vagueCount;
  const partQuestion = askAboutDayPart(r, state);
  if (partQuestion) return partQuestion;
  // "tomorrow night" said at 00:40 on Friday: Friday night (the coming one) or Saturday night?
  const wall = toWallClock(state.ctx.now, state.ctx.timeZone);
  if (r.time.dayOffset === 1 && !r.time.date && wall.hour < 5 && r.tokens.some((t, k) => t.text === 'tomorrow' && r.time.consumed.has(k))) {
    return `It's past midnight, so I'm not sure which day "tomorrow" is: do you mean today (${WEEKDAY_LABELS[wall.weekday]}) or ${WEEKDAY_LABELS[(wall.weekday + 1) % 7]}?`;
  }
  // ("from 9 tonight till my husband gets home": a start said does not make the end known)
  const eventEnd =
    r.time.anchors.some((a) => a.role === 'start') && r.tokens.some((t, k) => ['until', 'till', 'til'].includes(t.text) && r.time.consumed.has(k));
  if (
    r.time.openEnded &&
    !r.time.anchors.some((a) => a.role === 'end') &&
    r.time.durationMs === undefined &&
    (eventEnd || (!r.time.night && !r.time.weekend))
  ) {
    return 'Until when should I keep watching? Give me an end, like "until Sunday 6pm" or "for the next 3 days".';
  }
  // "watch the balcony from 8 tonight": the night says the hour's half, not when the watch ends
  // ("tonight from 10" runs till sunrise; "from 7" alone is asked about too)
  const start = r.time.anchors.find((a) => a.role === 'start');
  if (r.time.nightOfStart && start?.kind === 'clock' && r.time.anchors.length === 1 && r.time.durationMs === undefined && !r.time.recurrence) {
    return `From ${String(start.hour).padStart(2, '0')}:${String(start.minute).padStart(2, '0')} until when should I watch? For example "till midnight" or "till sunrise". I haven't changed anything yet.`;
  }
  if (needsLocation(r.time) && !state.ctx.location) {
    return "I don't know where your home is yet, so I can't work out sunset and sunrise. Which city do you live in (or your coordinates)?";
  }
  const polar = askPolarSunWindow(r.time, state.ctx);
  if (polar) return polar;
  // "watch the garage from 7", "at 7": an hour without am/pm and no end is two guesses — asked
  const open = r.time.anchors.find((a) => a.role !== 'end');
  if (
    open?.kind === 'clock' &&
    !open.meridiemCertain &&
    !open.around &&
    !r.time.anchors.some((a) => a.role === 'end') &&
    r.time.durationMs === undefined &&
    !r.time.night &&
    !r.time.recurrence &&
    !r.time.sleepContext &&
    !r.time.weekend &&
    !r.time.openEnded
  ) {
    const h = open.hour % 12 || 12;
    return `From ${h}${open.minute ? `:${String(open.minute).padStart(2, '0')}` : ''} in the morning or in the evening, and until when? For example "from ${h}pm until 6am".`;
  }
  // "from 9 till 5", "from 7 to 9": both halves of the day a usual watch — asked (src/platform/language/time/open-meridiem.ts)
  return findOpenDayHalf(r.time, toWallClock(state.ctx.now, state.ctx.timeZone).hour, r.text);
}

const MONTH_LABELS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_PART_EXAMPLES = { morning: 'from 8 till 11', afternoon: 'from 2 till 5', evening: 'from 6 till 10' } as const;
const DAY_PART_ENDS = { morning: 12, afternoon: 17, evening: 21 } as const;

const DAY_PART_STARTS = { morning: 5, afternoon: 12, evening: 17 } as const;

/**
 * "watch the porch this morning till noon" said at 07:45: the part is under way and the end is said, so
 * the window runs from now (docs/decisions.md, "Round N: times, follow-ups, arming"). Said before the
 * part begins ("this afternoon till 5" at 08:00) its start is still asked.
 */
function isPartUnderwayWithEnd(r: Reading, part: keyof typeof DAY_PART_ENDS, hour: number): boolean {
  const ends = r.time.anchors.filter((a) => a.role === 'end' && a.kind === 'clock' && !a.dateOnly);
  if (ends.length !== 1 || r.time.anchors.length !== 1 || r.time.durationMs !== undefined) return false;
  if (!/\bthis (?:morning|afternoon|evening)\b/.test(r.text)) return false;
  return hour >= DAY_PART_STARTS[part] && hour < DAY_PART_ENDS[part];
}

/**
 * "watch the letterbox tomorrow morning", "this afternoon", "saturday evening": a part of the day
 * with no hours is no span to guess (never 24 hours): the hours are asked for, and the answer's bare
 * hours take the part's half of the day (settleDayPart; docs/decisions.md, "Round J household: time").
 */
function askAboutDayPart(r: Reading, state: PlanState): string | undefined {
  const part = r.time.dayPart;
  const closed = r.time.anchors.some((a) => a.role !== 'end') && (r.time.anchors.some((a) => a.role === 'end') || r.time.durationMs !== undefined);
  if (!part || closed || r.time.night || r.time.recurrence || r.time.weekend) return undefined;
  const what = r.mentions.length ? ` the ${r.mentions.map((m) => subjectOf(m.place)).join(' and the ')}` : '';
  const now = toWallClock(state.ctx.now, state.ctx.timeZone);
  const dated = r.time.anchors.find((a) => a.kind === 'clock' && a.date && !a.dateOnly);
  const d = r.time.date ?? (dated?.kind === 'clock' ? dated.date : undefined);
  const tomorrow = r.time.dayOffset === 1 || (d !== undefined && countDaysBetween(now, d) === 1);
  const label = tomorrow ? `tomorrow ${part}` : d ? `on ${WEEKDAY_LABELS[getWeekday(d)]} ${part} (${d.day} ${MONTH_LABELS[d.month - 1]})` : `this ${part}`;
  if (!d && !tomorrow && isPartUnderwayWithEnd(r, part, now.hour)) return undefined;
  if (!d && !tomorrow && now.hour >= DAY_PART_ENDS[part]) {
    return `This ${part} is already over (it's ${formatClock(state.ctx.now, state.ctx.timeZone)}), so I haven't changed anything. Which day and hours should I watch${what}?`;
  }
  return `Which hours ${label} should I watch${what}, from when until when? For example "${DAY_PART_EXAMPLES[part]}". I haven't changed anything yet.`;
}

/** The first window ("tonight and tomorrow night": one a night), or the times of the watch the conversation is about ("same times"); a string asks. */
function resolveFirstWindow(r: Reading, state: PlanState, nights: number): ReturnType<typeof resolveWatchWindow> | string {
  let window = resolveWatchWindow(nights > 1 ? { ...r.time, nights: 1 } : r.time, state.ctx);
  // "watch the balcony too, same times": the hours of the watch the conversation is about
  if (window.defaulted && !r.time.hasTime && /\bsame (?:times?|hours?|window)\b/.test(r.text)) {
    const last = state.lastWatchId ? state.watches.find((w) => w.id === state.lastWatchId) : undefined;
    const subject = state.lastSubject;
    const onSubject = subject
      ? state.watches.filter((w) =>
          w.sensor_ids.some((id) =>
            subject.kind === 'sensor' ? id === subject.sensor.id : state.ctx.sensors.some((x) => x.id === id && x.room === subject.room),
          ),
        )
      : [];
    const source = last ?? (onSubject.length === 1 ? onSubject[0] : state.watches.length === 1 ? state.watches[0] : undefined);
    if (!source) return 'Which watch should I copy the times from?';
    window = {
      startsAt: Date.parse(source.starts_at),
      endsAt: Date.parse(source.ends_at),
      recurrence: source.recurrence as typeof window.recurrence,
      window: source.window,
      defaulted: false,
    };
  }
  return keepFollowedWindow(r, state, window);
}

/**
 * "and the porch, but only from midnight" after "watch the guest cabin tonight": a follow-up that adds a place with only a
 * new start, said as narrowing ("only"), keeps the end of the watch it follows; "and the porch, but only until 2" keeps its
 * start. Only a one-off watch made earlier in the conversation is followed, and only when the new time falls inside its
 * window; else the usual questions ask (docs/decisions.md, "Round T: times").
 */
function keepFollowedWindow(r: Reading, state: PlanState, window: ReturnType<typeof resolveWatchWindow>): ReturnType<typeof resolveWatchWindow> {
  const t = r.time;
  const last = state.lastWatchId?.startsWith('$ref:') ? undefined : state.watches.find((w) => w.id === state.lastWatchId);
  if (!last || last.recurrence !== 'none' || t.anchors.length !== 1 || t.anchors[0].kind !== 'clock') return window;
  // ("only" keeps the new time inside the watch followed; "also the driveway from 10pm" is asked until when, as before)
  const said = r.message.trim().toLowerCase();
  if (!/^(?:and|plus)\b|\b(?:too|also|as well)\b/.test(said) || !/\bonly\b/.test(said)) return window;
  if (t.night || t.recurrence || t.weekend || t.openEnded || t.durationMs !== undefined || t.nights !== undefined || t.dayOffset || t.date) return window;
  const [lastStart, lastEnd] = [Date.parse(last.starts_at), Date.parse(last.ends_at)];
  const tz = state.ctx.timeZone;
  const role = t.anchors[0].role;
  if (role === 'start' && / to sunrise$/.test(window.window) && window.startsAt < lastEnd && window.startsAt >= Math.min(lastStart, state.ctx.now)) {
    return { ...window, endsAt: lastEnd, window: `${formatClock(window.startsAt, tz)} to ${formatClock(lastEnd, tz)}`, defaulted: false };
  }
  const startsAt = Math.max(lastStart, state.ctx.now);
  if (role === 'end' && lastStart > state.ctx.now && window.endsAt > startsAt && window.endsAt <= lastEnd) {
    return { ...window, startsAt, window: `${formatClock(startsAt, tz)} to ${formatClock(window.endsAt, tz)}`, defaulted: false };
  }
  return window;
}

/** Words that ask for every hour of the days said ("all week", "the whole week", "24/7", "round the clock"). */
const EVERY_HOUR =
  /\b(all|whole|entire|full)\s+(of\s+)?(the\s+|next\s+|this\s+)*(week|weekend|days?|time)\b|\b24\s*\/\s*7\b|\b24\s*(h|hrs?|hours?)\b|\b(round|around) the clock\b|\bday and night\b|\bnon-?stop\b/;

/**
 * "watch the side gate next week": several whole days from a date, with no hours said, is not taken
 * as every hour of them in silence — asked (all day, or which days and hours?) unless the words say
 * all of it ("all week", "24/7"); see docs/decisions.md, "Round L household: times".
 */
function askAboutWholeDays(r: Reading, window: ReturnType<typeof resolveWatchWindow>, state: PlanState): string | undefined {
  const t = r.time;
  if (t.date === undefined || !t.anchors.length || !t.anchors.every((a) => a.kind === 'clock' && a.dateOnly)) return undefined;
  if (t.night || t.recurrence || t.durationMs !== undefined || t.openEnded || t.weekend || window.endsAt - window.startsAt <= 36 * 3_600_000) return undefined;
  if (EVERY_HOUR.test(r.text)) return undefined;
  const what = r.mentions.length ? ` the ${r.mentions.map((m) => subjectOf(m.place)).join(' and the ')}` : '';
  const from = formatWindowDay(window.startsAt, state);
  const until = formatWindowDay(window.endsAt - 1, state);
  return `Should I watch${what} all day and night from ${from} to ${until}, or only on some days or at some hours — for example "each night from 10pm to 6am"?`;
}

/** "Monday 30 March": the local day of an instant, for a question. */
function formatWindowDay(ms: number, state: PlanState): string {
  const wall = toWallClock(ms, state.ctx.timeZone);
  return `${WEEKDAY_LABELS[wall.weekday]} ${wall.day} ${MONTH_LABELS[wall.month - 1]}`;
}

/**
 * "watch the lift lobby from 10 pm": a one-off watch from a clock start with no end, no length and no night word
 * ("tonight", "overnight") is asked until when; the question offers the sunrise reading with its time, and the
 * answer ("till 6 am") makes the watch (docs/decisions.md, "Round R: times").
 */
function askAboutStartOnly(r: Reading, state: PlanState, window: ReturnType<typeof resolveWatchWindow>): string | undefined {
  const t = r.time;
  const start = t.anchors.find((a) => a.role === 'start');
  if (start?.kind !== 'clock' || t.anchors.length !== 1 || !/ to sunrise$/.test(window.window)) return undefined;
  if (t.night || t.recurrence || t.weekend || t.openEnded || t.sleepContext || t.durationMs !== undefined || t.nights !== undefined) return undefined;
  const what = r.mentions.length ? ` the ${r.mentions.map((m) => subjectOf(m.place)).join(' and the ')}` : '';
  const from = formatClock(window.startsAt, state.ctx.timeZone);
  return `From ${from} until when should I watch${what}: until sunrise (${formatClock(window.endsAt, state.ctx.timeZone)}), or another time, for example "till 6am"? I haven't changed anything yet.`;
}

/** Questions the window raises: no time at all, a weekend without hours, a window already over today. */
function askAboutWindow(r: Reading, state: PlanState, window: ReturnType<typeof resolveWatchWindow>): string | undefined {
  // "watch the porch" and nothing about when: tonight, for an hour, or from now on? Asked, never
  // a silent 24 hours (see docs/decisions.md, "No window without a time")
  // ("let me know when grandpa turns up", "tell me if the gate opens": an event to wait for, with
  // no hours of its own, keeps the stated 24-hour default)
  // (a place left alone or muted is refused as such first: no question about when to do what cannot be done)
  const reachable = r.mentions
    .flatMap((m) => (m.place.type === 'unknown' || m.place.type === 'ambiguous' || m.place.type === 'vague' ? [] : getPlaceSensors(m.place)))
    .filter((x) => !explainOutOfReach(state, x));
  if (
    window.defaulted &&
    !r.time.hasTime &&
    !r.conditions.length &&
    !r.people.length &&
    (reachable.length || !r.mentions.some((m) => m.place.type === 'room' || m.place.type === 'sensor' || m.place.type === 'group'))
  ) {
    const what = r.mentions.length ? ` the ${r.mentions.map((m) => subjectOf(m.place)).join(' and the ')}` : '';
    return `When should I watch${what}: tonight, for a few hours, or until a time you name (for example "until 7am")?`;
  }
  // "watch the drive over the weekend": all of it from Saturday 00:00, from Friday evening, only the
  // nights? Nothing said picks one — asked (a window said with it, or "while we're away", does)
  if (r.time.weekend && !r.time.anchors.length && !r.time.openEnded && !r.time.night && !r.time.recurrence && r.time.durationMs === undefined) {
    return `Should I watch${r.mentions.length ? ` the ${r.mentions.map((m) => subjectOf(m.place)).join(' and the ')}` : ''} all weekend (${window.window === 'this weekend' ? 'from Saturday 00:00 until Monday 00:00' : window.window}), or from when to when — for example "from Friday 6pm until Sunday 8pm"?`;
  }
  const wholeDays = askAboutWholeDays(r, window, state);
  if (wholeDays) return wholeDays;
  const startOnly = askAboutStartOnly(r, state, window);
  if (startOnly) return startOnly;
  if (window.passed) {
    const when = window.window.charAt(0).toUpperCase() + window.window.slice(1);
    return `${when} is already over today. Did you mean tomorrow (${window.window}), or another time?`;
  }
  const conflict = findWindowConflict(r.time, window, state.ctx);
  if (conflict)
    return `${conflict} From when until when should I watch${r.mentions.length ? ` the ${r.mentions.map((m) => subjectOf(m.place)).join(' and the ')}` : ''}?`;
  return undefined;
}

/** Every place the request names with no such place in the home: which place is meant instead. */
function askAboutUnknownPlaces(r: Reading, state: PlanState, faceWatch: boolean): string | undefined {
  // "tell me if a stranger comes round the side gate" with no side gate: nothing else was asked
  // for, so ask which place is meant (a refusal would leave the request hanging)
  const unknown = r.mentions.map((m) => m.place).filter((p): p is Extract<Place, { type: 'unknown' }> => p.type === 'unknown');
  if (unknown.length && unknown.length === r.mentions.length) {
    const cameras = state.ctx.sensors.filter((s) => s.kind === 'camera').map((s) => s.name);
    const options = faceWatch ? `Which camera should I watch instead: ${cameras.join(', ') || 'you have none yet'}?` : 'Which place should I watch instead?';
    return `${unknown.map((p) => p.reason ?? `There's no ${p.label} in your home.`).join(' ')} ${options}${faceWatch ? '' : ` ${describeHome(state.ctx)}`}`;
  }
  // "the bike shed and the sied lane": a place the home lacks is never dropped and the rest watched
  // (see docs/decisions.md, "Round G: words")
  if (unknown.length) {
    const known = r.mentions.filter((m) => m.place.type !== 'unknown').map((m) => subjectOf(m.place));
    return `${unknown.map((p) => p.reason ?? `There's no ${p.label} in your home.`).join(' ')} I haven't changed anything: should I watch just the ${known.join(' and the ')}, or which place did you mean? ${describeHome(state.ctx)}`;
  }
  return undefined;
}

/** The places of the one watch, what it says of each, and the sensors it covers; a string asks. */
function collectWatchPlaces(r: Reading, state: PlanState, plan: Plan): { question?: string; subjects: string[]; covered: ContextSensor[] } {
  // one request is one watch: "the porch and the driveway tonight" covers both places
  const subjects: string[] = [];
  const covered: ContextSensor[] = [];
  let mutedAsk: string | undefined;
  const refusedBefore = plan.refusals.length;
  const visited = visitPlaces(r, state, plan, 'What should I watch?', (place) => {
    let sensors = getPlaceSensors(place);
    if (place.type === 'group' && place.except) sensors = sensors.filter((s) => !state.mentionedSensorIds.has(s.id));
    // "watch the hallway tonight but not the front door": what the message leaves out is out of the watch
    // (a wider place left out keeps the part named in it: "just the side gate, not the whole yard")
    const out = new Set(r.excluded.filter((m) => !isWiderPlace(m.place, place)).flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
    if (r.intent === 'create_watch') sensors = sensors.filter((s) => !out.has(s.id));
    const reachable: ContextSensor[] = [];
    const blocked: string[] = [];
    for (const s of sensors) {
      const why = explainOutOfReach(state, s);
      if (why) blocked.push(why);
      else reachable.push(s);
    }
    if (reachable.length === 0) {
      const ask = askUnmuteToWatch(r, state, sensors, subjectOf(place));
      mutedAsk ??= ask;
      plan.refusals.push(blocked[0] ?? `There are no sensors in the ${subjectOf(place)} to watch.`);
      return;
    }
    if (blocked.length && place.type === 'group') {
      plan.notes = [
        ...(plan.notes ?? []),
        `I left out ${sensors
          .filter((s) => !reachable.includes(s))
          .map((s) => `the ${s.name}`)
          .join(' and ')} (muted or to be left alone).`,
      ];
    }
    // "everything else": say what was left out
    const left = place.type === 'group' && place.except ? getPlaceSensors(place).filter((s) => state.mentionedSensorIds.has(s.id)) : [];
    const leftRooms = [...new Set(left.map((s) => s.room))];
    subjects.push(leftRooms.length ? `${subjectOf(place)} except the ${leftRooms.join(' and the ')}` : subjectOf(place));
    for (const s of reachable) if (!covered.includes(s)) covered.push(s);
    rememberSubject(state, place);
  });
  // (a place that can be watched beside the muted one is watched, and the muted one declined as before)
  if (!visited && mutedAsk && !covered.length && plan.refusals.length === refusedBefore + 1) {
    plan.refusals.pop();
    return { question: mutedAsk, subjects, covered };
  }
  return { question: visited, subjects, covered };
}

/**
 * "watch the kitchen tonight" where all the kitchen's sensors are muted: asked whether to unmute them and watch, changing
 * nothing; "yes, unmute it and watch it" then does both (docs/decisions.md, "Round S: places"). A place left alone
 * is still declined.
 */
function askUnmuteToWatch(r: Reading, state: PlanState, sensors: ContextSensor[], subject: string): string | undefined {
  if (r.intent !== 'create_watch' || r.question || !sensors.length || sensors.some((s) => !state.muted.has(s.id) || findBoundary(state, s))) return undefined;
  const names = sensors.map((s) => `the ${s.name}`).join(' and ');
  const them = sensors.length > 1 ? 'them' : 'it';
  return `${names.charAt(0).toUpperCase()}${names.slice(1)} ${sensors.length > 1 ? 'are' : 'is'} muted, so I can't watch the ${subject} as things are, and I haven't changed anything. Shall I unmute ${them} and watch the ${subject}?`;
}

/** A face is seen by a camera only: the watch narrows to cameras, or a place without one is asked about. */
function focusOnCameras(r: Reading, state: PlanState, covered: ContextSensor[], args: Record<string, unknown>): string | undefined {
  // only a camera sees a face: a place without one is asked about, never silently dropped
  const blind = [...new Set(covered.filter((s) => s.kind !== 'camera').map((s) => s.room))].filter(
    (room) => !covered.some((s) => s.kind === 'camera' && s.room === room),
  );
  const cameras = covered.filter((s) => s.kind === 'camera');
  if (blind.length || !cameras.length) {
    const rooms = blind.length ? blind : [...new Set(covered.map((s) => s.room))];
    const there = covered.filter((s) => rooms.includes(s.room));
    const what = r.people.length ? `recognize ${r.people.map((p) => p.name).join(' or ')}` : 'tell a stranger from someone you know';
    const notCamera = `${there.map((s) => `the ${s.name}`).join(' and ')} ${there.length > 1 ? 'are' : 'is'} ${there.length > 1 ? 'no cameras' : 'no camera'} (the ${rooms.join(' and the ')} ${rooms.length > 1 ? 'have' : 'has'} none)`;
    const offer = there.map((s) => `the ${s.name} for ${s.kind === 'contact' ? 'the door opening' : 'any movement'}`).join(' and ');
    if (cameras.length) {
      return `Only a camera can ${what}, and ${notCamera}. Should I watch the ${[...new Set(cameras.map((s) => s.name))].join(' and the ')} for that and ${offer}, or only the camera?`;
    }
    const withCamera = state.ctx.sensors.filter((s) => s.kind === 'camera' && !explainOutOfReach(state, s)).map((s) => s.name);
    return `Only a camera can ${what}, and ${notCamera}. Should I watch ${offer} instead${withCamera.length ? `, or one of your cameras (${withCamera.join(', ')})` : ''}?`;
  }
  args.sensor_ids = cameras.map((s) => s.id);
  if (r.people.length) args.person_ids = r.people.map((p) => p.id);
  return undefined;
}

/** What the reply says of the new watch: who or what it looks for, where, and when (a default is said). */
function describeNewWatch(
  r: Reading,
  state: PlanState,
  window: ReturnType<typeof resolveWatchWindow>,
  subject: string,
  covered: ContextSensor[],
  args: Record<string, unknown>,
): string {
  // a default is never silent
  const later = window.startsAt > state.ctx.now + 60_000;
  const span = window.defaulted
    ? `${later ? `${describeSpan(window.startsAt, window.endsAt, window.recurrence, state.ctx)}, 24 hours` : `for the next 24 hours (until ${formatClock(window.endsAt, state.ctx.timeZone)} tomorrow)`} — tell me if you want a different end`
    : describeSpan(window.startsAt, window.endsAt, window.recurrence, state.ctx);
  const seeing = (args.sensor_ids as string[]).map((id) => covered.find((s) => s.id === id)?.name);
  const say = r.people.length
    ? `I'll tell you when I recognize ${r.people.map((p) => p.name).join(' or ')} on ${seeing.length > 2 ? `any of your ${seeing.length} cameras` : `the ${seeing.join(' or the ')}`} ${span}.${state.ctx.faceRecognition === false ? ' Face recognition is off, so I recognize nobody yet: say "turn on face recognition" to start.' : ''}`
    : r.conditions.includes('unrecognized_person')
      ? `I'll tell you when someone I don't recognize is on the ${seeing.length > 2 ? `${seeing.length} cameras of the ${subject}` : seeing.join(' or the ')} ${span}.${state.ctx.faceRecognition === false ? ' Face recognition is off, so I cannot tell strangers from people you know yet: say "turn on face recognition" to start.' : ''}`
      : `I'm watching the ${subject.replace(/ and /g, ' and the ')}${coverageOf(subject, seeing)} ${span}.`;
  return say;
}

/** A place watched through more than one sensor says which (a room's door contact beside its camera is never a surprise). */
function coverageOf(subject: string, seeing: (string | undefined)[]): string {
  const names = seeing.filter((n): n is string => Boolean(n) && n !== subject);
  if (seeing.length < 2 || names.length < 2) return '';
  return names.length > 4 ? ` (its ${names.length} sensors)` : ` (${names.slice(0, -1).join(', ')} and ${names[names.length - 1]})`;
}

const WEEKDAY_LABELS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "from 17:21 to 07:27 tomorrow (sunset to sunrise), every night" in the home's time. */
function describeSpan(startsAt: number, endsAt: number, recurrence: string, ctx: HouseholdContext): string {
  const today = toWallClock(ctx.now, ctx.timeZone);
  const dayWord = (ms: number) => {
    const wc = toWallClock(ms, ctx.timeZone);
    const diff = countDaysBetween(today, wc);
    return diff === 0 ? '' : diff === 1 ? ' tomorrow' : ` on ${new Date(Date.UTC(wc.year, wc.month - 1, wc.day)).toUTCString().slice(0, 11)}`;
  };
  const start = startsAt <= ctx.now + 60_000 ? 'from now' : `from ${formatClock(startsAt, ctx.timeZone)}${dayWord(startsAt)}`;
  const repeat = { none: '', daily: ', every day', weekdays: ', on weekdays', weekends: ', on weekends' }[recurrence] ?? '';
  return `${start} until ${formatClock(endsAt, ctx.timeZone)}${dayWord(endsAt)}${repeat}`;
}

/**
 * "cancel the 6 o'clock one", "stop the 18:00 watch": a watch named by the clock time it starts at.
 * Without am/pm either half of the day matches; only a single watch starting then is taken, and a
 * watch set by the sun ("sunset to sunrise") is never named by a clock time (docs/decisions.md,
 * "Round H: the time grammar").
 */
const WATCH_BY_START = /\bthe (\d{1,2})(?::(\d\d))?\s*(am|pm|o'clock|oclock)? (?:one|watch)\b/;

function findWatchByStartTime(text: string, state: PlanState): ContextWatch | undefined {
  const m = WATCH_BY_START.exec(text);
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  if (hour > 23 || minute > 59) return undefined;
  const exact = hour > 12 || hour === 0 || m[3] === 'am' || m[3] === 'pm';
  const wanted = m[3] === 'pm' && hour < 12 ? hour + 12 : m[3] === 'am' && hour === 12 ? 0 : hour;
  const matches = state.watches.filter((w) => {
    if (/sunset|sunrise|dusk|dawn/.test(w.window)) return false;
    const at = toWallClock(Date.parse(w.starts_at), state.ctx.timeZone);
    return at.minute === minute && (exact ? at.hour === wanted : at.hour % 12 === hour % 12);
  });
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * "stop it" as the conversation's first words: "it"/"that"/"this" with nothing the user named before it
 * is no referent, so even the home's only watch is a guess and the agent asks (docs/decisions.md, "Round Q: places").
 */
function isUnnamedReference(r: Reading, state: PlanState): boolean {
  // (only a stand-down: "make it 10 till 6" edits the one watch there is, see tests/agent/round-m-time.test.ts)
  if (r.intent !== 'stand_down' || state.lastSubject || state.lastWatchId || state.ctx.conversation?.turns.length) return false;
  // ("stop watching this evening": a time word is no reference)
  for (let k = r.clause.from; k < r.clause.to; k++)
    if (['it', 'that', 'this', 'them', 'those'].includes(r.tokens[k].text) && !r.time.consumed.has(k)) return true;
  return false;
}

/** Watches a clause points at: by place, "all", "it", or the only one there is. */
function findTargetWatches(r: Reading, state: PlanState, usePlaces: boolean): { watches: ContextWatch[]; question?: string; refusal?: string } {
  // "stop everything except the garage", "all watches but the porch": the places after the word are kept
  const kept = new Set(r.exceptSensorIds);
  if (kept.size && (r.wantsAll || r.mentions.every((m) => m.place.type === 'group'))) {
    return { watches: state.watches.filter((w) => !w.sensor_ids.some((id) => kept.has(id))) };
  }
  if (r.wantsAll && !r.mentions.some((m) => m.place.type !== 'group')) return { watches: [...state.watches] };
  if (usePlaces && r.mentions.length) {
    const found: ContextWatch[] = [];
    for (const m of r.mentions) {
      if (m.place.type === 'unknown') return { watches: [], refusal: explainUnknown(m.place, state) };
      if (m.place.type === 'ambiguous') {
        // "no need to watch the hall any more": of the places it could be, only one is watched — that one
        const watched = m.place.options.flatMap((o) =>
          state.watches.filter(
            (w) =>
              w.subject.toLowerCase() === o.toLowerCase() ||
              w.sensor_ids.some((id) => state.ctx.sensors.some((s) => s.id === id && (s.room === o || s.name === o))),
          ),
        );
        const unique = [...new Set(watched)];
        // only when the word said is one of the home's own names ("hall" of "front hall"), never a guess by meaning
        const nameWords = listPlaceWords(state.ctx);
        const literal = m.text
          .split(/\s+/)
          .filter((w) => w && !['the', 'one', 'watch', 'my', 'our'].includes(w))
          .every((w) => nameWords.includes(w));
        if (unique.length === 1 && literal) {
          if (!found.includes(unique[0])) found.push(unique[0]);
          continue;
        }
        return { watches: [], question: askWhich(m.place) };
      }
      const ids = new Set(getPlaceSensors(m.place).map((s) => s.id));
      const label = subjectOf(m.place).toLowerCase();
      const own = findOwnWatchNamed(r, m, label, state);
      for (const w of own ?? state.watches) {
        if ((w.sensor_ids.some((id) => ids.has(id)) || w.subject.toLowerCase() === label) && !found.includes(w)) found.push(w);
      }
      if (!found.length) return { watches: [], refusal: `I'm not watching the ${subjectOf(m.place)} right now.` };
    }
    return { watches: found };
  }
  // "stop both": the watches the conversation last made, or asked which
  if (r.pluralWatchIds && state.watches.length) {
    const plural = state.watches.filter((w) => r.pluralWatchIds!.includes(w.id));
    if (plural.length) return { watches: plural };
    return { watches: [], question: `Which watches do you mean: ${state.watches.map((w) => `the ${w.subject} (${w.window})`).join(', ')}?` };
  }
  // "cancel the 6 o'clock one": named by its start, which outranks the watch last talked about
  if (WATCH_BY_START.test(r.text)) {
    const byStart = findWatchByStartTime(r.text, state);
    return byStart
      ? { watches: [byStart] }
      : { watches: [], question: `Which watch do you mean: ${state.watches.map((w) => `the ${w.subject} (${w.window})`).join(', ')}?` };
  }
  const last = state.lastWatchId ? state.watches.find((w) => w.id === state.lastWatchId) : undefined;
  if (last) return { watches: [last] };
  // "is there anything in the alley?" — "ok stop watching it": "it" is the place the conversation last named
  if (r.hasReference && state.lastSubject) {
    const subject = state.lastSubject;
    const place: Place =
      subject.kind === 'room'
        ? { type: 'room', room: subject.room, sensors: state.ctx.sensors.filter((s) => s.room === subject.room) }
        : { type: 'sensor', sensor: subject.sensor };
    const on = watchesOn(place, state);
    if (on.length === 1) return { watches: on };
  }
  if (state.watches.length === 1 && !isUnnamedReference(r, state)) return { watches: [state.watches[0]] };
  if (state.watches.length === 0)
    return { watches: [], question: "I'm not watching anything right now, so there is no watch to change. What would you like me to watch?" };
  return { watches: [], question: `Which watch do you mean: ${state.watches.map((w) => `the ${w.subject} (${w.window})`).join(', ')}?` };
}

/**
 * "the garage watch can stop now", "the porch one should end": the watch said to stop with no new time
 * is stood down now, not an edit with nothing to change (docs/decisions.md, "Round N: scope").
 */
function isStopWithNoTime(r: Reading): boolean {
  if (r.question || r.negated || r.time.anchors.length || r.time.durationMs !== undefined || r.conditions.length) return false;
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  return words.some((w, k) => ['stop', 'end', 'finish'].includes(w) && ['can', 'could', 'should', 'will', 'must'].includes(words[k - 1] ?? ''));
}

/**
 * "drop the pool one", "cancel the pool watch": a watch named by its place is the watch of that place's
 * own, not every watch that covers the place too (the armed house's); undefined when there is none such.
 */
function findOwnWatchNamed(r: Reading, m: Mention, label: string, state: PlanState): ContextWatch[] | undefined {
  if (!['one', 'watch'].includes(r.tokens[m.end]?.text ?? '')) return undefined;
  const own = state.watches.filter((w) => w.subject.toLowerCase() === label);
  return own.length ? own : undefined;
}

function planStandDown(r: Reading, state: PlanState, plan: Plan): string | undefined {
  // "cancel the 6 o'clock one": the time names the watch, it is no new end
  if (!r.mentions.length && r.time.anchors.length === 1 && WATCH_BY_START.test(r.text)) r = { ...r, time: { ...r.time, anchors: [] } };
  // "stop watching the porch at 10pm": a new end, not a stand-down now
  if (r.time.anchors.length === 1 && !r.question) {
    r.time = { ...r.time, anchors: r.time.anchors.map((a) => ({ ...a, role: 'end' as const })) };
    return planUpdateWatch(r, state, plan);
  }
  // "never mind, cancel that": two phrasings of one request
  if (!r.mentions.length && plan.calls.some((c) => c.tool === 'stand_down_watch' || (c.tool === 'arm_house' && c.args.arm === false))) return undefined;
  const target = findTargetWatches(r, state, true);
  if (target.question) return target.question;
  // "don't watch the kids' room" with no watch on it: leave it alone
  if (r.negated && r.mentions.length && (target.refusal || !target.watches.length) && !r.mentions.some((m) => m.place.type === 'unknown')) {
    // ("don't watch the garage tonight": a boundary has no time, so the one said would be dropped — docs/decisions.md, "Coverage probe")
    const said = [...r.time.consumed].filter((k) => k >= r.clause.from && k < r.clause.to).sort((a, b) => a - b);
    if (said.length) return askNegatedWithTime(r, said);
    return planBoundary(r, state, plan, true);
  }
  if (target.refusal) {
    plan.refusals.push(target.refusal);
    return undefined;
  }
  if (!target.watches.length) plan.refusals.push("I'm not watching anything right now, so there is nothing to stand down.");
  const armedOnly = askArmedOnlyStandDown(r, target.watches);
  if (armedOnly) return armedOnly;
  const named = new Set(r.mentions.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
  for (const w of target.watches) {
    // "drop the driveway" from the porch-and-driveway watch: the rest keeps being watched
    const rest = w.sensor_ids.filter((id) => !named.has(id));
    if (r.mentions.length && rest.length && rest.length < w.sensor_ids.length) {
      const restRooms = [...new Set(rest.map((id) => state.ctx.sensors.find((s) => s.id === id)?.room ?? id))];
      const subject = restRooms.join(' and ');
      plan.calls.push({
        tool: 'update_watch',
        args: { watch_id: w.id, sensor_ids: rest, subject },
        subject,
        say: `I've taken the ${r.mentions.map((m) => subjectOf(m.place)).join(' and the ')} off the watch; I'm still watching the ${subject.replace(/ and /g, ' and the ')}.`,
      });
      w.sensor_ids = rest;
      continue;
    }
    // "we're home, you can relax", "stop watching everything": the watch arming started ends as the house's disarming
    const disarms = w.window === ARMED_WINDOW && !r.mentions.some((m) => m.place.type === 'room' || m.place.type === 'sensor');
    if (disarms) plan.calls.push({ tool: 'arm_house', args: { arm: false }, subject: 'house' });
    else plan.calls.push({ tool: 'stand_down_watch', args: { watch_id: w.id }, subject: w.subject, say: `I've stood down the watch on the ${w.subject}.` });
    state.watches = state.watches.filter((x) => x !== w);
    if (state.lastWatchId === w.id) state.lastWatchId = undefined;
  }
  return undefined;
}

/**
 * "stop watching the pool" on an armed house, with no watch of the pool's own: leave the pool out of the
 * armed watch, or disarm? Asked, nothing changed (docs/decisions.md, "Before round L").
 */
function askArmedOnlyStandDown(r: Reading, watches: readonly ContextWatch[]): string | undefined {
  const places = r.mentions.filter((m) => m.place.type === 'room' || m.place.type === 'sensor');
  if (!places.length || !watches.length || watches.some((w) => w.window !== ARMED_WINDOW)) return undefined;
  const names = places.map((m) => `the ${subjectOf(m.place)}`).join(' and ');
  return (
    `${names.charAt(0).toUpperCase()}${names.slice(1)} ${places.length > 1 ? 'are' : 'is'} watched only because the house is armed. ` +
    `Do you want me to leave ${names} out of the armed watch, or to disarm the house? I haven't changed anything.`
  );
}

/** Verbs of an edit said with "to" and a new time ("change the garage one to 11", "move it to 7"); "push … to 11:30" is a later end. */
const RETIME_VERBS = new Set(['change', 'move', 'make', 'set', 'switch', 'put', 'shift', 'bump']);
/** Words that say which end of the window a new time is, or which half of the day. */
const WINDOW_END_WORDS = new Set([
  'start',
  'starts',
  'starting',
  'begin',
  'begins',
  'end',
  'ends',
  'finish',
  'finishes',
  'stop',
  'stops',
  'until',
  'till',
  'til',
  'from',
  'later',
  'earlier',
  'for',
]);

/**
 * "make it 10 to 7" on a watch: the time 6:50 or the range 10 until 7 (findEditClockOrRange) is asked
 * about, unless the range reading moves each end of the watch by an hour and a half at most on the
 * clock face: "10 to 4" on a 9-to-5 watch is the range 10 until 4, where 3:50 would be one new time
 * for no end in particular (docs/decisions.md, "Round N: times, follow-ups, arming").
 */
function askEditClockOrRange(r: Reading, watch: ContextWatch, ctx: HouseholdContext): string | undefined {
  const question = findEditClockOrRange(r.tokens);
  const said = question ? /^"(\d{1,2}|five|ten) to (\d{1,2})"/.exec(question) : null;
  if (!said) return question;
  const first = said[1] === 'five' ? 5 : said[1] === 'ten' ? 10 : Number(said[1]);
  if (first > 12 || Number(said[2]) > 12) return question;
  const [from, until] = [watch.starts_at, watch.ends_at].map((iso) => {
    const wall = toWallClock(Date.parse(iso), ctx.timeZone);
    return (wall.hour * 60 + wall.minute) % 720;
  });
  const near = (a: number, b: number) => Math.min(Math.abs(a - b), 720 - Math.abs(a - b)) <= 90;
  return near((first % 12) * 60, from) && near((Number(said[2]) % 12) * 60, until) ? undefined : question;
}

/**
 * "change the garage one to 11", "move it to 7": one new clock time after "to", with no word saying
 * whether the watch starts or ends then, is two edits (and, without am/pm, two hours): asked about,
 * never guessed (docs/decisions.md, "Round J household: time").
 */
function askWhichEndMoves(r: Reading, watch: ContextWatch): string | undefined {
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  const [a] = r.time.anchors;
  if (r.time.anchors.length !== 1 || a.kind !== 'clock' || a.dateOnly || r.time.durationMs !== undefined || r.time.night || r.time.dayPart) return undefined;
  const k = words.indexOf('to');
  if (k < 1 || !words.slice(0, k).some((w) => RETIME_VERBS.has(w)) || words.some((w) => WINDOW_END_WORDS.has(w))) return undefined;
  if (!r.time.consumed.has(r.clause.from + k + 1)) return undefined;
  const said = words.filter((_, j) => j > k && r.time.consumed.has(r.clause.from + j)).join(' ');
  const half = a.meridiemCertain ? '' : `, and ${said} in the morning or at night`;
  return `I haven't changed anything yet: the ${watch.subject} watch runs ${watch.window} — should it start or end at ${said}${half}?`;
}

function planUpdateWatch(r: Reading, state: PlanState, plan: Plan): string | undefined {
  // "change it to the driveway": "it" is the watch, the place is its new subject
  const placesAreNewSubject = r.hasReference && r.mentions.length > 0;
  const target = r.replaces
    ? findTargetWatches({ ...r, mentions: r.replaces, wantsAll: false, exceptSensorIds: [] }, state, true)
    : findTargetWatches(r, state, !placesAreNewSubject);
  if (target.question) return target.question;
  if (target.refusal) {
    plan.refusals.push(target.refusal);
    return undefined;
  }
  // "push both watches out to monday 7pm", "all the watches end at 6 now": one edit, each watch
  if (target.watches.length > 1 && r.wantsAll && !placesAreNewSubject && !r.conditions.length) {
    if (needsLocation(r.time) && !state.ctx.location)
      return "I don't know where your home is yet, so I can't work out sunset and sunrise. Which city do you live in?";
    const timeQuestion = r.time.doubtfulDate ?? r.time.vagueCount ?? askAboutDayPart(r, state) ?? findEditClockOrRange(r.tokens);
    if (timeQuestion) return timeQuestion;
    const changes = target.watches.map((w) => ({ w, change: { ...resolveWindowChange(r.time, w, state.ctx, r.startRequested) } as Record<string, unknown> }));
    if (changes.some((c) => Object.keys(c.change).length === 0)) return 'What should I change about those watches?';
    for (const { w, change } of changes)
      plan.calls.push({ tool: 'update_watch', args: { watch_id: w.id, ...change }, subject: w.subject, say: describeUpdate(w, change, state.ctx) });
    return undefined;
  }
  const watch = target.watches[0];
  if (!watch || target.watches.length > 1) {
    return state.watches.length
      ? `Which watch should I change: ${state.watches.map((w) => `the ${w.subject} (${w.window})`).join(', ')}?`
      : "I'm not watching anything right now, so there is no watch to change.";
  }
  if (needsLocation(r.time) && !state.ctx.location) {
    return "I don't know where your home is yet, so I can't work out sunset and sunrise. Which city do you live in?";
  }
  const timeQuestion =
    r.time.doubtfulDate ??
    r.time.vagueCount ??
    askAboutDayPart(r, state) ??
    askEditClockOrRange(r, watch, state.ctx) ??
    askWhichEndMoves(r, watch) ??
    askWhichEndAMoveMeans(r, watch);
  if (timeQuestion) return timeQuestion;
  // "cut it off at 1am", "end it at 6": the time is the new end, whatever preposition it has
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  if (
    words.some((w) => ['cut', 'stop', 'end', 'finish', 'until', 'till'].includes(w)) &&
    !r.startRequested &&
    !(r.time.anchors.some((a) => a.role === 'start') && r.time.anchors.some((a) => a.role === 'end'))
  ) {
    r.time = { ...r.time, anchors: r.time.anchors.map((a) => ({ ...a, role: 'end' as const })) };
  }
  readDayMove(r);
  const change: Record<string, unknown> = addDaysToRepeat(r, watch) ?? { ...resolveWindowChange(r.time, watch, state.ctx, r.startRequested) };
  if (placesAreNewSubject) {
    const moved = moveWatchToPlaces(r, watch, state, plan, change);
    if (moved !== true) return moved;
  }
  if (r.conditions.length) change.conditions = r.conditions;
  if (Object.keys(change).length === 0 && !placesAreNewSubject && isStopWithNoTime(r)) return planStandDown(r, state, plan);
  if (Object.keys(change).length === 0) return `What should I change about the watch on the ${watch.subject}?`;
  plan.calls.push({
    tool: 'update_watch',
    args: { watch_id: watch.id, ...change },
    subject: (change.subject as string) ?? watch.subject,
    say: describeUpdate(watch, change, state.ctx),
  });
  state.lastWatchId = watch.id;
  return undefined;
}

/**
 * "and weekends too", "weekdays as well": days said with "too", "also" or "as well" add to a watch
 * that repeats on the other days, which then repeats every day at the hours it has
 * (docs/decisions.md, "Round Q: bare hours").
 */
function addDaysToRepeat(r: Reading, watch: { recurrence: string }): Record<string, unknown> | undefined {
  const said = r.time.recurrence;
  const words = r.tokens.map((t) => t.text);
  // (hours of its own, "and weekends too, 10 to 4", are a change of their own; hours the follow-up took from the turn before are not)
  if ((said !== 'weekdays' && said !== 'weekends') || words.some((w) => /\d/.test(w)) || r.time.durationMs !== undefined || r.time.dayOffset || r.time.date)
    return undefined;
  const adds = words.some((w, k) => w === 'too' || w === 'also' || (w === 'as' && words[k + 1] === 'well'));
  const other = said === 'weekdays' ? 'weekends' : 'weekdays';
  return adds && (watch.recurrence === other || watch.recurrence === 'daily') ? { recurrence: 'daily' } : undefined;
}

/** Verbs that move a watch to another day ("move it to monday", "change it to friday"). */
const DAY_MOVE_VERBS = new Set(['move', 'shift', 'reschedule', 'change', 'switch', 'bump']);

/**
 * "move it to monday": a day alone after a moving verb is the watch's new day, not its new end ("until monday"),
 * so the watch keeps its hours on that day (resolveWindowChange, dayOnly). "Extend it to monday", "keep it on
 * till monday" and "move the end to monday" still change the end (docs/decisions.md, "Round O: times and follow-ups").
 */
function readDayMove(r: Reading): void {
  const span = r.tokens.slice(r.clause.from, r.clause.to);
  const [a] = r.time.anchors;
  if (r.time.anchors.length !== 1 || a.kind !== 'clock' || !a.dateOnly || !a.date || r.time.date || r.time.dayOffset !== 0) return;
  if (!span.some((t) => DAY_MOVE_VERBS.has(t.root) || DAY_MOVE_VERBS.has(t.text))) return;
  if (span.some((t) => MOVE_END_WORDS.has(t.text) || MOVE_END_WORDS.has(t.root))) return;
  r.time = { ...r.time, anchors: [], date: { ...a.date, hour: 0, minute: 0 } };
}

/**
 * "change it to the driveway", "no, I meant the garage and the backyard": the places named become the watch's
 * subject (in `change`). True when they did; else the question to ask, or undefined with a refusal in the plan.
 */
function moveWatchToPlaces(r: Reading, watch: ContextWatch, state: PlanState, plan: Plan, change: Record<string, unknown>): string | undefined | true {
  // "no, I meant the store room and the study": every place named is the watch's new subject, never only the first
  const places = r.mentions.map((m) => m.place);
  const unknown = places.find((p) => p.type === 'unknown');
  if (unknown?.type === 'unknown') {
    plan.refusals.push(explainUnknown(unknown, state));
    return undefined;
  }
  const ambiguous = places.find((p) => p.type === 'ambiguous');
  if (ambiguous?.type === 'ambiguous') return askWhich(ambiguous);
  const sensors = [...new Set(places.flatMap(getPlaceSensors))];
  const blocked = sensors.map((s) => explainOutOfReach(state, s)).find(Boolean);
  const empty = places.find((p) => !getPlaceSensors(p).length);
  if (blocked || empty) {
    plan.refusals.push(blocked ?? `There are no sensors in the ${empty ? subjectOf(empty) : 'place'}.`);
    return undefined;
  }
  change.subject = places.map(subjectOf).join(' and ');
  change.sensor_ids = sensors.map((s) => s.id);
  // "no sorry, the backyard not the garage" on a watch of the garage and the driveway: the garage
  // is swapped for the backyard, the driveway stays
  const out = new Set(r.excluded.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
  const kept = watch.sensor_ids.filter((id) => !out.has(id) && !sensors.some((s) => s.id === id));
  if (out.size && kept.length && watch.sensor_ids.some((id) => out.has(id))) {
    const ids = [...kept, ...sensors.map((s) => s.id)];
    change.sensor_ids = ids;
    change.subject = [...new Set(ids.map((id) => state.ctx.sensors.find((s) => s.id === id)?.room).filter(Boolean))].join(' and ');
  }
  return true;
}

/** Verbs that move a watch as a whole ("move the driveway watch to 9"). */
const MOVE_VERBS = new Set(['move', 'shift', 'reschedule', 'bring']);
/** Words that say which end of a watch a time is ("start at 9", "until 9"), besides WINDOW_END_WORDS. */
const MOVE_END_WORDS = new Set([...WINDOW_END_WORDS, 'begin', 'cut', 'between', 'forward', 'back']);

/**
 * "move the driveway watch to 9", "shift the porch one to 10pm": one clock time and a verb that
 * moves the whole watch say neither that it starts nor that it ends then, so the agent asks
 * (docs/decisions.md, "Round J household: coverage of verbs and objects").
 */
function askWhichEndAMoveMeans(r: Reading, watch: ContextWatch): string | undefined {
  const span = r.tokens.slice(r.clause.from, r.clause.to);
  if (!span.some((t) => MOVE_VERBS.has(t.root) || MOVE_VERBS.has(t.text)) || span.some((t) => MOVE_END_WORDS.has(t.text) || MOVE_END_WORDS.has(t.root)))
    return undefined;
  const clocks = r.time.anchors.filter((a) => !(a.kind === 'clock' && a.dateOnly));
  if (clocks.length !== 1 || r.time.durationMs !== undefined || r.time.shiftMs !== undefined) return undefined;
  const said = [...r.time.consumed]
    .sort((a, b) => a - b)
    .map((k) => r.tokens[k].text)
    .filter((w) => !['to', 'at', 'for', 'on'].includes(w))
    .join(' ');
  return `Should the watch on the ${watch.subject} start at ${said} or end at ${said}? I haven't changed anything yet.`;
}

function describeUpdate(watch: ContextWatch, change: Record<string, unknown>, ctx: HouseholdContext): string {
  const parts: string[] = [];
  if (change.subject) parts.push(`it now covers the ${String(change.subject).replace(/ and /g, ' and the ')}`);
  if (change.starts_at || change.ends_at) {
    const s = Date.parse((change.starts_at as string) ?? watch.starts_at);
    const e = Date.parse((change.ends_at as string) ?? watch.ends_at);
    parts.push(`it runs ${describeSpan(Math.max(s, ctx.now), e, (change.recurrence as string) ?? watch.recurrence, ctx)}`);
  } else if (change.recurrence) parts.push(`it now repeats ${change.recurrence === 'daily' ? 'every day' : `on ${change.recurrence}`}`);
  if (change.conditions) parts.push(`it looks for ${(change.conditions as string[]).join(', ').replace(/_/g, ' ')}`);
  return `I've changed the watch on the ${watch.subject}: ${parts.join(', and ')}.`;
}

function watchesOn(place: Place, state: PlanState): ContextWatch[] {
  const ids = new Set(getPlaceSensors(place).map((s) => s.id));
  const label = subjectOf(place).toLowerCase();
  return state.watches.filter((w) => w.sensor_ids.some((id) => ids.has(id)) || w.subject.toLowerCase() === label);
}

function addNote(plan: Plan, note: string): void {
  plan.notes = [...(plan.notes ?? []), note];
}

/**
 * "what's it covering?", "what does the armed watch cover?": the sensors each running watch covers, by name
 * (docs/decisions.md, "Before round Q: words").
 */
function answerWatchCoverage(r: Reading, state: PlanState, plan: Plan): void {
  if (!r.tokens.slice(r.clause.from, r.clause.to).some((t) => /^cover(?:s|ed|ing)?$/.test(t.text))) return;
  for (const w of state.watches) {
    const names = w.sensor_ids.map((id) => state.ctx.sensors.find((s) => s.id === id)?.name).filter(Boolean);
    if (names.length) addAnswer(plan, `The ${w.subject.replace(/^the /, '')} watch (${w.window}) covers ${names.join(', ')}.`);
  }
}

function addAnswer(plan: Plan, answer: string): void {
  plan.answers = [...(plan.answers ?? []), answer];
}

/**
 * "stop watching everything" — "hang on, keep the garden one going tonight": a place whose watch the
 * last turn stood down, kept: with a time said, it is watched again for that time; without one, asked
 * (see docs/decisions.md, "Round H: intent").
 */
function keepJustStoodDown(r: Reading, state: PlanState): 'watch' | 'ask' | undefined {
  if (r.question || r.negated || !r.mentions.length || r.mentions.some((m) => m.place.type !== 'room' && m.place.type !== 'sensor')) return undefined;
  const last = state.ctx.conversation?.turns.at(-1)?.actions ?? [];
  const stood = last.filter((a) => a.type === 'watch.stood_down' && a.subject);
  if (!stood.length) return undefined;
  const named = r.mentions.every((m) => !watchesOn(m.place, state).length && stood.some((a) => a.subject!.toLowerCase() === subjectOf(m.place).toLowerCase()));
  if (!named) return undefined;
  return r.time.hasTime ? 'watch' : 'ask';
}

function askKeepAgain(r: Reading): string {
  const names = r.mentions.map((m) => `the ${subjectOf(m.place)}`).join(' and ');
  return `I've just stood down the watch on ${names}. Should I watch it again — from when until when?`;
}

/** "…but keep the driveway": nothing changes; say what stays. */
function planKeep(r: Reading, state: PlanState, plan: Plan): string | undefined {
  const again = keepJustStoodDown(r, state);
  if (again) return again === 'ask' ? askKeepAgain(r) : planCreateWatch({ ...r, intent: 'create_watch' }, state, plan);
  for (const m of r.mentions) {
    if (m.place.type === 'ambiguous') return askWhich(m.place);
    if (m.place.type === 'unknown' || m.place.type === 'vague') continue;
    const watched = watchesOn(m.place, state);
    addNote(
      plan,
      watched.length
        ? `I'm still watching the ${subjectOf(m.place)} (${watched[0].window}).`
        : `I'm not watching the ${subjectOf(m.place)} now; say "watch the ${subjectOf(m.place)}" if you'd like me to.`,
    );
  }
  return undefined;
}

function askNegatedWithTime(r: Reading, said: number[]): string {
  const names = r.mentions.map((m) => `the ${subjectOf(m.place)}`).join(' and ');
  const time = r.tokens
    .slice(said[0], said.at(-1)! + 1)
    .map((t) => t.text)
    .join(' ');
  return `I'm not watching ${names}, so there is no watch to call off. Did you want me to leave ${names} alone altogether (that has no end time, so "${time}" would not apply)? I haven't changed anything.`;
}

/**
 * A negated request without a watch verb ("don't bother with the driveway", "not the porch"):
 * the place is left out. With "anymore" and a watch on it, that watch is stood down.
 */
function planExclude(r: Reading, state: PlanState, plan: Plan): string | undefined {
  if (!r.mentions.length && r.excluded.length && !r.question) return narrowLastWatch(r, state, plan);
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  const ongoing = words.some((w) => w === 'anymore' || w === 'longer' || w === 'more');
  for (const m of r.mentions) {
    if (m.place.type === 'ambiguous') return askWhich(m.place);
    if (m.place.type === 'unknown' || m.place.type === 'vague') continue;
    const watched = watchesOn(m.place, state);
    // "don't bother with the garage tonight" while it is watched: stop the watch, or leave it alone?
    if (!ongoing && watched.length && r.mentions.length === 1 && !plan.calls.length && !isWithinSaidTime(r, watched, state)) {
      return `Do you want me to stop watching the ${subjectOf(m.place)}, or to leave it alone altogether (no watching or looking)?`;
    }
    if (watched.length && (ongoing || isWithinSaidTime(r, watched, state))) {
      for (const w of watched) {
        plan.calls.push({ tool: 'stand_down_watch', args: { watch_id: w.id }, subject: w.subject, say: `I've stood down the watch on the ${w.subject}.` });
        state.watches = state.watches.filter((x) => x !== w);
      }
    } else {
      addNote(plan, `I'll leave the ${subjectOf(m.place)} out.`);
    }
  }
  return undefined;
}

/**
 * "don't bother with the shed tonight, I've locked it" while the shed's one-off watch runs tonight: the
 * time said is that watch's, so it is that watch that is stood down (a boundary has no time). A watch
 * that repeats, or runs on past the time said, is still asked about (docs/decisions.md, "Round N: scope").
 */
function isWithinSaidTime(r: Reading, watched: ContextWatch[], state: PlanState): boolean {
  if (!r.time.hasTime || r.time.recurrence || (needsLocation(r.time) && !state.ctx.location)) return false;
  const window = resolveWatchWindow(r.time, state.ctx);
  if (window.defaulted) return false;
  return watched.every((w) => w.recurrence === 'none' && Date.parse(w.starts_at) < window.endsAt && Date.parse(w.ends_at) <= window.endsAt + 3_600_000);
}

/**
 * "watch everything tonight" — "but not the study": a follow-up that only leaves a place out takes
 * it off the watch the conversation just made (see docs/decisions.md, "Round G: intent").
 */
function narrowLastWatch(r: Reading, state: PlanState, plan: Plan): string | undefined {
  const names = r.excluded.map((m) => subjectOf(m.place)).join(' and the ');
  const watch = state.lastWatchId ? state.watches.find((w) => w.id === state.lastWatchId) : undefined;
  if (!watch) return `Which watch should I leave the ${names} out of? I haven't changed anything yet.`;
  const out = new Set(r.excluded.flatMap((m) => getPlaceSensors(m.place).map((s) => s.id)));
  const rest = watch.sensor_ids.filter((id) => !out.has(id));
  if (rest.length === watch.sensor_ids.length) {
    addAnswer(plan, `The ${names} isn't part of the watch on the ${watch.subject}, so nothing needed changing.`);
    r.excluded = [];
    return undefined;
  }
  if (!rest.length && !isMadeByLastTurn(watch, state.ctx))
    return `That would leave nothing of the watch on the ${watch.subject}. Do you want me to stand it down? I haven't changed anything yet.`;
  // "watch the porch tonight" — "and the yard" — "actually not the yard": the watch the last turn made is taken back
  if (!rest.length) {
    plan.calls.push({
      tool: 'stand_down_watch',
      args: { watch_id: watch.id },
      subject: watch.subject,
      say: `I've stood down the watch on the ${watch.subject}.`,
    });
    state.watches = state.watches.filter((w) => w !== watch);
    state.lastWatchId = undefined;
    r.excluded = [];
    return undefined;
  }
  const subject = `${watch.subject} except the ${names}`;
  plan.calls.push({
    tool: 'update_watch',
    args: { watch_id: watch.id, sensor_ids: rest, subject },
    subject,
    say: `I've taken the ${names} off the watch on the ${watch.subject}.`,
  });
  r.excluded = [];
  return undefined;
}

/**
 * The watch was made by the conversation's last turn, so leaving out all of it takes that turn's request back
 * (docs/decisions.md, "Before round T: follow-ups"); a watch made earlier is asked about.
 */
function isMadeByLastTurn(watch: ContextWatch, ctx: HouseholdContext): boolean {
  return ctx.conversation?.turns.at(-1)?.actions.some((a) => a.type === 'watch.created' && a.id === watch.id) ?? false;
}

/** "when does it start?", "are you watching the garage?", "how long will you watch it?" */
function answerWatchQuestion(r: Reading, state: PlanState, plan: Plan): string | undefined {
  const ctx = state.ctx;
  const first = r.tokens[r.clause.from]?.text ?? '';
  const yes = ['are', 'is', 'do', 'does', 'will', 'were', 'was', 'have', 'has', 'am'].includes(first) ? 'Yes. ' : '';
  const describe = (w: ContextWatch) =>
    `The watch on the ${w.subject} runs ${describeSpan(Math.max(Date.parse(w.starts_at), ctx.now), Date.parse(w.ends_at), w.recurrence, ctx)}${/sun|dusk|dawn/.test(w.window) ? ` (${w.window.replace(/^every night, /, '')})` : ''}.`;
  if (r.mentions.length) {
    for (const m of r.mentions) {
      if (m.place.type === 'ambiguous') return askWhich(m.place);
      if (m.place.type === 'unknown') {
        plan.refusals.push(explainUnknown(m.place, state));
        continue;
      }
      if (m.place.type === 'vague') continue;
      const watched = watchesOn(m.place, state);
      if (watched.length) for (const w of watched) addAnswer(plan, `${yes}${describe(w)}`);
      else {
        const blocked = getPlaceSensors(m.place)
          .map((s) => explainOutOfReach(state, s))
          .find(Boolean);
        addAnswer(plan, blocked ? `No, I'm not watching the ${subjectOf(m.place)}. ${blocked}` : `No, I'm not watching the ${subjectOf(m.place)} right now.`);
      }
    }
    return undefined;
  }
  const last = state.lastWatchId ? state.watches.find((w) => w.id === state.lastWatchId) : undefined;
  const targets = last ? [last] : state.watches;
  if (!targets.length) addAnswer(plan, "I'm not watching anything right now.");
  for (const w of targets) addAnswer(plan, describe(w));
  return undefined;
}

/** "is the nursery camera muted?" */
function answerMuteQuestion(r: Reading, state: PlanState, plan: Plan): string | undefined {
  // "what's muted?", "which cameras are muted?": every muted sensor (of the kind asked about)
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  const wh = words.find((w) => ['what', 'which', 'anything', 'any'].includes(w));
  const kindOnly = (m: Mention) => m.text.split(' ').every((w) => w in KIND_WORDS);
  if (wh && !r.hasReference && r.mentions.every((m) => (m.place.type === 'group' && m.place.wholeHome) || kindOnly(m))) {
    const kinds = r.mentions.filter(kindOnly).flatMap((m) => m.text.split(' ').map((w) => KIND_WORDS[w]));
    const inScope = r.mentions.some((m) => !kindOnly(m))
      ? r.mentions.flatMap((m) => getPlaceSensors(m.place))
      : state.ctx.sensors.filter((s) => !kinds.length || kinds.includes('any') || kinds.includes(s.kind as 'camera'));
    const muted = inScope.filter((s) => state.muted.has(s.id));
    addAnswer(
      plan,
      muted.length
        ? `${muted
            .map((s) => `The ${s.name}`)
            .join(', ')
            .replace(/, ([^,]*)$/, ' and $1')
            .replace(/(?!^)The /g, 'the ')} ${muted.length === 1 ? 'is' : 'are'} muted.`
        : 'Nothing is muted: every sensor is on.',
    );
    return undefined;
  }
  return visitPlaces(r, state, plan, 'Which sensor do you mean?', (place) => {
    const sensors = getPlaceSensors(place);
    if (!sensors.length) plan.refusals.push(`There are no sensors in the ${subjectOf(place)}.`);
    const muted = sensors.filter((s) => state.muted.has(s.id));
    const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
    const askedOn = words.some((w) => ['on', 'working', 'active', 'enabled', 'live'].includes(w));
    if (sensors.length === 1 && askedOn)
      addAnswer(plan, muted.length ? `No, the ${sensors[0].name} is muted.` : `Yes, the ${sensors[0].name} is on (not muted).`);
    else if (sensors.length === 1) addAnswer(plan, muted.length ? `Yes, the ${sensors[0].name} is muted.` : `No, the ${sensors[0].name} isn't muted.`);
    else if (sensors.length) {
      addAnswer(
        plan,
        muted.length
          ? `${muted.length === sensors.length ? 'Yes' : 'Partly'}: ${muted.map((s) => `the ${s.name}`).join(' and ')} ${muted.length === 1 ? 'is' : 'are'} muted.`
          : `No, nothing in the ${subjectOf(place)} is muted.`,
      );
    }
    rememberSubject(state, place);
  });
}

/** "are you leaving the nursery alone?", "can you see the nursery?" */
function answerBoundaryQuestion(r: Reading, state: PlanState, plan: Plan): string | undefined {
  if ((!r.mentions.length && !r.hasReference) || r.mentions.every((m) => m.place.type === 'group' && m.place.wholeHome)) {
    const names = state.boundaries.map((b) => b.room ?? state.ctx.sensors.find((s) => s.id === b.sensor_id)?.name ?? 'a sensor');
    addAnswer(plan, names.length ? `I'm leaving ${names.map((n) => `the ${n}`).join(' and ')} alone.` : 'There are no boundaries: I can watch every room.');
    return undefined;
  }
  return visitPlaces(r, state, plan, 'Which room or sensor do you mean?', (place) => {
    const sensors = getPlaceSensors(place);
    const blocked = sensors.map((s) => findBoundary(state, s)).find(Boolean);
    const roomBoundary = place.type === 'room' && state.boundaries.some((b) => b.room === place.room && !b.sensor_id);
    addAnswer(
      plan,
      roomBoundary || blocked ? `Yes, I'm leaving the ${subjectOf(place)} alone.` : `No, there's no boundary on the ${subjectOf(place)}; I can watch it.`,
    );
    rememberSubject(state, place);
  });
}

/**
 * Lifting a boundary and unmuting need an unambiguous request: a place read by meaning rather
 * than by its own name ("the baby's room" for the nursery) is confirmed first.
 */
function confirmLifting(r: Reading, how: (name: string) => string): string | undefined {
  for (const m of r.mentions) {
    if ((m.place.type === 'room' || m.place.type === 'sensor') && m.place.byMeaning !== undefined && m.place.byMeaning < 1) {
      const name = subjectOf(m.place);
      return `Do you mean the ${name}? To be sure, say "${how(name)}".`;
    }
  }
  return undefined;
}

/** Words of a time that say "from now, until I say otherwise" ("for now", "for a bit", "for the moment"). */
const OPEN_SPANS = new Set(['now', 'bit', 'while', 'moment', 'time', 'being', 'meantime']);

/**
 * "mute the kitchen motion till tomorrow", "unmute the porch cam at 6", "leave the shed alone for 2
 * hours": a mute or a boundary has no start or end time (src/home/agent/tools.ts: mute_sensor and
 * set_boundary take none), so a time said with one in its own clause would be dropped. Nothing is
 * changed and the reply says so; a time of a reason beside it ("we've the in-laws for the week") is
 * not the request's (docs/decisions.md, "Round K household").
 */
function askAboutTimedSwitch(r: Reading, what: string, lift: string): string | undefined {
  if (!r.time.hasTime || r.question || r.negated) return undefined;
  const own = [...r.time.consumed].filter((k) => {
    if (OPEN_SPANS.has(r.tokens[k].text)) return false;
    // ("…, we've guests for the week", "…, the sitter comes at 6": the time of a statement of its own, after a verb the reading did not use)
    const before = r.tokens.slice(r.clause.from, k);
    return !before.some(
      (t, j) =>
        (t.isVerb && !t.isNoun && !r.used.has(r.clause.from + j)) || ['i', 'we', 'he', 'she', 'they', 'while', 'because', 'since', 'as'].includes(t.text),
    );
  });
  if (!own.length) return undefined;
  const said = r.tokens
    .slice(Math.min(...own), Math.max(...own) + 1)
    .map((t) => t.text)
    .join(' ');
  return (
    `I can't ${what} for a set time ("${said}"): it lasts until you ${lift}, and it happens at once. ` +
    `So I haven't changed anything — say it again without the time if you want it done now, and ask me to ${lift} when you want.`
  );
}

/**
 * "mute the gate" where the front gate has the front gate camera and the front gate latch: a part of the room's name
 * that is in several of its sensors' names may mean any one of them, and muting all of them is a guess — asked. The
 * room's whole name ("mute the front gate") is the room (docs/decisions.md, "Round Q: places").
 */
function askWhichSensorOfPartName(r: Reading, state: PlanState, mute: boolean): string | undefined {
  for (const m of r.mentions) {
    // ("mute the gate" of the side yard's gate camera and gate latch: a group of one room read by name)
    if (m.place.type !== 'room' && (m.place.type !== 'group' || m.place.wholeHome || m.place.except)) continue;
    const said = m.text.toLowerCase().split(/\s+/);
    const room = m.place.type === 'room' ? m.place.room : m.place.sensors[0]?.room;
    if (
      !room ||
      m.place.sensors.some((x) => x.room !== room) ||
      room
        .toLowerCase()
        .split(/[\s-]+/)
        .every((w) => said.includes(w))
    )
      continue;
    const sensors = m.place.sensors.filter(
      (x) =>
        mute !== state.muted.has(x.id) &&
        said.every((w) =>
          x.name
            .toLowerCase()
            .split(/[\s-]+/)
            .includes(w),
        ),
    );
    if (sensors.length < 2) continue;
    const names = sensors.map((x) => `the ${x.name}`);
    return `Which do you mean: ${names.slice(0, -1).join(', ')} or ${names.at(-1)}${sensors.length === 2 ? ', or both' : ''}?`;
  }
  return undefined;
}

/**
 * "unmute bedroom cam" with two bedroom cameras, one of them muted: only the muted one can be unmuted, so that one is
 * meant (docs/decisions.md, "Round R: places"). With none or several muted the question stays; muting is not narrowed.
 */
function narrowUnmuteToMuted(r: Reading, state: PlanState): void {
  r.mentions = r.mentions.map((m) => {
    if (m.place.type !== 'ambiguous') return m;
    const options = m.place.options.map((o) => state.ctx.sensors.find((x) => x.name.toLowerCase() === o.toLowerCase()));
    const muted = options.filter((x) => x && state.muted.has(x.id));
    return options.every(Boolean) && muted.length === 1 ? { ...m, place: { type: 'sensor', sensor: muted[0]! } } : m;
  });
}

function planMute(r: Reading, state: PlanState, plan: Plan, mute: boolean): string | undefined {
  const timed = askAboutTimedSwitch(r, mute ? 'mute a sensor' : 'unmute a sensor', mute ? 'unmute it' : 'mute it again');
  if (timed) return timed;
  // "turn it all off", "switch everything off": stop every watch, or mute every sensor? Both are
  // readings of the words and they differ a lot — asked (only "mute" / "silence" says which)
  const switchWords = (r.clause.cue?.matched ?? []).some((k) => ['turn', 'switch', 'shut'].includes(r.tokens[k].text));
  // ("disable all monitoring", "deactivate everything": no word of muting either — see docs/decisions.md, "Round H: intent")
  const saysMute = (r.clause.cue?.matched ?? []).some((k) => /^(?:mute|muted|silence|shh|shush|hush|sshh)$/.test(r.tokens[k].text));
  if (mute && (switchWords || !saysMute) && r.mentions.length && r.mentions.every((m) => m.place.type === 'group' && m.place.wholeHome)) {
    return 'Do you want me to stand down every watch, or to mute every sensor (nothing watched or looked at until you unmute them)?';
  }
  // "watch the porch tonight" — "turn it off": "it" is the watch the last turn made, not its camera
  const lastTurn = state.ctx.conversation?.turns.at(-1)?.actions ?? [];
  const watchJustMade = lastTurn.find((a) => (a.type === 'watch.created' || a.type === 'watch.updated') && state.watches.some((w) => w.id === a.id));
  if (mute && switchWords && r.hasReference && !r.mentions.length && !r.question && r.clause.from === 0 && watchJustMade) {
    state.lastWatchId = watchJustMade.id;
    return planStandDown({ ...r, intent: 'stand_down', hasReference: false }, state, plan);
  }
  if (!mute) {
    const ask = confirmLifting(r, (name) => `unmute the ${name}`);
    if (ask) return ask;
    narrowUnmuteToMuted(r, state);
  }
  const which = askWhichSensorOfPartName(r, state, mute);
  if (which) return which;
  return visitPlaces(r, state, plan, `Which sensor should I ${mute ? 'mute' : 'unmute'}?`, (place) => {
    const sensors = getPlaceSensors(place);
    if (!sensors.length) plan.refusals.push(`There are no sensors in the ${subjectOf(place)}.`);
    for (const s of sensors) {
      if (mute === state.muted.has(s.id)) {
        if (place.type !== 'group' || sensors.length === 1) plan.refusals.push(mute ? `The ${s.name} is already muted.` : `The ${s.name} isn't muted.`);
        continue;
      }
      plan.calls.push({
        tool: mute ? 'mute_sensor' : 'unmute_sensor',
        args: { sensor_id: s.id },
        subject: s.name,
        say: mute ? `I've muted the ${s.name}.` : `I've unmuted the ${s.name}.`,
      });
      if (mute) state.muted.add(s.id);
      else state.muted.delete(s.id);
    }
    rememberSubject(state, place);
  });
}

function planBoundary(r: Reading, state: PlanState, plan: Plan, set: boolean): string | undefined {
  const timed = askAboutTimedSwitch(r, set ? 'leave a place alone' : 'lift a boundary', set ? 'lift the boundary' : 'set it again');
  if (timed) return timed;
  // "remove all boundaries": every boundary there is, said as plainly as that
  const all = r.mentions.length > 0 && r.mentions.every((m) => m.place.type === 'group' && m.place.wholeHome);
  if (!set && (all || (r.wantsAll && !r.mentions.length))) {
    if (!state.boundaries.length) plan.refusals.push('There are no boundaries to lift — I can watch everything already.');
    for (const b of [...state.boundaries]) {
      const name = b.room ?? state.ctx.sensors.find((x) => x.id === b.sensor_id)?.name ?? 'that sensor';
      plan.calls.push({
        tool: 'clear_boundary',
        args: b.room ? { room: b.room } : { sensor_id: b.sensor_id },
        subject: name,
        say: `Okay — I can watch the ${name} again.`,
      });
    }
    state.boundaries = [];
    return undefined;
  }
  if (!set) {
    const ask = confirmLifting(r, (name) => `you can watch the ${name} again`);
    if (ask) return ask;
  }
  return visitPlaces(r, state, plan, 'Which room or sensor do you mean?', (place) => {
    const targets: { room?: string; sensor_id?: string; name: string }[] =
      place.type === 'room'
        ? [{ room: place.room, name: place.room }]
        : place.type === 'sensor'
          ? [{ sensor_id: place.sensor.id, name: place.sensor.name }]
          : place.sensors.map((s) => ({ sensor_id: s.id, name: s.name }));
    for (const t of targets) {
      const existing = state.boundaries.find((b) => (t.room && b.room === t.room && !b.sensor_id) || (t.sensor_id && b.sensor_id === t.sensor_id));
      const sensor = t.sensor_id ? state.ctx.sensors.find((s) => s.id === t.sensor_id) : undefined;
      const viaRoom = sensor && state.boundaries.find((b) => b.room === sensor.room && !b.sensor_id);
      if (set && (existing || viaRoom)) {
        plan.refusals.push(`I'm already leaving the ${existing ? t.name : viaRoom!.room} alone.`);
        continue;
      }
      if (!set && !existing) {
        plan.refusals.push(
          viaRoom
            ? `The boundary is on the whole ${viaRoom.room}; say "you can watch the ${viaRoom.room} again" to lift it.`
            : `There's no boundary on the ${t.name} — I can already watch it.`,
        );
        continue;
      }
      const args = t.room ? { room: t.room } : { sensor_id: t.sensor_id };
      plan.calls.push({
        tool: set ? 'set_boundary' : 'clear_boundary',
        args,
        subject: t.name,
        say: set ? `Understood — I'll leave the ${t.name} alone: no watching, no looking, no events from it.` : `Okay — I can watch the ${t.name} again.`,
      });
      if (set) state.boundaries.push(args);
      else state.boundaries = state.boundaries.filter((b) => b !== existing);
    }
    rememberSubject(state, place);
  });
}

function planDescribe(r: Reading, state: PlanState, plan: Plan): string | undefined {
  return visitPlaces(r, state, plan, 'Which room or sensor should I look at?', (place) => {
    const sensors = getPlaceSensors(place);
    const reachable = sensors.filter((s) => !explainOutOfReach(state, s));
    if (!reachable.length) {
      plan.refusals.push(sensors.length ? explainOutOfReach(state, sensors[0])! : `There are no sensors in the ${subjectOf(place)}.`);
      return;
    }
    if (place.type === 'room') plan.calls.push({ tool: 'describe_scene', args: { room: place.room }, subject: place.room });
    else if (place.type === 'sensor') plan.calls.push({ tool: 'describe_scene', args: { sensor_id: place.sensor.id }, subject: place.sensor.name });
    else for (const s of reachable) plan.calls.push({ tool: 'describe_scene', args: { sensor_id: s.id }, subject: s.name });
    rememberSubject(state, place);
  });
}

/** True when `since` is the local midnight that starts the day of `from`, and `from` is later that day. */
function isDayStartBefore(since: number, from: number, timeZone: string): boolean {
  const a = toWallClock(since, timeZone);
  const b = toWallClock(from, timeZone);
  return a.hour === 0 && a.minute === 0 && a.year === b.year && a.month === b.month && a.day === b.day && from > since;
}

function planListEvents(r: Reading, state: PlanState, plan: Plan): string | undefined {
  const args: Record<string, unknown> = {};
  const since = resolveSince(r.time, state.ctx);
  if (since !== undefined) args.since = new Date(since).toISOString();
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  // a period that is over ("last night", "yesterday afternoon") has an end too: the shared past-range reader's (docs/decisions.md, "Household: honest past answers")
  const period = findTimePhrase(words.join(' '), { now: state.ctx.now, timeZone: state.ctx.timeZone }).phrase;
  if (period.kind === 'range' && period.to < state.ctx.now - 60_000) {
    // a day said with a part of it ("yesterday afternoon") starts where the part starts, not at the
    // day's midnight; any other start read ("since 9 last night", "last night" from sunset) stands
    args.since = new Date(since === undefined || isDayStartBefore(since, period.from, state.ctx.timeZone) ? period.from : since).toISOString();
    args.until = new Date(period.to).toISOString();
  }
  if (words.some((w) => w === 'alert' || w === 'alerts')) args.kind = 'alert';
  else if (r.conditions.length === 1) args.kind = r.conditions[0];
  const limitAt = words.findIndex((w, k) => /^\d+$/.test(w) && ['events', 'event', 'alerts', 'things'].includes(words[k + 1] ?? ''));
  if (limitAt >= 0) args.limit = Math.min(100, Number(words[limitAt]));
  let subject: string | undefined;
  if (words.includes('watch') && r.mentions.length) {
    const target = findTargetWatches(r, state, true);
    if (target.question) return target.question;
    if (target.refusal) {
      plan.refusals.push(target.refusal);
      return undefined;
    }
    args.watch_id = target.watches[0].id;
    subject = target.watches[0].subject;
  } else if (r.mentions.length) {
    const place = r.mentions[0].place;
    if (place.type === 'ambiguous') return askWhich(place);
    if (place.type === 'unknown') {
      plan.refusals.push(explainUnknown(place, state));
      return undefined;
    }
    // a place left alone is not looked at, whenever; a muted sensor's past is answered, saying when it was muted (past-answer.ts)
    const blocked = getPlaceSensors(place).map((s) => (findBoundary(state, s) ? explainOutOfReach(state, s) : undefined));
    if (blocked.length && blocked.every(Boolean)) {
      plan.refusals.push(blocked[0]!);
      return undefined;
    }
    const rooms = new Set(getPlaceSensors(place).map((s) => s.room));
    if (place.type === 'room') args.room = place.room;
    else if (place.type === 'sensor') args.sensor_id = place.sensor.id;
    else if (rooms.size === 1 && place.type === 'group' && !place.wholeHome) args.room = [...rooms][0];
    subject = subjectOf(place);
  }
  plan.calls.push({ tool: 'list_events', args, subject });
  return undefined;
}

const KIND_NAMES: Record<string, string> = { camera: 'camera', motion: 'motion sensor', contact: 'contact sensor' };

function planAddSensor(r: Reading, state: PlanState, plan: Plan): string | undefined {
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  const urlToken = words.find((w) => /^url\d+$/.test(w));
  const kindWord = words.map((w) => KIND_WORDS[w]).find((k) => k && k !== 'any') as 'camera' | 'contact' | 'motion' | undefined;
  const kind = kindWord ?? (words.includes('door') || words.includes('window') ? 'contact' : 'camera');
  // "add the driveway too": a place this home has, added to the watch the conversation is about
  const known = r.mentions.filter((m) => m.place.type === 'room' || m.place.type === 'sensor');
  if (!urlToken && !kindWord && known.length && known.length === r.mentions.length && addPlacesToWatch(known, state, plan)) return undefined;
  // the kind as said; src/org/streams/source-kind.ts decides it with the URL. A WHIP publisher needs no address
  const saidKind = words.some((w) => /^(whip|webrtc|publish|publishes|publisher|browser)$/.test(w))
    ? 'webrtc'
    : words.some((w) => /^(mjpeg|mjpg|hls)$/.test(w))
      ? 'http'
      : undefined;
  if (!urlToken && saidKind !== 'webrtc')
    return `What's the ${KIND_NAMES[kind]}'s address (for example rtsp://192.168.1.20/stream1, or an http:// MJPEG or HLS stream)? A phone or browser can also publish to me over WebRTC.`;
  const url = urlToken ? r.urls[Number(urlToken.slice(3))] : undefined;
  let name = readNewSensorName(words);
  const timed = name && findTimeInSensorName(name);
  if (timed) return `I didn't understand "${timed}" in the name "${name}", so I haven't added anything. What should I call it?`;
  const room = readNewSensorRoom(words, name);
  if (!room) return 'Which room is it in, and what should I call it?';
  name ??= `${room} ${KIND_NAMES[kind]}`;
  const index = plan.calls.length;
  const sourceUrl = url ?? `webrtc://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  plan.calls.push({
    tool: 'add_sensor',
    args: { name, kind, room, source_url: sourceUrl, ...(saidKind ? { source_type: saidKind } : {}) },
    subject: name,
    say: `I've added the ${name} in the ${room}.`,
  });
  const sensor: ContextSensor = { id: `$ref:${index}`, name, kind, room, muted: false };
  state.ctx = { ...state.ctx, sensors: [...state.ctx.sensors, sensor] };
  state.lastSubject = { kind: 'sensor', sensor };
  return undefined;
}

/** Adds places this home has to the watch the conversation is about; false when there is no such watch. */
function addPlacesToWatch(known: Mention[], state: PlanState, plan: Plan): boolean {
  const watch = state.lastWatchId ? state.watches.find((w) => w.id === state.lastWatchId) : state.watches.length === 1 ? state.watches[0] : undefined;
  if (!watch) return false;
  const added = known.flatMap((m) => getPlaceSensors(m.place)).filter((s) => !watch.sensor_ids.includes(s.id));
  const blocked = added.map((s) => explainOutOfReach(state, s)).find(Boolean);
  if (blocked) {
    plan.refusals.push(blocked);
    return true;
  }
  if (!added.length) {
    addNote(plan, `The watch on the ${watch.subject} already covers that.`);
    return true;
  }
  const subject = [watch.subject, ...known.map((m) => subjectOf(m.place))].join(' and ');
  const sensorIds = [...watch.sensor_ids, ...added.map((s) => s.id)];
  plan.calls.push({
    tool: 'update_watch',
    args: { watch_id: watch.id, sensor_ids: sensorIds, subject },
    subject,
    say: `I've added the ${known.map((m) => subjectOf(m.place)).join(' and the ')} to the watch on the ${watch.subject}.`,
  });
  watch.sensor_ids = sensorIds;
  return true;
}

function planSetLocation(r: Reading, state: PlanState, plan: Plan): string | undefined {
  const args: Record<string, unknown> = {};
  // coordinates and zone names are formats, read from the message as typed
  const coords = /(-?\d{1,2}\.\d+)\s*[,; ]\s*(-?\d{1,3}\.\d+)/.exec(r.message);
  const zone = /\b([a-z]+\/[a-z_]+(?:\/[a-z_]+)?)\b/i.exec(r.message.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ''));
  if (coords) {
    args.lat = Number(coords[1]);
    args.lon = Number(coords[2]);
  }
  if (zone) {
    const name = zone[1]
      .split('/')
      .map((p) =>
        p
          .split('_')
          .map((w) => w[0].toUpperCase() + w.slice(1))
          .join('_'),
      )
      .join('/');
    if (!isValidTimeZone(name)) {
      plan.refusals.push(`I don't know the time zone "${zone[1]}". Use a name like Europe/Lisbon or America/New_York.`);
      return undefined;
    }
    args.time_zone = name;
  }
  if (!coords && !zone) {
    const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
    const at = words.findIndex((w, k) => (w === 'in' || w === 'to') && k > 0);
    const cityWords = at >= 0 ? words.slice(at + 1).filter((w) => w !== 'the') : [];
    const stop = cityWords.findIndex((w) => ['now', 'and', 'please', 'since', 'from'].includes(w));
    const cityName = cityWords.slice(0, stop < 0 ? undefined : stop).join(' ');
    if (!cityName) return 'Which city is your home in (or what are its coordinates)?';
    const found = lookupCity(cityName, state.ctx.timeZone);
    if (found.status === 'ambiguous') return `There are several places called ${titleCase(cityName)}: ${found.options.join('; ')}. Which one?`;
    if (found.status === 'unknown') {
      plan.refusals.push(
        `I don't know a city called ${titleCase(cityName)}. You can give me your coordinates instead, like "our coordinates are 38.72, -9.14".`,
      );
      return undefined;
    }
    Object.assign(args, { city: found.city, lat: found.lat, lon: found.lon, time_zone: found.timeZone });
  }
  const where = args.city
    ? `${args.city} (${args.time_zone})`
    : [args.lat !== undefined ? `${args.lat}, ${args.lon}` : '', (args.time_zone as string) ?? ''].filter(Boolean).join(', time zone ');
  plan.calls.push({ tool: 'set_household', args, say: `I've set your home's location to ${where}.` });
  if (args.lat !== undefined)
    state.ctx = { ...state.ctx, location: { lat: args.lat as number, lon: args.lon as number, city: args.city as string | undefined } };
  if (args.time_zone) state.ctx = { ...state.ctx, timeZone: args.time_zone as string };
  return undefined;
}

function titleCase(s: string): string {
  return s.replace(/\b\w/g, (c) => c.toUpperCase());
}

function planRename(r: Reading, state: PlanState, plan: Plan): string | undefined {
  const words = r.tokens.slice(r.clause.from, r.clause.to).map((t) => t.text);
  const first = r.mentions[0];
  const fromPlace = first?.place;
  if (!fromPlace) return 'Which room should I rename, and to what?';
  if (fromPlace.type === 'unknown') {
    plan.refusals.push(explainUnknown(fromPlace, state));
    return undefined;
  }
  if (fromPlace.type !== 'room') return 'I can rename rooms; which room do you mean?';
  let rest = words.slice(first.end - r.clause.from);
  if (rest[0] === 'to' || rest[0] === 'as') rest = rest.slice(1);
  const stop = rest.findIndex((w) => ['from', 'instead', 'please', 'now'].includes(w));
  const to = rest
    .slice(0, stop < 0 ? undefined : stop)
    .filter((w) => w !== 'the' && w !== 'to')
    .join(' ');
  if (!to) return `What should I call the ${fromPlace.room}?`;
  plan.calls.push({
    tool: 'set_household',
    args: { rename_room: { from: fromPlace.room, to } },
    subject: fromPlace.room,
    say: `I've renamed the ${fromPlace.room} to ${to}.`,
  });
  state.lastSubject = { kind: 'room', room: fromPlace.room };
  return undefined;
}

function dedupeCalls(calls: PlannedCall[]): PlannedCall[] {
  const seen = new Set<string>();
  return calls.filter((c) => {
    if (c.tool === 'create_watch' || c.tool === 'add_sensor') return true;
    const key = `${c.tool}:${JSON.stringify(c.args)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------- conversation memory

/** The last room or sensor the conversation acted on, for "it". */
function findLastSubject(ctx: HouseholdContext, depth = 0): Subject | undefined {
  const turns = ctx.conversation?.turns ?? [];
  for (let t = turns.length - 1; t >= 0; t--) {
    // "is the garden being watched tonight?" — "stop it at 9 instead": a turn that changed nothing
    // still named what "it" is, when it named exactly one place
    if (depth === 0 && !turns[t].actions.some((a) => a.subject && !a.type.startsWith('watches.'))) {
      const named = readMessage(turns[t].message, { ...ctx, conversation: { turns: turns.slice(0, t) } }, 1)
        .flatMap((r) => r.mentions)
        .map((m) => m.place)
        .filter((p): p is KnownPlace => p.type === 'room' || p.type === 'sensor');
      const unique = [...new Map(named.map((p) => [subjectOf(p), p])).values()];
      if (unique.length === 1) {
        const p = unique[0];
        return p.type === 'sensor' ? { kind: 'sensor', sensor: p.sensor } : { kind: 'room', room: (p as Extract<Place, { type: 'room' }>).room };
      }
      if (unique.length > 1) return undefined;
    }
    for (const a of [...turns[t].actions].reverse()) {
      if (!a.subject || a.type.startsWith('watches.')) continue;
      const name = a.subject.toLowerCase();
      const sensor = ctx.sensors.find((s) => s.id === a.id || s.name.toLowerCase() === name);
      if (sensor && !a.type.startsWith('watch.')) return { kind: 'sensor', sensor };
      const room = ctx.rooms.find((r) => r.name.toLowerCase() === name);
      if (room) return { kind: 'room', room: room.name };
      if (sensor) return { kind: 'sensor', sensor };
    }
  }
  return undefined;
}

/** Requests whose object is a place (not a watch): "watch both of them", "mute all of them". */
const PLACE_INTENTS = new Set<IntentKind>(['create_watch', 'mute', 'unmute', 'set_boundary', 'clear_boundary', 'describe']);
const PLURAL_PRONOUNS = new Set(['them', 'those', 'these']);

/**
 * How many places a plural reference means: 2 for "both (of them)", "the two of them", "them
 * both"; 0 for a set of any size ("all of them", "them all", "those"); undefined when the clause
 * has none. The index list is the words that said it, for coverage.
 */
function readPluralReference(r: Reading): { count: number; at: number[] } | undefined {
  const { from, to } = r.clause;
  const words = r.tokens.slice(from, to).map((t) => t.text);
  // "both watches", "all the watches": the watches, not places
  if (words.some((w) => w === 'watches')) return undefined;
  for (let k = 0; k < words.length; k++) {
    const ofThem = words[k + 1] === 'of' && PLURAL_PRONOUNS.has(words[k + 2] ?? '');
    const at = ofThem ? [from + k, from + k + 1, from + k + 2] : [from + k];
    if (words[k] === 'both' && (ofThem || !words.slice(k + 1).some((w) => w === 'the' || w === 'my' || w === 'our'))) return { count: 2, at };
    if (words[k] === 'two' && ofThem) return { count: 2, at };
    if (words[k] === 'all' && ofThem) return { count: 0, at };
    if (PLURAL_PRONOUNS.has(words[k]) && (words[k + 1] === 'all' || words[k + 1] === 'both'))
      return { count: words[k + 1] === 'both' ? 2 : 0, at: [from + k, from + k + 1] };
    if ((words[k] === 'them' || words[k] === 'those') && words[k - 1] !== 'of') return { count: 0, at: [from + k] };
  }
  return undefined;
}

/**
 * "is the front door shut?" — "and the back door?" — "watch both of them tonight": a plural
 * reference is the set of places the conversation last named — "both" the last two, "all of them"
 * and "them" those of the last turn that named places, with the turns it continued ("and the …?",
 * "what about …"). A count that does not fit what was named is asked, never guessed (see
 * docs/decisions.md, "Round I: words").
 */
function resolvePluralReference(r: Reading, ctx: HouseholdContext): void {
  if (!r.intent || !PLACE_INTENTS.has(r.intent)) return;
  // "all of them": "all" alone reads as the whole home; here it is the set named before
  const quantifierOnly = r.mentions.length === 1 && r.mentions[0].place.type === 'group' && r.mentions[0].place.wholeHome && r.mentions[0].text === 'all';
  if (r.mentions.length && !quantifierOnly) return;
  const plural = readPluralReference(r);
  if (!plural) return;
  const named = findNamedSet(ctx, plural.count);
  if (!named) return;
  for (const k of plural.at) r.used.add(k);
  const at = { start: r.clause.from, end: r.clause.from };
  if (plural.count && named.length !== plural.count) {
    const label = plural.count === 2 ? 'two' : 'ones';
    r.mentions = [
      { ...at, text: label, place: named.length > plural.count ? { type: 'ambiguous', label, options: named.map(subjectOf) } : { type: 'vague', label } },
    ];
  } else r.mentions = named.map((place) => ({ ...at, text: subjectOf(place), place }));
  r.hasReference = false;
}

/**
 * "watch the shed from 9pm" — "and the garage, same times" — "stop both": a plural reference in a stand-down that names
 * no place is the watches the conversation last made (conversation-watches.ts); "both" that fits none is asked,
 * "them" after one watch is read as before (docs/decisions.md, "Before round S: follow-ups").
 */
function resolvePluralWatchReference(r: Reading, ctx: HouseholdContext): void {
  if (r.intent !== 'stand_down' || r.mentions.length || r.wantsAll || r.question) return;
  const plural = readPluralReference(r);
  if (!plural) return;
  const ids = findPluralWatches(ctx, plural.count);
  if (!ids && plural.count !== 2) return;
  for (const k of plural.at) r.used.add(k);
  r.pluralWatchIds = ids ?? [];
}

/** A turn that continues the one before it rather than naming a new set: "and the back door?", "what about the shed?". */
const CONTINUING_TURN = /^\s*(?:and|also|plus|or|what about|how about)\b/i;

/** The places the conversation's last turns named, most recent turn first: `count` of them, or the last turn's set (0). */
function findNamedSet(ctx: HouseholdContext, count: number): KnownPlace[] | undefined {
  const turns = ctx.conversation?.turns ?? [];
  const found = new Map<string, KnownPlace>();
  for (let t = turns.length - 1; t >= Math.max(0, turns.length - 4); t--) {
    const places = readMessage(turns[t].message, { ...ctx, conversation: { turns: turns.slice(0, t) } }, 1)
      .flatMap((r) => r.mentions.map((m) => m.place))
      .filter((p): p is KnownPlace => p.type === 'room' || p.type === 'sensor' || (p.type === 'group' && !p.wholeHome));
    for (const p of places) if (!found.has(subjectOf(p))) found.set(subjectOf(p), p);
    if (count ? found.size >= count : found.size > 0 && !CONTINUING_TURN.test(turns[t].message)) break;
  }
  // the reference is resolved only when the conversation named more than one place
  return found.size > 1 || (count && found.size) ? [...found.values()].reverse() : undefined;
}

/**
 * "the other one": the conversation named two places ("the front door camera or the drive one?")
 * and acted on one; the other is the one left. Undefined when that is not exactly one place.
 */
/**
 * "stop watching the carport" — "and the other one": right after a watch was stood down, the one
 * watch still running, when exactly one is (two watches, one just named: the other is the second).
 */
function findOtherWatchPlace(ctx: HouseholdContext): KnownPlace | undefined {
  const last = ctx.conversation?.turns.at(-1);
  if (!last?.actions.some((a) => a.type === 'watch.stood_down') || ctx.watches.length !== 1) return undefined;
  const sensors = ctx.sensors.filter((s) => ctx.watches[0].sensor_ids.includes(s.id));
  if (!sensors.length) return undefined;
  return sensors.length === 1
    ? { type: 'sensor', sensor: sensors[0] }
    : { type: 'group', label: ctx.watches[0].subject, sensors, wholeHome: false, except: false };
}

function findOtherPlace(ctx: HouseholdContext): KnownPlace | undefined {
  const turns = ctx.conversation?.turns ?? [];
  const last = findLastSubject(ctx);
  if (!last) return undefined;
  const lastIds = new Set(last.kind === 'sensor' ? [last.sensor.id] : ctx.sensors.filter((s) => s.room === last.room).map((s) => s.id));
  const named: KnownPlace[] = [];
  for (let t = Math.max(0, turns.length - 3); t < turns.length; t++) {
    for (const r of readMessage(turns[t].message, { ...ctx, conversation: { turns: turns.slice(0, t) } }, 1)) {
      for (const place of r.mentions.flatMap((m) => listWeighedPlaces(m.place, ctx))) {
        const ids = getPlaceSensors(place).map((x) => x.id);
        if (!ids.length || ids.some((id) => lastIds.has(id))) continue;
        if (!named.some((p) => subjectOf(p) === subjectOf(place))) named.push(place);
      }
    }
  }
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The places a mention weighed: a room or a sensor named, or each option of a "which X do you mean: A, B?" question
 * found by its name ("mute the garage camera" — "the front one" — "no, the other one": the back one).
 */
function listWeighedPlaces(place: Place, ctx: HouseholdContext): KnownPlace[] {
  if (place.type === 'room' || place.type === 'sensor') return [place];
  if (place.type !== 'ambiguous') return [];
  return place.options.flatMap((o): KnownPlace[] => {
    const sensor = ctx.sensors.find((x) => x.name.toLowerCase() === o.toLowerCase());
    if (sensor) return [{ type: 'sensor', sensor }];
    const room = ctx.rooms.find((x) => x.name.toLowerCase() === o.toLowerCase());
    return room ? [{ type: 'room', room: room.name, sensors: ctx.sensors.filter((x) => x.room === room.name) }] : [];
  });
}

/** The watch the conversation last created or changed, if still active. */
function findLastWatchId(ctx: HouseholdContext): string | undefined {
  const turns = ctx.conversation?.turns ?? [];
  for (let t = turns.length - 1; t >= 0; t--) {
    for (const a of [...turns[t].actions].reverse()) {
      if ((a.type === 'watch.created' || a.type === 'watch.updated') && a.id && ctx.watches.some((w) => w.id === a.id)) return a.id;
    }
  }
  return undefined;
}
