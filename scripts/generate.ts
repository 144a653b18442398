import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { renderOpenApi } from './openapi.ts';
import { listGeneratedFiles, renderClients } from './clients/render-clients.ts';

/** `npm run generate`: openapi.json from the code, then the Node and Python clients from openapi.json. */
const openapi = await renderOpenApi();
writeFileSync('openapi.json', openapi);
console.log('wrote openapi.json');

const files = await renderClients(openapi);
const written = new Set(files.map((f) => f.path));
for (const stale of listGeneratedFiles().filter((p) => !written.has(p))) {
  rmSync(stale);
  console.log(`removed stale ${stale}`);
}
for (const f of files) {
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, f.content);
}
console.log(`wrote ${files.length} client files (clients/node/src/generated, clients/python/vigil/_generated)`);
