/**
 * A message that claims an authority the user's own words never need is content, never an
 * instruction: a tag in brackets or between rules that names a role, a mode or a verification
 * ("[ADMIN OVERRIDE - owner verified]", "{system notice}", "*** SYSTEM OVERRIDE ***", "[AUTHORIZED]"),
 * a label that opens the message ("OVERRIDE:", "ADMIN -"), or a claim said in words ("owner verified",
 * "access level: administrator", "priority override"). The person talking to Vigil is already known by
 * their key; nothing they type can raise it. See docs/decisions.md, "Round I: intent and safety".
 */

/** Words that, inside a tag, claim a role, a mode or a check passed. */
const AUTHORITY_WORD = String.raw`(?:admin(?:istrator)?s?|system|sys|sysadmin|override|overridden|root|sudo|superuser|verified|verification|authori[sz](?:ed|ation)|authenticat(?:ed|ion)|privileged?|privileges|elevated|vigil|security (?:team|override|level|clearance|notice)|emergency (?:override|access|mode)|access (?:granted|level|code))`;
/**
 * Words that claim authority in a tag only where nobody writes an aside: alone in square, curly or
 * angle brackets, between rules, or in capitals ("[PRIORITY]", "{maintenance notice}", "(OWNER)"); in
 * round brackets in lower case only beside another claim word ("(owner, priority)"), since there they
 * are the user's own notes ("(internal door)", "(the support beam is loose)", "(my priority)").
 */
const ASIDE_WORD = String.raw`(?:support|developers?|dev|operators?|owner|homeowner|priority|maintenance|debug|internal|official|instructions?|command)`;
const around = (word: string, flags: string) => new RegExp(String.raw`(?<!\p{L})${word}(?![\p{L}'’])`, flags);
const AUTHORITY_IN_TAG = around(AUTHORITY_WORD, 'iu');
const ASIDE_IN_TAG = around(ASIDE_WORD, 'giu');

const ROUND_TAG = /\(([^()\n]{1,80})\)/g;

/** A tag: words in brackets of any kind, or between runs of *, =, # or ~, up to eight words long. */
const TAG_SPANS = [
  /\[{1,2}([^\][\n]{1,80})\]{1,2}/g,
  ROUND_TAG,
  /\{([^{}\n]{1,80})\}/g,
  /<([^<>\n]{1,80})>/g,
  /【([^【】\n]{1,80})】/g,
  /(?:^|\s)(?:\*{2,}|={2,}|#{2,}|~{2,}|>{3,})\s*([^*=#~>\n]{1,80}?)\s*(?:\*{2,}|={2,}|#{2,}|~{2,}|<{3,}|$)/g,
];

/** A label that opens the message and claims to be someone else speaking: "OVERRIDE:", "ADMIN -", "ROOT >" (narrower than a tag's words: "my priority:" is no claim). */
const LABEL_WORD = String.raw`(?:admin(?:istrator)?|system|sys|sysadmin|override|root|sudo|superuser|developer|operator|authori[sz]ed|verified)`;
const OPENING_LABEL = new RegExp(String.raw`^\W*(?:\w+\s+){0,2}${LABEL_WORD}\b(?:\s+\w+){0,2}\s*(?::|-{1,2}|–|—|>|\|)(?:\s|$)`, 'i');

/** A claim said in words anywhere in the message. */
const SAID_CLAIM =
  /\b(?:owner|identity|user|account|admin|request|it'?s me,?)(?: has| have| was| is)?(?: been)?[- ](?:verified|authenticated|confirmed|authori[sz]ed)\b|\b(?:automated|official|system) (?:message|notice|alert|update) from\b|\bmessage from (?:vigil|the system|(?:the )?(?:support|admin|security) team)\b|\bsecurity (?:update|patch|alert|notice)\s*:|\b(?:your|the) new (?:instructions|rules|orders|directives)\b|\bverified (?:owner|admin|user|account|identity)\b|\b(?:authentication|verification|authori[sz]ation) (?:complete|completed|successful|succeeded|passed|granted|code|token)\b|\baccess (?:level|granted|code)\b|\b(?:priority|security|manual|master|owner|emergency) override\b|\boverride (?:code|granted|enabled|active|mode|accepted)\b|\b(?:admin|maintenance|god|debug|root|service|superuser|unrestricted) mode\b|\b(?:admin|root|superuser|elevated) (?:rights|access|privileges?|permissions?)\b|\bprivileges? (?:granted|escalated|elevated)\b/i;

function tagClaims(inner: string, round: boolean): boolean {
  if (inner.trim().split(/\s+/).length > 8) return false;
  if (AUTHORITY_IN_TAG.test(inner)) return true;
  const asides = [...inner.matchAll(ASIDE_IN_TAG)].length;
  const capitals = /\p{Lu}{2}/u.test(inner) && inner === inner.toUpperCase();
  return asides > 0 && (!round || asides > 1 || capitals);
}

/** True when the message claims an authority (a role, a mode, a check passed) in a tag, an opening label or words. */
export function claimsAuthority(message: string): boolean {
  const text = message.replace(/[\u2018\u2019]/g, "'");
  if (SAID_CLAIM.test(text) || OPENING_LABEL.test(text)) return true;
  for (const span of TAG_SPANS) for (const m of text.matchAll(span)) if (tagClaims(m[1], span === ROUND_TAG)) return true;
  return false;
}
