// The linter, run by `npm run lint` and by `npm test` (tests/architecture/lint.test.ts).
// A small set of rules that catch defects, not style: unused code, promises nobody awaits or
// handles, values typed `any` flowing into typed code, one module imported on several lines.
// Style is Prettier's alone (.prettierrc; eslint-config-prettier turns off what would clash).
// See docs/decisions.md, 'Lint and format'.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const unusedVars = ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }];

export default tseslint.config(
  { ignores: ['clients/**', 'openapi.json', 'node_modules/**', 'models/**', 'bench/results/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    rules: {
      'import-x/no-duplicates': ['error', { 'prefer-inline': true }],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': unusedVars,
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // `any` is banned in the product code only: tests, benches and scripts read HTTP and JSON
    // bodies as `any` on purpose and their assertions are the type check.
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
    },
  },
  {
    // A migration is typed against no schema (Kysely<any>, as Kysely's migration guide does):
    // it must keep compiling when today's Database type changes.
    files: ['src/platform/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain JavaScript: the console and the publish page run in the browser, the service worker
    // in its own scope, scripts/ and bin/ in Node. No type information, so the untyped rules only.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { 'no-unused-vars': unusedVars, 'no-undef': 'error' },
  },
  {
    files: ['src/platform/console/web/**/*.js', 'src/org/webrtc/publish-page/**/*.js'],
    ignores: ['src/platform/console/web/sw.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['src/platform/console/web/sw.js'],
    languageOptions: { sourceType: 'script', globals: globals.serviceworker },
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.mjs', 'eslint.config.js'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  prettier,
);
