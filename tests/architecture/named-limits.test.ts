import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// One constant per limit: a stored name or text (the Name() and Text() schema helpers in
// src/platform/http/common.schemas.ts) takes its maxLength from a named constant, never a number
// typed in place, so one limit cannot drift into two values between endpoints. Shared limits live
// beside the helpers (MAX_NAME_CHARS, MAX_LABEL_CHARS, …); a limit of one field is a constant in its
// schema file.
const LITERAL_BOUND = /\b(?:Name|Text)\(\{[^}]*\bmaxLength:\s*\d/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

export function literalBounds(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (LITERAL_BOUND.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

test('every Name() and Text() bound in src/ is a named constant', () => {
  const found = sources('src').flatMap((file) => literalBounds(file, readFileSync(file, 'utf8')));
  assert.deepEqual(found, [], 'use a named limit (src/platform/http/common.schemas.ts) instead of a number');
});

test('the check fires on a number and not on a constant', () => {
  assert.equal(literalBounds('x.ts', `name: Name({ maxLength: 200, examples: ['a'] }),`).length, 1);
  assert.equal(literalBounds('x.ts', `note: Type.Optional(Text({ description: 'd', maxLength: 2000 })),`).length, 1);
  assert.deepEqual(literalBounds('x.ts', `name: Name({ maxLength: MAX_NAME_CHARS, examples: ['a'] }),`), []);
});
