import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Two storage rules of docs/architecture.md that dependency-cruiser cannot see (.dependency-cruiser.cjs
 * checks the rest, including 'repositories-stay-in-their-module'):
 * - a module's index.ts does not hand out its repositories (a re-export and an import of the same
 *   file are one dependency to dependency-cruiser, so the re-export is read from the text);
 * - SQLite/PostgreSQL branches live in repositories and src/platform/db only.
 */

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The file's lines without comments (line comments and block-comment lines), numbered from 1. */
function codeLines(path: string): Array<[number, string]> {
  let inBlock = false;
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, i): Array<[number, string]> => {
      let code = line;
      if (inBlock) {
        const end = code.indexOf('*/');
        if (end < 0) return [];
        inBlock = false;
        code = code.slice(end + 2);
      }
      code = code.replace(/\/\*.*?\*\//g, '');
      const start = code.indexOf('/*');
      if (start >= 0) {
        inBlock = true;
        code = code.slice(0, start);
      }
      code = code.replace(/(^|[^:'"`\\])\/\/.*$/, '$1');
      return code.trim() ? [[i + 1, code]] : [];
    });
}

const SRC = join(process.cwd(), 'src');
const STORAGE_HOME = (path: string) => path.endsWith('.repository.ts') || path.startsWith(join(SRC, 'platform', 'db') + '/');

/** A test of which database runs: a comparison with the dialect, or the raw SQLite connection. */
const DIALECT_TEST = /\bdialect\s*[!=]==?|[!=]==?\s*'(postgres|sqlite)'|'(postgres|sqlite)'\s*[!=]==?|\.sqlite\b|\{\s*sqlite\s*\}\s*=/;
/** A value re-export of a repository (its row types may be re-exported). */
const REPOSITORY_REEXPORT = /^export\s*\{([^}]*)\}\s*from\s*'\.\/[^']+\.repository\.ts'/;

function dialectBranches(files: string[]): string[] {
  return files
    .filter((f) => !STORAGE_HOME(f))
    .flatMap((f) =>
      codeLines(f)
        .filter(([, code]) => DIALECT_TEST.test(code))
        .map(([n, code]) => `${f.slice(SRC.length + 1)}:${n}: ${code.trim()}`),
    );
}

function repositoryReexports(files: string[]): string[] {
  return files
    .filter((f) => f.endsWith('/index.ts'))
    .flatMap((f) =>
      codeLines(f).flatMap(([n, code]) => {
        const m = REPOSITORY_REEXPORT.exec(code.trim());
        const values = m
          ? m[1]
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s && !s.startsWith('type '))
          : [];
        return values.length ? [`${f.slice(SRC.length + 1)}:${n}: ${values.join(', ')}`] : [];
      }),
    );
}

test('SQLite/PostgreSQL branches live only in repositories and src/platform/db', () => {
  assert.deepEqual(dialectBranches(sourceFiles(SRC)), []);
});

test("no module's index.ts hands out a repository (row types aside)", () => {
  assert.deepEqual(repositoryReexports(sourceFiles(SRC)), []);
});

test('the checks catch what they are for: a dialect test in a service, a repository re-exported by an index', () => {
  for (const line of [
    "if (this.deps.database.dialect === 'postgres') {",
    'const { sqlite } = this.deps.database;',
    'if (database.sqlite) run();',
    "const pg = dialect !== 'sqlite';",
  ]) {
    assert.ok(DIALECT_TEST.test(line), line);
  }
  for (const line of ['await repo.lockThrottle(trx, this.deps.database.dialect, id);', '// on SQLite the raw connection is ours']) {
    assert.ok(!DIALECT_TEST.test(line), line);
  }
  assert.match("export { streamRepository, type StreamRow } from './stream.repository.ts';", REPOSITORY_REEXPORT);
  assert.doesNotMatch("export { findStream } from './stream-queries.ts';", REPOSITORY_REEXPORT);
});
