import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readOperationModel, type OpenApiDocument } from './operation-model.ts';
import { NODE_GENERATED_DIR, renderNodeClient } from './node-client.generator.ts';
import { PYTHON_GENERATED_DIR, renderPythonClient } from './python-client.generator.ts';
import type { GeneratedFile } from './generated-file.ts';

export type { GeneratedFile } from './generated-file.ts';

/** Folders holding only generated files: anything in them that the generators do not write is stale. */
export const GENERATED_DIRS = [NODE_GENERATED_DIR, PYTHON_GENERATED_DIR];

/** Every generated client file for an openapi.json text (what `npm run generate` writes after openapi.json). */
export async function renderClients(openapiText: string): Promise<GeneratedFile[]> {
  const doc = JSON.parse(openapiText) as OpenApiDocument;
  const resources = readOperationModel(doc);
  return [...(await renderNodeClient(doc, resources)), ...renderPythonClient(doc, resources)];
}

/** Files currently in the generated folders (caches such as __pycache__ aside). */
export function listGeneratedFiles(root = '.'): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(join(root, dir));
    } catch {
      return;
    }
    for (const name of names) {
      if (name === '__pycache__') continue;
      const rel = `${dir}/${name}`;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  for (const d of GENERATED_DIRS) walk(d);
  return out.sort();
}
