import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

// Functions stay short: no function, method, arrow function or function expression in src/ has a
// body over MAX_BODY_LINES lines (counted from the line of its opening brace — or of its
// expression, for an arrow without braces — to the line of its end, both included). A longer
// function is split along the steps it already has, into named helpers with explicit parameters.
// Both the TypeScript sources and the console's browser code (src/platform/console/web/**/*.js)
// are read. src/ holds no generated code (the generated clients and openapi.json live outside it);
// a generated file added under src/ would be listed in GENERATED.
const MAX_BODY_LINES = 80;
const SOURCE_ROOT = 'src';
const GENERATED: string[] = [];

// Functions allowed over the limit, as 'path :: qualified name' (enclosing functions joined by '.'):
// none. Only src/home/agent/** and src/home/conversations/** could ever be listed here.
const EXCEPTIONS = new Set<string>([]);
const EXCEPTION_FOLDERS = ['src/home/agent/', 'src/home/conversations/'];

interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function ownName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '<anonymous>';
}

/** Every function-like node with a body over `max` lines, named by its enclosing functions. */
export function findLongFunctions(path: string, text: string, max: number): LongFunction[] {
  const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node, scope: string[]): void => {
    let inner = scope;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const body = fn.body!;
      const first = file.getLineAndCharacterOfPosition(body.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(body.getEnd()).line;
      inner = [...scope, ownName(fn, file)];
      if (last - first + 1 > max) found.push({ file: path, name: inner.join('.'), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, []);
  return found;
}

function longFunctionsInSource(): LongFunction[] {
  return sourceFiles(SOURCE_ROOT)
    .map((path) => relative(process.cwd(), path).split(sep).join('/'))
    .filter((path) => !GENERATED.includes(path))
    .flatMap((path) => findLongFunctions(path, readFileSync(path, 'utf8'), MAX_BODY_LINES));
}

test(`no function in src/ has a body over ${MAX_BODY_LINES} lines (but the listed exceptions)`, () => {
  const long = longFunctionsInSource();
  const over = long.filter((f) => !EXCEPTIONS.has(`${f.file} :: ${f.name}`)).map((f) => `${f.file}:${f.line} ${f.name} — ${f.lines} lines`);
  assert.deepEqual(over, [], `functions over ${MAX_BODY_LINES} lines:\n${over.join('\n')}`);
});

test('the exception lists name only functions of src/home/agent and src/home/conversations that are still long', () => {
  for (const entry of EXCEPTIONS) {
    assert.ok(
      EXCEPTION_FOLDERS.some((folder) => entry.startsWith(folder)),
      `exception outside the allowed folders: ${entry}`,
    );
  }
  const present = new Set(longFunctionsInSource().map((f) => `${f.file} :: ${f.name}`));
  const stale = [...EXCEPTIONS].filter((entry) => !present.has(entry));
  assert.deepEqual(stale, [], `exceptions that are no longer over ${MAX_BODY_LINES} lines (remove them): ${stale.join(', ')}`);
});

test('the check finds what it is for: a long function, method, arrow function and function expression, nested or not, in .ts and .js', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = [
    `export function longOne() {\n${body(79)}\n}`, // 81 lines with the braces
    `export function shortOne() {\n${body(78)}\n}`, // 80 lines: allowed
    `class K { method() {\n${body(85)}\n} }`,
    `const arrow = () => {\n${body(90)}\n};`,
    `const expr = function () {\n${body(90)}\n};`,
    `function outer() { return [1].map(() => {\n${body(90)}\n}); }`,
  ].join('\n');
  const names = (path: string) => findLongFunctions(path, text, MAX_BODY_LINES).map((f) => `${f.name}:${f.lines}`);
  const expected = ['longOne:81', 'method:87', 'arrow:92', 'expr:92', 'outer:92', 'outer.<anonymous>:92'];
  assert.deepEqual(names('a.ts'), expected);
  assert.deepEqual(names('a.js'), expected);
});
