import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * The repository explains itself (docs/architecture.md, 'Why the good parts exist'): a comment,
 * a test name or a doc under src/, tests/, bench/ or scripts/, README.md and docs/ points at a file
 * or a docs/ section of this repository, never at the team's design file outside it, at the folder
 * beside the repository, or at an issue number, which mean nothing to someone who clones the
 * repository. History stays in commit messages and docs/decisions.md, which this check skips.
 *
 * The only paths into the sibling folder that are allowed are the ones tests and benches read
 * files from: its fixtures (sample video and images) and its API spec.
 */

const ROOTS = ['src', 'tests', 'bench', 'scripts'];
/** Docs outside those folders; docs/decisions.md keeps the history and is not checked. */
const DOCS = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md') && f !== 'decisions.md')
    .map((f) => join('docs', f)),
];
const BINARY = new Set(['.png', '.jpg', '.jpeg', '.gif', '.ico', '.webp', '.avi', '.mp4', '.onnx', '.bin', '.wasm', '.gz', '.zip', '.woff', '.woff2']);
/** Stylesheets and markup hold colours (`#000`), not issue numbers. */
const NO_HASH_CHECK = new Set(['.css', '.html', '.svg']);

interface Rule {
  name: string;
  pattern: RegExp;
  /** files of these extensions are not checked for this rule */
  skip?: Set<string>;
  /** only prose is checked: a comment's text in code (`spec` is also a common variable name), the whole line elsewhere */
  proseOnly?: boolean;
}

const CODE = new Set(['.ts', '.js', '.mjs', '.cjs']);

/** The part of a line a rule reads: for a proseOnly rule in code, the comment on it (or ''). */
function textFor(rule: Rule, ext: string, line: string): string {
  if (!rule.proseOnly || !CODE.has(ext)) return line;
  const comment = /\/\/(.*)$|^\s*\/?\*+(.*)$/.exec(line);
  return comment ? (comment[1] ?? comment[2] ?? '') : '';
}

export const CITATION_RULES: Rule[] = [
  { name: 'cites the design file outside the repository (use docs/design.md)', pattern: /\bDESIGN\.md\b/ },
  {
    name: 'cites the folder beside the repository (only its fixtures/ and spec/ may be read)',
    pattern: /(?:\.\.\/)+shared\b(?!\/(?:fixtures|spec)\/)|\/work\/shared\b/,
  },
  {
    name: 'cites the interface spec outside the repository (use docs/design.md, openapi.json or README)',
    pattern: /\(spec\b|\bspec(?:'s)?\s+"|\bspec:\s*"|\bthe spec (?:names|shows|lists|leaves|bounds|says|asks)\b/,
    proseOnly: true,
  },
  { name: 'cites the design file outside the repository (use docs/design.md)', pattern: /\bDESIGN\s+"/ },
  { name: 'cites an issue number', pattern: /\b[Ii]ssues?[ _-]?#?\d+/ },
  { name: 'cites an issue number', pattern: /(?:^|[\s([,;])#\d+\b(?![\w-])/, skip: NO_HASH_CHECK },
];

export interface Citation {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/** Every citation in one file's text, with its 1-based line number. */
export function findCitations(file: string, text: string): Citation[] {
  const ext = extname(file).toLowerCase();
  const found: Citation[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    for (const rule of CITATION_RULES) {
      if (rule.skip?.has(ext)) continue;
      if (rule.pattern.test(textFor(rule, ext, lines[i]!))) found.push({ file, line: i + 1, rule: rule.name, text: lines[i]!.trim().slice(0, 160) });
    }
  }
  return found;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (!BINARY.has(extname(name).toLowerCase())) out.push(p);
  }
  return out;
}

test('no file under src/, tests/, bench/, scripts/, README.md or docs/ (but decisions.md) cites the outside design file, the sibling folder (but its fixtures and spec) or an issue number', () => {
  const files = [...ROOTS.flatMap((r) => walk(r)), ...DOCS];
  assert.ok(files.length > 500, `read only ${files.length} files`);
  const found: Citation[] = [];
  for (const file of files) {
    const buf = readFileSync(file);
    if (buf.subarray(0, 8000).includes(0)) continue; // binary
    found.push(...findCitations(file, buf.toString('utf8')));
  }
  assert.deepEqual(
    found.map((c) => `${c.file}:${c.line}: ${c.rule}: ${c.text}`),
    [],
    'point at a file or a docs/ section instead (docs/design.md, docs/architecture.md, docs/decisions.md)',
  );
});

test('the citation rules fire on each kind of citation and leave ordinary text alone', () => {
  // built from pieces so this file does not cite what it checks for
  const design = 'DESIGN' + '.md';
  const sibling = '..' + '/shared';
  const cited = [
    `// see ${design} "Webhooks"`,
    ` * The hash chain (${design} "Audit").`,
    `// the contract is ${sibling}/${design}`,
    `const SPEC = '../${sibling}/notes/x.md';`,
    `  /** face recognition (iss` + `ue 14) */`,
    `// Iss` + `ue 12 §2, real processes`,
    `test('iss` + `ue 10 questions through the route', () => {});`,
    `import './iss` + `ue10-examples.test.ts';`,
    `// fixed in #` + `12`,
    `// (see #` + `305)`,
    ` * Capabilities of keys (sp` + `ec "Authentication" 3).`,
    `/** Concurrent replies per key (sp` + `ec "Limits"). */`,
    ` * A Detection as the sp` + `ec's Resources table names it (sp` + `ec: "Detection").`,
    ` * Built-in protocols (the sp` + `ec shows \`unauthorized_access\`).`,
    ` * deterministic generators (DES` + `IGN "Sandbox").`,
  ];
  for (const line of cited) assert.ok(findCitations('x.ts', line).length >= 1, line);

  const clean = [
    `// see docs/design.md "Webhooks" and docs/decisions.md, 'Audit'`,
    `const VTEST = fileURLToPath(new URL('../${sibling}/fixtures/vtest.avi', import.meta.url));`,
    `const spec = readFileSync(new URL('../../${sibling}/spec/interface.md', import.meta.url));`,
    `// RFC 9725 §4.3: If-Match is required`,
    `// the issue this answers is a stale count, not a missing one`,
    `const colour = '#333';`,
    `// the spec reporter's summary of the failures`,
    `/** Resources that exist even before the generated spec describes them. */`,
    `async function createEmbedder(spec: OnnxEmbedderSpec): Promise<void> {}`,
    `for (let j = i; j <= last; j++) take(spec, j);`,
    `sql\`SELECT pg_advisory_xact_lock_shared(1)\``,
  ];
  for (const line of clean) assert.deepEqual(findCitations('x.ts', line), [], line);
  assert.deepEqual(findCitations('x.css', 'a { color: ' + '#000; }'), []);
  assert.equal(findCitations('x.ts', `ok\n// (iss` + `ue 9)\nok`)[0]?.line, 2);
});
