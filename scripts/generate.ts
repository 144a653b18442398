import { writeFileSync } from 'node:fs';
import { renderOpenApi } from './openapi.ts';

/** `npm run generate`: openapi.json from the code (then the client libraries from openapi.json). */
writeFileSync('openapi.json', await renderOpenApi());
console.log('wrote openapi.json');
