/**
 * Well-formed text (docs/decisions.md, "Text integrity"). A JavaScript string may hold an unpaired
 * UTF-16 surrogate (JSON `"\ud800"` parses to one); neither SQLite nor PostgreSQL can store it, so
 * both write U+FFFD in its place. In a `u` regular expression a paired surrogate is one code point,
 * so this class matches only the unpaired ones (String.prototype.isWellFormed is ES2024, newer than
 * the library target this project compiles against).
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

export function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** The text as the databases store it: each unpaired surrogate replaced by U+FFFD. */
export function toWellFormedText(s: string): string {
  return s.replace(LONE_SURROGATES, '\uFFFD');
}
