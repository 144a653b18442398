import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

// The module rules of docs/architecture.md (.dependency-cruiser.cjs), run on the real source tree.
const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs') as IConfiguration;

async function cruiseTree(root: string): Promise<ICruiseResult> {
  const tsConfig = extractTSConfig(join(root, 'tsconfig.json'));
  const result = await cruise(['src'], { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true, baseDir: root }, undefined, {
    tsConfig,
  });
  return result.output as ICruiseResult;
}

function describeViolations(r: ICruiseResult): string[] {
  return r.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`);
}

test(
  'the source tree keeps every module rule: no module cycles but streams <-> scenes, no file cycles, modules met at their index.ts, queries only in repositories, services free of HTTP, layers pointing down',
  { timeout: 120_000 },
  async () => {
    const result = await cruiseTree(process.cwd());
    assert.ok(result.summary.totalCruised > 150, `cruised only ${result.summary.totalCruised} files`);
    assert.deepEqual(describeViolations(result), []);
  },
);

test(
  "the rules catch what they are for: a module cycle, a reach past an index.ts, a query in a service, a service importing HTTP, platform importing a surface, another module's repository",
  { timeout: 120_000 },
  async () => {
    const root = mkdtempSync(join(tmpdir(), 'vigil-rules-'));
    try {
      writeFileSync(
        join(root, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }),
      );
      mkdirSync(join(root, 'node_modules'), { recursive: true });
      cpSync(join(process.cwd(), 'node_modules', 'kysely'), join(root, 'node_modules', 'kysely'), { recursive: true, dereference: true });
      const file = (path: string, text: string) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      file('src/platform/time/clock.ts', "import { problem } from '../http/problem.ts';\nexport const clock = () => problem;\n");
      file('src/platform/http/problem.ts', "import { clock } from '../time/clock.ts';\nexport const problem = () => clock;\n");
      file(
        'src/org/alerts/alert.service.ts',
        "import { sql } from 'kysely';\nimport { problem } from '../../platform/http/problem.ts';\nexport const a = [sql, problem];\n",
      );
      file('src/platform/audit/audit.ts', "import { a } from '../../org/alerts/alert.service.ts';\nexport const b = a;\n");
      file('src/app.ts', "import { a } from './org/alerts/alert.service.ts';\nexport const app = a;\n");
      file('src/ingest/video/index.ts', "import { a } from '../../org/alerts/index.ts';\nexport const v = a;\n");
      file('src/org/alerts/index.ts', 'export const a = 1;\n');
      file('src/org/alerts/alert.repository.ts', 'export const alertRepository = {};\n');
      file('src/org/incidents/incident.service.ts', "import { alertRepository } from '../alerts/alert.repository.ts';\nexport const i = alertRepository;\n");
      const found = await cruiseTree(root);
      const rules = new Set(found.summary.violations.map((v) => v.rule.name));
      for (const rule of [
        'no-module-cycles',
        'no-file-cycles',
        'modules-meet-at-their-index',
        'the-root-meets-modules-at-their-index',
        'kysely-only-in-repositories',
        'services-do-not-import-http',
        'platform-does-not-import-surfaces',
        'ingest-does-not-import-org',
        'repositories-stay-in-their-module',
      ]) {
        assert.ok(rules.has(rule), `${rule} did not fire (fired: ${[...rules].join(', ')})`);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
);

test('pipeline hooks run in the order their modules declare: watches, incidents, alert rules, then the live feed that only reads', async () => {
  const { createTestApp } = await import('../helpers/harness.ts');
  const t = await createTestApp();
  try {
    assert.deepEqual(
      t.ctx.pipeline.hookOrder().map((h) => h.name),
      ['watches.observer', 'incidents.anomalies', 'alerts.rules', 'live.feed'],
    );
  } finally {
    await t.close();
  }
});
