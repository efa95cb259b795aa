// Writes docs/configuration.md from the settings' table (apps/server/src/settings.ts): `npm run docs:config`.
import fs from 'node:fs';
import path from 'node:path';
import { CONFIGURATION_DOC, configurationDoc } from '../apps/server/src/configurationDoc.js';

fs.writeFileSync(path.join(import.meta.dirname, '..', CONFIGURATION_DOC), configurationDoc());
console.log(`${CONFIGURATION_DOC} written`);
