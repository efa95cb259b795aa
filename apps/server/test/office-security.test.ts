// A document converted to PDF must never read the server's disk. Each format below names files
// outside its job in every way it has (linked images, included files and texts, linked sections,
// frames, stylesheets): another visitor's upload in the storage folder, a file in the data folder,
// a file in the system's temporary folder and /etc/hostname, and a path that does not exist. The
// PDF must hold none of their marker words (pdftotext), and an existing file must give the same
// answer as a missing one, so nothing can be learnt about which files exist.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireError } from '@quire/contracts';
import { quireForTests } from './harness.js';

const served = quireForTests('office-security', { officeListeners: 1 });
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);
const text = (pdf: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-']).toString();

/** A one-page PDF whose only text is `word`, written by hand so no engine under test makes it. */
function markerPdf(word: string): Buffer {
  const content = `BT /F1 24 Tf 50 700 Td (${word}) Tj ET`;
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 4 0 R>>>>/Contents 5 0 R>>',
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>',
    `<</Length ${content.length}>>stream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Every file under a folder. */
const walk = (root: string): string[] =>
  fs
    .readdirSync(root, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(root, e.name)) : [path.join(root, e.name)]));

const zip = (out: string, folder: string) => {
  fs.rmSync(out, { force: true });
  // The mimetype first and stored, as ODF wants; the rest after it.
  if (fs.existsSync(path.join(folder, 'mimetype'))) execFileSync('zip', ['-q', '-X', '-0', out, 'mimetype'], { cwd: folder });
  execFileSync('zip', ['-q', '-X', '-r', out, '.', '-x', 'mimetype'], { cwd: folder });
};

/** The documents of each format naming `target` (a path) every way the format has. */
const documents: Record<string, (target: string, name: string) => string> = {
  rtf(target, name) {
    const url = `file://${target}`;
    const rtfPath = target.replaceAll('\\', '\\\\');
    fs.writeFileSync(
      file(`${name}.rtf`),
      `{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\f0 Visible words\\par
{\\field{\\*\\fldinst INCLUDEPICTURE "${url}" \\\\d}{\\fldrslt }}\\par
{\\field{\\*\\fldinst INCLUDEPICTURE "${rtfPath}"}{\\fldrslt }}\\par
{\\field{\\*\\fldinst INCLUDETEXT "${rtfPath}"}{\\fldrslt }}\\par
{\\field{\\*\\fldinst LINK Word.Document.8 "${rtfPath}" "" \\\\a \\\\f 0}{\\fldrslt }}\\par
{\\field{\\*\\fldinst DDEAUTO Excel "${rtfPath}" "R1C1"}{\\fldrslt }}\\par
End words}`,
    );
    return file(`${name}.rtf`);
  },
  docx(target, name) {
    const folder = file(`${name}-docx`);
    fs.mkdirSync(path.join(folder, '_rels'), { recursive: true });
    fs.mkdirSync(path.join(folder, 'word', '_rels'), { recursive: true });
    fs.writeFileSync(
      path.join(folder, '[Content_Types].xml'),
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    );
    fs.writeFileSync(
      path.join(folder, '_rels', '.rels'),
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    );
    const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    fs.writeFileSync(
      path.join(folder, 'word', '_rels', 'document.xml.rels'),
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rImg" Type="${rel}/image" Target="file://${target}" TargetMode="External"/><Relationship Id="rSub" Type="${rel}/subDocument" Target="file://${target}" TargetMode="External"/><Relationship Id="rChunk" Type="${rel}/aFChunk" Target="file://${target}" TargetMode="External"/></Relationships>`,
    );
    const picture = `<w:r><w:drawing><wp:inline><wp:extent cx="3000000" cy="3000000"/><wp:docPr id="1" name="linked"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="linked"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="3000000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    fs.writeFileSync(
      path.join(folder, 'word', 'document.xml'),
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${rel}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>
<w:p><w:r><w:t>Visible words</w:t></w:r></w:p>
<w:p>${picture}</w:p>
<w:p><w:fldSimple w:instr=" INCLUDEPICTURE &quot;file://${target}&quot; \\d "><w:r><w:t>x</w:t></w:r></w:fldSimple></w:p>
<w:p><w:fldSimple w:instr=" INCLUDETEXT &quot;${target}&quot; "><w:r><w:t>x</w:t></w:r></w:fldSimple></w:p>
<w:p><w:subDoc r:id="rSub"/></w:p>
<w:altChunk r:id="rChunk"/>
<w:p><w:r><w:t>End words</w:t></w:r></w:p></w:body></w:document>`,
    );
    zip(file(`${name}.docx`), folder);
    return file(`${name}.docx`);
  },
  odt(target, name) {
    const folder = file(`${name}-odt`);
    fs.mkdirSync(path.join(folder, 'META-INF'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'mimetype'), 'application/vnd.oasis.opendocument.text');
    fs.writeFileSync(
      path.join(folder, 'META-INF', 'manifest.xml'),
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    );
    fs.writeFileSync(path.join(folder, 'content.xml'), odfContent(target, 'office:document-content'));
    zip(file(`${name}.odt`), folder);
    return file(`${name}.odt`);
  },
  fodt(target, name) {
    fs.writeFileSync(
      file(`${name}.fodt`),
      odfContent(target, 'office:document', 'office:mimetype="application/vnd.oasis.opendocument.text"'),
    );
    return file(`${name}.fodt`);
  },
  html(target, name) {
    const url = `file://${target}`;
    fs.writeFileSync(
      file(`${name}.html`),
      `<!DOCTYPE html><html><head><link rel="stylesheet" href="${url}"><style>@import url("${url}");</style></head><body>
<p>Visible words</p><img src="${url}" width="300" height="300"><img src="${path.relative(dir, target)}">
<iframe src="${url}"></iframe><object data="${url}" type="application/pdf"></object><embed src="${url}">
<p>End words</p></body></html>`,
    );
    return file(`${name}.html`);
  },
};

