// `npm run openapi`: writes docs/openapi.json from the zod contract (src/api/contract/openapi.ts).
// server/tests/openapi.test.ts fails when the committed file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { openApiJson } from '../src/api/contract/openapi';

const file = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(file, openApiJson());
process.stdout.write(`wrote ${file.pathname}\n`);
