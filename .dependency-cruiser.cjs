/**
 * The module rules of docs/architecture.md, checked by `npm test` (tests/architecture/dependency-rules.test.ts)
 * and by `npx depcruise src` on the command line.
 *
 * A module is a folder src/<layer>/<name>/ (layer: platform, ingest, org, home); src/*.ts and
 * src/org/operations.ts are the composition root.
 */
const MODULE = '^src/(platform|ingest|org|home)/[^/]+';

module.exports = {
  forbidden: [
    {
      name: 'no-module-cycles',
      comment:
        'Modules form a hierarchy: no folder-level cycle between modules. The one allowed is streams <-> scenes ' +
        '(a stream belongs to a scene; a scene lists its streams).',
      severity: 'error',
      scope: 'folder',
      from: { path: `${MODULE}$` },
      to: { circular: true, pathNot: '^src/org/(streams|scenes)$' },
    },
    {
      name: 'no-file-cycles',
      comment: 'No import cycle between files (type-only imports are erased and do not count).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'modules-meet-at-their-index',
      comment:
        "A module's public face is its index.ts: no other module imports its other files. " +
        'Streams and scenes, the one real cycle, reach each other directly (a barrel between them would load half-built).',
      severity: 'error',
      from: { path: '^src/(platform|ingest|org|home)/([^/]+)/', pathNot: '^src/org/(streams|scenes)/' },
      to: { path: '^src/(platform|ingest|org|home)/[^/]+/', pathNot: ['^src/$1/$2/', '/index[.]ts$'] },
    },
    {
      name: 'the-root-meets-modules-at-their-index',
      comment: 'The composition root (src/*.ts, src/demo, src/org/operations.ts) uses modules through their index.ts too.',
      severity: 'error',
      from: { path: ['^src/[^/]+[.]ts$', '^src/demo/', '^src/org/operations[.]ts$'] },
      to: { path: '^src/(platform|ingest|org|home)/[^/]+/', pathNot: '/index[.]ts$' },
    },
    {
      name: 'repositories-stay-in-their-module',
      comment:
        "A module's tables are its own: its *.repository.ts is imported only by that module's files. Another module " +
        "calls the functions the owner's index.ts exports for it (a write in the caller's transaction takes that transaction); " +
        'that no index.ts re-exports a repository is checked by tests/architecture/module-tables.test.ts.',
      severity: 'error',
      from: { path: '^src/(platform|ingest|org|home)/([^/]+)/' },
      to: { path: '[.]repository[.]ts$', pathNot: '^src/$1/$2/' },
    },
    {
      name: 'kysely-only-in-repositories',
      comment: 'Queries live in repositories (*.repository.ts) and platform/db; everything else asks a repository.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['\\.repository\\.ts$', '^src/platform/db/'] },
      to: { path: '(^|/)node_modules/kysely/' },
    },
    {
      name: 'services-do-not-import-http',
      comment: 'Services are HTTP-agnostic: the HTTP layer (platform/http) calls them, never the other way round.',
      severity: 'error',
      from: { path: '\\.service\\.ts$' },
      to: { path: '^src/platform/http/' },
    },
    {
      name: 'platform-does-not-import-surfaces',
      comment: 'platform/ is the floor every surface stands on; it imports nothing from ingest/, org/ or home/.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(ingest|org|home)/' },
    },
    {
      name: 'ingest-does-not-import-org',
      comment:
        'ingest/ turns cameras, phones and generators into detections and stands below org/: what both share (the detection ' +
        'type, the table of detection kinds) lives in platform/kinds; what org/ must hand ingest is a port (docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/ingest/' },
      to: { path: '^src/org/' },
    },
    {
      name: 'org-does-not-import-home',
      comment: 'The household surface builds on the organization platform (streams, scenes, the pipeline), not the reverse.',
      severity: 'error',
      from: { path: '^src/(org|ingest)/' },
      to: { path: '^src/home/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(tests|bench|scripts|clients)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
