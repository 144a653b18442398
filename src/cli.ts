import { parseArgs } from 'node:util';
import { loadConfig } from './platform/config/index.ts';
import { migrateToLatest, openDatabase } from './platform/db/index.ts';
import { systemClock } from './platform/time/index.ts';
import { VigilError } from './platform/lib/index.ts';
import { AuditService } from './platform/audit/index.ts';
import { KeyService } from './platform/keys/index.ts';
import { createCoordination } from './platform/coordination/index.ts';

const USAGE = `vigil — Vigil admin CLI (honours VIGIL_DATA_DIR and DATABASE_URL)

  vigil keys create --org NAME [--capabilities a,b|all] [--locations l1,l2] [--rate-limit N] [--name LABEL] [--test] [--json]
  vigil keys create --household NAME [--role owner|member] [--name LABEL] [--test] [--json]
      household keys are owner by default (sets and lifts boundaries, manages keys);
      a member adds boundaries and mutes but never lifts them. After bootstrap, manage keys
      over HTTP too: POST/GET /v1/keys, DELETE /v1/keys/{id}, POST /v1/keys/{id}/rotate.
  vigil keys list [--json]
  vigil keys revoke KEY_ID
  vigil verify-evidence FILE [--key CHECKPOINT_KEY | --key-file PATH]
      checks an incident's evidence bundle (GET /v1/incidents/{id}/evidence) offline, with no
      server or database: every file against its manifest, each segment against the audit entry
      that sealed it, the audit chain up to its checkpoint, and the checkpoint's signature when
      the key is given (--key or VIGIL_AUDIT_CHECKPOINT_KEY as configured; --key-file for the
      server's <VIGIL_DATA_DIR>/audit-checkpoint.key). Exits 1 naming what fails.
  vigil verify-audit FILE [--key CHECKPOINT_KEY | --key-file PATH]
      checks an audit export (GET /v1/audit/export > FILE) offline, with no server or database:
      every entry's hash, each link from the first entry to the export's signed checkpoint, and
      the checkpoint's signature when the key is given (as for verify-evidence). Exits 1 naming
      the first entry that fails.
`;

function parseCliArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      household: { type: 'string' },
      capabilities: { type: 'string' },
      locations: { type: 'string' },
      'rate-limit': { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      test: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      key: { type: 'string' },
      'key-file': { type: 'string' },
    },
  });
}

/** `vigil keys create`: a key for an organization or a household, its secret shown once. */
async function createKey(keys: KeyService, values: ReturnType<typeof parseCliArgs>['values']): Promise<number> {
  if (!values.org === !values.household) throw new UsageError('give exactly one of --org NAME or --household NAME');
  if (values.household && (values.capabilities || values.locations)) {
    throw new UsageError('--capabilities and --locations apply to organization keys only');
  }
  if (values.role !== undefined && values.role !== 'owner' && values.role !== 'member') throw new UsageError('--role must be owner or member');
  if (values.role !== undefined && values.org) throw new UsageError('--role applies to household keys only');
  let rate: number | null = null;
  if (values['rate-limit'] !== undefined) {
    rate = Number(values['rate-limit']);
    if (!Number.isInteger(rate) || rate < 1) throw new UsageError('--rate-limit must be a positive integer (requests per minute)');
  }
  const caps = values.capabilities;
  const created = await keys.createKey({
    tenantKind: values.org ? 'organization' : 'household',
    tenantName: (values.org ?? values.household) as string,
    mode: values.test ? 'test' : 'live',
    capabilities:
      caps === undefined || caps === 'all'
        ? 'all'
        : caps
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean),
    locations: values.locations
      ? values.locations
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean)
      : null,
    rateLimitPerMinute: rate,
    role: values.role as 'owner' | 'member' | undefined,
    name: values.name ?? null,
  });
  // role means something for household keys only (organization keys have capabilities)
  const { role, ...rest } = created;
  if (values.json) process.stdout.write(JSON.stringify(values.household ? { ...rest, role } : rest) + '\n');
  else {
    process.stdout.write(`Created ${created.mode} ${values.household ? `${created.role} ` : ''}key ${created.id} for ${created.tenant_id}.\n`);
    process.stdout.write(`Key (shown once, store it now): ${created.key}\n`);
  }
  return 0;
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv);
  const [group, verb, arg] = positionals;
  if (group === 'verify-evidence') return verifyEvidenceFile(verb, values.key ?? process.env.VIGIL_AUDIT_CHECKPOINT_KEY ?? null, values['key-file'] ?? null);
  if (group === 'verify-audit') return verifyAuditFile(verb, values.key ?? process.env.VIGIL_AUDIT_CHECKPOINT_KEY ?? null, values['key-file'] ?? null);
  if (values.help || group !== 'keys' || !verb) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  // The CLI opens the same database as the server; SQLite WAL lets both run at once.
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  // with REDIS_URL a revocation here reaches every node's verified-key cache at once
  const coordination = createCoordination({ database, databaseUrl: config.databaseUrl, redisUrl: config.redisUrl });
  try {
    await migrateToLatest(database);
    await coordination.start();
    const keys = new KeyService({
      database,
      clock: systemClock,
      audit: new AuditService({ database, clock: systemClock }),
      invalidation: coordination.invalidation,
    });
    if (verb === 'create') return await createKey(keys, values);
    if (verb === 'list') {
      const list = await keys.listKeys();
      if (values.json) process.stdout.write(JSON.stringify(list) + '\n');
      else {
        for (const k of list) {
          process.stdout.write(
            `${k.id}  ${k.preview}  ${k.mode.padEnd(4)}  ${k.tenant_kind.padEnd(12)}  ${(k.role ?? '').padEnd(6)}  ${k.tenant_name}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\n`,
          );
        }
        if (list.length === 0) process.stdout.write('no keys\n');
      }
      return 0;
    }
    if (verb === 'revoke') {
      if (!arg) throw new UsageError('vigil keys revoke KEY_ID');
      await keys.revokeKey(arg);
      process.stdout.write(`Revoked ${arg}; it is refused from the next request on.\n`);
      return 0;
    }
    throw new UsageError(`unknown command keys ${verb}`);
  } finally {
    await coordination.close();
    await database.close();
  }
}

