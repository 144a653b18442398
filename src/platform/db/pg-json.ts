/**
 * Rows as one JSON text for PostgreSQL's json_to_recordset() (the pipeline's batch inserts;
 * docs/decisions.md, 'PostgreSQL batch inserts as one JSON parameter'). JSON.stringify writes a lone UTF-16 surrogate as a `\udXXX` escape, which
 * PostgreSQL refuses in text ("Unicode low surrogate must follow a high surrogate"), failing the
 * whole batch; sent as a plain parameter the same string is encoded as U+FFFD. The escapes are
 * replaced by U+FFFD here, so both paths store the same text. Well-formed pairs are written as
 * characters, never escaped, so every such escape is a lone surrogate; one preceded by an odd
 * number of backslashes is the text `\ud…` itself and is kept.
 */
export function pgJsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\ud') ? text.replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g, '$1\ufffd') : text;
}
