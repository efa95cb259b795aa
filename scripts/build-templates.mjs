// Turns the shipped templates' HTML sources (templates/<category>/<slug>/template.html, with the
// stylesheet they share, templates/template.css) into PDFs in templates/.built/ (git-ignored), with
// one LibreOffice process for all of them. A PDF is made again only when its source (or the shared
// stylesheet) changed: templates/.built/sources.json keeps each source's hash.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', 'templates');
const built = path.join(root, '.built');
const hashesFile = path.join(built, 'sources.json');
const sharedCss = 'template.css';
// The export's settings are part of every hash: changing them rebuilds all.
const exportFilter = 'pdf:writer_pdf_Export:{"ExportFormFields":{"type":"boolean","value":"true"}}';

const sources = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
  .flatMap((category) =>
    fs
      .readdirSync(path.join(root, category.name))
      .map((slug) => ({ slug, folder: path.join(category.name, slug), file: path.join(root, category.name, slug, 'template.html') })),
  )
  .filter((s) => fs.existsSync(s.file));

const previous = fs.existsSync(hashesFile) ? JSON.parse(fs.readFileSync(hashesFile, 'utf8')) : {};
const hashes = Object.fromEntries(
  sources.map((s) => [
    s.slug,
    crypto
      .createHash('sha256')
      .update(exportFilter)
      .update(fs.readFileSync(path.join(root, sharedCss)))
      .update(fs.readFileSync(s.file))
      .digest('hex'),
  ]),
);
const stale = sources.filter((s) => previous[s.slug] !== hashes[s.slug] || !fs.existsSync(path.join(built, `${s.slug}.pdf`)));

fs.mkdirSync(built, { recursive: true });
if (stale.length > 0) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-templates-'));
  try {
    // In the sources' layout, so that each finds the shared stylesheet at ../../; named by slug, as
    // LibreOffice names each PDF after its input.
    fs.copyFileSync(path.join(root, sharedCss), path.join(work, sharedCss));
    const inputs = stale.map((s) => {
      const input = path.join(work, s.folder, `${s.slug}.html`);
      fs.mkdirSync(path.dirname(input), { recursive: true });
      fs.copyFileSync(s.file, input);
      return input;
    });
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${path.join(work, 'profile')}`,
        '--headless',
        '--infilter=HTML (StarWriter)',
        '--convert-to',
        exportFilter,
        '--outdir',
        path.join(work, 'out'),
        ...inputs,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    for (const s of stale) fs.copyFileSync(path.join(work, 'out', `${s.slug}.pdf`), path.join(built, `${s.slug}.pdf`));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
fs.writeFileSync(hashesFile, `${JSON.stringify(hashes, null, 2)}\n`);
console.log(`templates: ${stale.length} built, ${sources.length - stale.length} unchanged`);
