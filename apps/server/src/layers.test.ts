// The layer rules (.dependency-cruiser.cjs) hold for the code base, and they do catch a forbidden
// import: a small tree laid out like the repository, with one import breaking each rule tried, is
// reported rule by rule, while its allowed imports are not. Queries are built in db/ only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const config = path.join(root, '.dependency-cruiser.cjs');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs dependency-cruiser with the repository's rules over `paths` of `cwd`; its violations. */
function violations(cwd: string, paths: string[]): Violation[] {
  const run = spawnSync(process.execPath, [depcruise, '--config', config, '--output-type', 'json', ...paths], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!run.stdout.startsWith('{')) throw new Error(`depcruise failed (${run.status}): ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-layers-'));
afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
  fs.writeFileSync(path.join(fixture, file), text);
}

// A loaded machine runs depcruise over the whole tree in tens of seconds rather than the few it needs.
describe('layer boundaries', { timeout: 300_000 }, () => {
  it('the repository has no forbidden import', () => {
    const found = violations(root, ['apps/server/src', 'apps/web/src', 'packages/contracts/src']);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('builds queries in db/ only', () => {
    const server = path.join(root, 'apps/server/src');
    const outside = fs
      .readdirSync(server, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.startsWith(`db${path.sep}`))
      .filter((f) =>
        /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(/.test(fs.readFileSync(path.join(server, f), 'utf8')),
      );
    expect(outside).toEqual([]);
  });

  it('reports an import against each rule, and only those', () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
    const s = 'apps/server/src';
    write(`${s}/tools/tool.ts`, "export type { Limits } from '../engines/run.js';\n");
    write(`${s}/engines/run.ts`, 'export interface Limits { ms: number }\n');
    write(`${s}/convert/model.ts`, "import { run } from '../engines/qpdf.js';\nexport const model = run;\n");
    write(`${s}/services/files.ts`, 'export const files = 1;\n');
    write(`${s}/queue/worker.ts`, "import type { Row } from '../services/tasks.js';\nexport type Task = Row;\n");
    write(`${s}/services/tasks.ts`, "import { ocr } from '../tools/ocr.js';\nexport interface Row { id: string }\nexport const t = ocr;\n");
    // Against the rules: an engine importing convert/ (type only), a tool importing a service and
    // another tool, a step importing a tool, mail and texts importing a service, the web app importing the
    // server, the contracts the web app.
    write(`${s}/engines/qpdf.ts`, "import type { model } from '../convert/model.js';\nexport const run = (m: typeof model) => m;\n");
    write(
      `${s}/tools/ocr.ts`,
      "import { files } from '../services/files.js';\nimport type { Limits } from './tool.js';\nexport const ocr = (l: Limits) => files + l.ms;\n",
    );
    write(
      `${s}/tools/convert.ts`,
      "import { ocr } from './ocr.js';\nimport { step } from './steps/step.js';\nexport const convert = [ocr, step];\n",
    );
    write(`${s}/tools/steps/step.ts`, "import { convert } from '../convert.js';\nexport const step = () => convert;\n");
    write(`${s}/mail/mailer.ts`, "import { files } from '../services/files.js';\nexport const mailer = files;\n");
    write(`${s}/texts/words.ts`, "import { files } from '../services/files.js';\nexport const words = files;\n");
    write('apps/web/src/page.ts', "import { files } from '../../server/src/services/files.js';\nexport const page = files;\n");
    write('packages/contracts/src/index.ts', "import { page } from '../../../apps/web/src/page.js';\nexport const contract = page;\n");

    const found = violations(fixture, ['apps', 'packages']).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found.sort()).toEqual(
      [
        `engines-are-adapters: ${s}/engines/qpdf.ts → ${s}/convert/model.ts`,
        `tools-below-services: ${s}/tools/ocr.ts → ${s}/services/files.ts`,
        `tools-do-not-call-tools: ${s}/tools/convert.ts → ${s}/tools/ocr.ts`,
        `steps-below-tools: ${s}/tools/steps/step.ts → ${s}/tools/convert.ts`,
        `queue-below-services: ${s}/queue/worker.ts → ${s}/services/tasks.ts`,
        `db-storage-and-mail-are-leaves: ${s}/mail/mailer.ts → ${s}/services/files.ts`,
        `texts-are-leaves: ${s}/texts/words.ts → ${s}/services/files.ts`,
        `web-uses-contracts-only: apps/web/src/page.ts → ${s}/services/files.ts`,
        `contracts-import-no-app: packages/contracts/src/index.ts → apps/web/src/page.ts`,
      ].sort(),
    );
  });
});