/**
 * Binary Word files naming each target, written by LibreOffice itself from the RTF. Each is made
 * naming a path that does not exist (the target's last character changed, so nothing can be
 * embedded on the way), which is then patched to the target's path, in both of Word's encodings.
 */
function makeDocs(targets: { name: string; path: string }[]): Map<string, string> {
  const standIn = (p: string) => `${p.slice(0, -1)}#`;
  const sources = targets.map((t) => documents.rtf!(standIn(t.path), `doc-${t.name}`));
  const out = file('docs');
  execFileSync(
    'soffice',
    ['--headless', `-env:UserInstallation=file://${file('doc-profile')}`, '--convert-to', 'doc', '--outdir', out, ...sources],
    {
      stdio: 'ignore',
      timeout: 300_000,
    },
  );
  const docs = new Map<string, string>();
  for (const t of targets) {
    const doc = path.join(out, `doc-${t.name}.doc`);
    const bytes = fs.readFileSync(doc);
    for (const encoding of ['latin1', 'utf16le'] as const) {
      const [from, to] = [Buffer.from(standIn(t.path), encoding), Buffer.from(t.path, encoding)];
      for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1)) to.copy(bytes, at);
    }
    expect(bytes.includes(Buffer.from(t.path, 'latin1')) || bytes.includes(Buffer.from(t.path, 'utf16le'))).toBe(true);
    fs.writeFileSync(doc, bytes);
    docs.set(t.name, doc);
  }
  return docs;
}

/** ODF text naming `target` as a linked image, a linked section and an included OLE object. */
function odfContent(target: string, root: string, extra = ''): string {
  const url = `file://${target}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.2" ${extra}>
<office:body><office:text>
<text:p>Visible words</text:p>
<text:p><draw:frame draw:name="img" svg:width="8cm" svg:height="8cm"><draw:image xlink:href="${url}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>
<text:p><draw:frame draw:name="ole" svg:width="8cm" svg:height="8cm"><draw:object xlink:href="${url}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>
<text:section text:name="linked"><text:section-source xlink:href="${url}" xlink:type="simple" xlink:show="embed"/></text:section>
<text:p>End words</text:p>
</office:text></office:body></${root}>`;
}

/** Converts a document through the API: the answer code and, on success, the PDF's text. */
async function convert(source: string): Promise<{ code: number; text: string }> {
  // Uploads take flat ODF under no name (it has no magic number and is no text Quire reads), so it
  // goes straight to the LibreOffice engine, the layer that must hold whatever reaches it.
  if (source.endsWith('.fodt')) return convertInEngine(source);
  const id = await client.uploadId(source);
  const created = await client.call(`converter?file_id=${id}&output_format=pdf`);
  if (created.code !== 0) return { code: created.code, text: '' };
  const entry = await client.waitTask(created.data.task_id);
  if (entry.status !== 0) return { code: entry.status, text: '' };
  const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
  const pdf = `${source}.out.pdf`;
  fs.writeFileSync(pdf, Buffer.from(await res.arrayBuffer()));
  return { code: 0, text: text(pdf) };
}

async function convertInEngine(source: string): Promise<{ code: number; text: string }> {
  const pdf = `${source}.out.pdf`;
  try {
    await served.quire.ctx.office.convert({ input: source, output: pdf }, { timeoutMs: 120_000, memoryMb: 2048 });
  } catch (e) {
    return { code: (e as QuireError).code, text: '' };
  }
  return { code: 0, text: text(pdf) };
}

const secrets: { name: string; path: string; marker: string }[] = [];