class UsageError extends Error {}

/** The checkpoint key as given: a configured key signs as its text; the generated key file holds hex (platform/audit, checkpoint key). */
async function checkpointKeyOf(key: string | null, keyFile: string | null): Promise<Buffer | null> {
  if (!keyFile) return key ? Buffer.from(key, 'utf8') : null;
  const { readFileSync } = await import('node:fs');
  try {
    return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
  } catch (err) {
    throw new UsageError(`cannot read ${keyFile}: ${(err as Error).message}`);
  }
}

async function readInput(file: string): Promise<Buffer> {
  const { readFileSync } = await import('node:fs');
  try {
    return readFileSync(file);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

function printChecks(checks: Array<{ ok: boolean; note?: true; text: string }>): void {
  for (const c of checks) process.stdout.write(`${c.ok ? (c.note ? 'NOTE  ' : 'PROVEN') : 'FAILED'}  ${c.text}\n`);
}

/** `vigil verify-evidence FILE`: offline; prints what is proven, or what fails, line by line. */
async function verifyEvidenceFile(file: string | undefined, key: string | null, keyFile: string | null): Promise<number> {
  if (!file) throw new UsageError('vigil verify-evidence FILE [--key CHECKPOINT_KEY | --key-file PATH]');
  const { verifyEvidence } = await import('./org/recordings/index.ts');
  const checkpointKey = await checkpointKeyOf(key, keyFile);
  const report = verifyEvidence(await readInput(file), { checkpointKey });
  printChecks(report.checks);
  process.stdout.write(report.valid ? `${file}: the bundle verifies.\n` : `${file}: the bundle does NOT verify.\n`);
  return report.valid ? 0 : 1;
}

/** `vigil verify-audit FILE`: an NDJSON audit export offline, with the same audit checks as verify-evidence. */
async function verifyAuditFile(file: string | undefined, key: string | null, keyFile: string | null): Promise<number> {
  if (!file) throw new UsageError('vigil verify-audit FILE [--key CHECKPOINT_KEY | --key-file PATH]');
  const { verifyAuditExport } = await import('./platform/audit/index.ts');
  const checkpointKey = await checkpointKeyOf(key, keyFile);
  const report = verifyAuditExport((await readInput(file)).toString('utf8'), { checkpointKey });
  printChecks(report.checks);
  process.stdout.write(report.valid ? `${file}: the audit trail verifies.\n` : `${file}: the audit trail does NOT verify.\n`);
  return report.valid ? 0 : 1;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError || err instanceof VigilError || (err as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`vigil: ${(err as Error).message}\n${err instanceof UsageError ? USAGE : ''}`);
      process.exit(2);
    }
    process.stderr.write(`vigil: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
