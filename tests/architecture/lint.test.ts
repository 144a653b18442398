import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

// The linter's rules (eslint.config.js) do what they are for: a probe with one defect of each kind
// is caught by each rule, so a rule switched off or a broken type-aware setup fails `npm test`.
// The whole tree is linted by scripts/run-tests.mjs beside the test files (`npm test`, or
// `npm test -- lint` alone). See docs/decisions.md, 'Lint and format'.

test(
  'the lint rules catch what they are for: unused code, floating and misused promises, any in src/, one module imported twice',
  { timeout: 300_000 },
  async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    // linted as if it were a file of src/ (the type-aware rules need a file of the TypeScript project)
    const probe = [
      "import { readFileSync } from 'node:fs';",
      "import { writeFileSync } from 'node:fs';",
      'async function later(): Promise<number> { return 1; }',
      'later();',
      "export const n: number = JSON.parse('1');",
      'export function loose(v: any): string { return String(v); }',
      'export function handler(on: (cb: () => void) => void): void { on(async () => { await later(); }); }',
      'writeFileSync;',
    ].join('\n');
    const [result] = await eslint.lintText(probe, { filePath: 'src/platform/time/index.ts' });
    const rules = [...new Set(result.messages.map((m) => m.ruleId))].sort();
    assert.deepEqual(rules, [
      '@typescript-eslint/no-explicit-any',
      '@typescript-eslint/no-floating-promises',
      '@typescript-eslint/no-misused-promises',
      '@typescript-eslint/no-unsafe-assignment',
      '@typescript-eslint/no-unused-vars',
      'import-x/no-duplicates',
    ]);
  },
);
