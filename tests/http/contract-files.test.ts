import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ERROR_CODES } from '../../src/platform/lib/errors.ts';
import { renderOpenApi } from '../../scripts/openapi.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('every error code used in the code is in the catalogue, docs/errors.md and the OpenAPI enum', async () => {
  const used = new Set<string>();
  for (const f of sourceFiles('src')) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/new VigilError\(\s*'([a-z_]+)'/g)) used.add(m[1]);
  }
  assert.ok(used.size > 10, 'scan found the codes');
  const docs = readFileSync('docs/errors.md', 'utf8');
  const spec = JSON.parse(await renderOpenApi());
  const enumCodes: string[] = spec.components.schemas.Problem.properties.code.enum;
  for (const code of used) {
    assert.ok((ERROR_CODES as string[]).includes(code), `${code} is in the catalogue`);
  }
  for (const code of ERROR_CODES) {
    assert.ok(docs.includes(`| \`${code}\` |`), `${code} is documented in docs/errors.md`);
    assert.ok(enumCodes.includes(code), `${code} is in the OpenAPI enum`);
  }
});

test('the committed openapi.json is what the code produces (run `npm run generate`)', async () => {
  const committed = readFileSync('openapi.json', 'utf8');
  assert.equal(committed, await renderOpenApi(), 'openapi.json is stale: run npm run generate and commit it');
});

test('openapi.json passes the Redocly linter', () => {
  let out = '';
  try {
    out = execFileSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'stylish'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: 'pipe',
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    assert.fail(`redocly lint failed:\n${e.stdout}\n${e.stderr}`);
  }
  assert.match(out + 'valid', /valid/);
});