describe('a document that names files outside its job', () => {
  // The documents are made before the secrets exist, so nothing can have been embedded on the way.
  const names = Object.keys(documents);
  const made = new Map<string, string>();

  beforeAll(async () => {
    const dataDir = served.quire.ctx.config.dataDir;
    const candidates = {
      storage: ['SECRETSTORAGEUPLOAD'],
      data: [path.join(dataDir, 'secret-data.pdf'), 'SECRETDATAFOLDER'],
      system: [path.join(os.tmpdir(), `quire-secret-${process.pid}.pdf`), 'SECRETSYSTEMTMP'],
    };
    // Another visitor's upload: its place in the storage folder is found by its id.
    fs.writeFileSync(file('visitor.pdf'), markerPdf(candidates.storage[0]!));
    const visitorId = await client.uploadId(file('visitor.pdf'));
    const stored = walk(dataDir).find((f) => f.includes(visitorId) && fs.readFileSync(f).includes(candidates.storage[0]!));
    expect(stored).toBeTruthy();
    const targets = [
      { name: 'storage', path: stored!, marker: candidates.storage[0]! },
      { name: 'data', path: candidates.data[0]!, marker: candidates.data[1]! },
      { name: 'system', path: candidates.system[0]!, marker: candidates.system[1]! },
      { name: 'etc', path: '/etc/hostname', marker: '' },
      { name: 'missing', path: path.join(dataDir, 'no-such-file.pdf'), marker: '' },
    ];
    for (const format of names) for (const t of targets) made.set(`${format}:${t.name}`, documents[format]!(t.path, `${format}-${t.name}`));
    for (const [name, doc] of makeDocs(targets)) made.set(`doc:${name}`, doc);
    fs.writeFileSync(candidates.data[0]!, markerPdf(candidates.data[1]!));
    fs.writeFileSync(candidates.system[0]!, markerPdf(candidates.system[1]!));
    secrets.push(...targets);
  }, 300_000);

  afterAll(() => {
    fs.rmSync(path.join(os.tmpdir(), `quire-secret-${process.pid}.pdf`), { force: true });
  });

  for (const format of ['rtf', 'doc', 'docx', 'odt', 'html', 'fodt']) {
    it(`${format}: never shows them, and an existing file answers as a missing one does`, async () => {
      const outcomes = new Map<string, number>();
      for (const target of secrets) {
        const { code, text: words } = await convert(made.get(`${format}:${target.name}`)!);
        outcomes.set(target.name, code);
        for (const secret of secrets) if (secret.marker) expect(words).not.toContain(secret.marker);
        // The document itself converts: the test is of what its links bring in, not of a refusal.
        expect(code, target.name).toBe(0);
        expect(words).toContain('Visible words');
      }
      // The same answer whether the named file exists or not.
      expect(new Set(outcomes.values()).size, JSON.stringify(Object.fromEntries(outcomes))).toBe(1);
    }, 240_000);
  }
});

describe('the LibreOffice jail', () => {
  it('runs LibreOffice as an unprivileged user that sees its job folder but not the data folder', async () => {
    const doc = documents.html!('/nonexistent', 'jail-probe');
    expect((await convert(doc)).code).toBe(0); // a listener is running now
    const pids = execFileSync('pgrep', ['-f', `soffice.bin.*name=quire-${process.pid}-`])
      .toString()
      .trim()
      .split('\n')
      .map(Number);
    expect(pids.length).toBeGreaterThan(0);
    const dataDir = served.quire.ctx.config.dataDir;
    for (const pid of pids) {
      const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      if (process.getuid!() === 0) {
        expect(uid).toBe(Number(execFileSync('id', ['-u', 'quire-office']).toString().trim()));
        // Root can look at the listener's own view of the file system.
        const root = `/proc/${pid}/root`;
        expect(fs.existsSync(path.join(root, dataDir))).toBe(false);
        expect(fs.existsSync(path.join(root, 'etc', 'hostname'))).toBe(false);
        expect(fs.existsSync(path.join(root, 'job'))).toBe(true);
        expect(fs.readdirSync(path.join(root, 'job'))).toEqual([]); // the finished job left nothing
      } else {
        expect(uid).toBe(process.getuid!());
      }
      // Its own mount namespace, not the server's.
      expect(fs.readlinkSync(`/proc/${pid}/ns/mnt`)).not.toBe(fs.readlinkSync('/proc/self/ns/mnt'));
      expect(fs.readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(fs.readlinkSync('/proc/self/ns/net'));
    }
  }, 120_000);
});

describe('without a jail', () => {
  it('refuses conversions to PDF (3125) rather than run LibreOffice unconfined', () => {
    // A server whose PATH holds no bwrap (nor anything else): the pool must not fall back to running unshut.
    const script = file('no-jail.mts');
    const pool = path.resolve(import.meta.dirname, '../src/engines/office.ts');
    fs.writeFileSync(
      script,
      `import { OfficePool } from ${JSON.stringify(pool)};
const pool = new OfficePool(${JSON.stringify(file('no-jail-pool'))}, 1, 1024);
try {
  await pool.convert({ input: ${JSON.stringify(script)}, output: ${JSON.stringify(file('no-jail.pdf'))} }, { timeoutMs: 60000, memoryMb: 1024 });
  console.log('converted');
} catch (e) {
  console.log('refused', e.code);
}
await pool.close();`,
    );
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, PATH: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 120_000,
    }).toString();
    expect(out.trim()).toBe('refused 3125');
    expect(fs.existsSync(file('no-jail.pdf'))).toBe(false);
    // No LibreOffice was started for it.
    expect(fs.existsSync(file('no-jail-pool'))).toBe(false);
  }, 150_000);
});
