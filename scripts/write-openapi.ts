// `npm run openapi`: writes docs/openapi.json (and the hub's docs/hub-openapi.json) from the zod contract (src/api/contract/openapi.ts),
// and the generated client's types from that document (server/tests/generated-client/schema.d.ts).
// server/tests/openapi.test.ts and generated-client.test.ts fail when either committed file differs.
import { writeFileSync } from 'node:fs';
import { hubOpenApiJson } from '../src/api/contract/hub-openapi';
import { openApiJson } from '../src/api/contract/openapi';
import { generatedClientTypes } from '../server/tests/generated-client-types';

const file = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(file, openApiJson());
process.stdout.write(`wrote ${file.pathname}\n`);

// The team hub's own endpoints: a document of their own (why: src/api/contract/hub-openapi.ts).
const hubFile = new URL('../docs/hub-openapi.json', import.meta.url);
writeFileSync(hubFile, hubOpenApiJson());
process.stdout.write(`wrote ${hubFile.pathname}\n`);

const types = new URL('../server/tests/generated-client/schema.d.ts', import.meta.url);
writeFileSync(types, await generatedClientTypes(openApiJson()));
process.stdout.write(`wrote ${types.pathname}\n`);
