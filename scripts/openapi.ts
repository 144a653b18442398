import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/app.ts';

/** The OpenAPI document exactly as the code describes it (used by `npm run generate` and the drift test). */
export async function renderOpenApi(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-openapi-'));
  try {
    const config = loadConfig({ dataDir, databaseUrl: null, runSources: false, seedDemo: false, publicBaseUrl: 'http://localhost:8080' }, {});
    const ctx = await createContext(config);
    const app = await buildApp(ctx);
    await app.ready();
    const doc = app.swagger();
    await app.close();
    await ctx.close();
    return JSON.stringify(doc, null, 2) + '\n';
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
