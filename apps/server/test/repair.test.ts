// The repair pass at upload: a PDF that qpdf or poppler cannot read as it is, but a repair
// recovers, is kept repaired and the answer says so; what no repair recovers is still refused.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { makePdf, pageLabels } from './fixtures.js';
import { junkPrefixed } from './bombFixtures.js';

const { client, dir } = quireForTests('repair');
const file = (name: string) => path.join(dir, name);
const corpus = path.join(import.meta.dirname, '../../../test-corpus/pdfjs');

/** The stored file of an upload, as the download gives it. */
async function stored(fileUrl: string, dest: string): Promise<string> {
  fs.writeFileSync(dest, Buffer.from(await (await client.raw(fileUrl)).arrayBuffer()));
  return dest;
}

const pdfinfoPages = (f: string) =>
  Number(
    execFileSync('pdfinfo', [f])
      .toString()
      .match(/^Pages:\s+(\d+)/m)?.[1],
  );

describe('junk before the header', () => {
  it.each([1020, 4000])('%i bytes of junk: kept repaired, every reader opens it', async (junk) => {
    const source = await makePdf(file(`source-${junk}.pdf`), 2, 'Junk');
    const prefixed = await junkPrefixed(source, file(`junk-${junk}.pdf`), 'J'.repeat(junk));
    const up = await client.upload(prefixed);
    expect(up.code, up.msg).toBe(0);
    expect(up.data).toMatchObject({ repaired: true, total_page: 2, encrypted: false });
    const kept = await stored(up.data.file_url, file(`kept-${junk}.pdf`));
    expect(fs.readFileSync(kept).subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfinfoPages(kept)).toBe(2);
    expect(pageLabels(kept)).toEqual(['Junk Page 1', 'Junk Page 2']);
    expect(up.data.file_size).toBe(fs.statSync(kept).size);
  });

  it('a sound PDF is not marked repaired, and a zip named .pdf is still not a PDF', async () => {
    const up = await client.upload(await makePdf(file('sound.pdf'), 1));
    expect(up.code, up.msg).toBe(0);
    expect(up.data.repaired).toBeUndefined();
    fs.writeFileSync(file('archive.pdf'), Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200)]));
    expect((await client.upload(file('archive.pdf'))).code).toBe(ErrorCode.NotPdf);
  });
});

describe('repaired is kept with the file', () => {
  const info = (id: string) => client.call(`document/info?file_id=${id}`);
  const infoByPost = (id: string) => client.post('document/info', { file_id: id });

  it('document/info says so for as long as the file is kept, by GET and by POST', async () => {
    const source = await makePdf(file('later-source.pdf'), 1, 'Later');
    const up = await client.upload(await junkPrefixed(source, file('later.pdf'), 'J'.repeat(2000)));
    expect(up.data.repaired).toBe(true);
    for (const answer of [await info(up.data.file_id), await infoByPost(up.data.file_id)]) {
      expect(answer.code, answer.msg).toBe(0);
      expect(answer.data).toMatchObject({ file_id: up.data.file_id, total_page: 1, repaired: true });
    }
  });

  it('a file that needed no repair is not said to have had one', async () => {
    const id = await client.uploadId(await makePdf(file('later-sound.pdf'), 1));
    const answer = await info(id);
    expect(answer.code, answer.msg).toBe(0);
    expect(answer.data.repaired).toBeUndefined();
  });
});

describe('corpus files qpdf cannot read but poppler can', () => {
  // Poppler draws these, but only by inventing a page size: a copy of what it reads has pages of no size.
  it.each(['poppler-937-0-fuzzed.pdf', 'poppler-742-0-fuzzed.pdf'])(
    '%s (objects qpdf gives up on) is still refused as damaged',
    async (name) => {
      expect((await client.upload(path.join(corpus, name))).code).toBe(ErrorCode.Damaged);
    },
  );

  it('issue9418.pdf, which poppler does not open either, is still refused as damaged', async () => {
    expect((await client.upload(path.join(corpus, 'issue9418.pdf'))).code).toBe(ErrorCode.Damaged);
  });

  it('Pages-tree-refs.pdf (a page tree that loops) is kept repaired with the page poppler finds', async () => {
    const up = await client.upload(path.join(corpus, 'Pages-tree-refs.pdf'));
    expect(up.code, up.msg).toBe(0);
    expect(up.data.repaired).toBe(true);
    const kept = await stored(up.data.file_url, file('pages-tree-refs.pdf'));
    // qpdf walks the repaired tree without a loop, and finds as many pages as pdftoppm renders of the original.
    const walk = spawnSync('qpdf', ['--show-pages', kept], { encoding: 'utf8' });
    expect([0, 3]).toContain(walk.status); // 3: read with warnings
    const walked = walk.stdout.match(/^page \d+:/gm)?.length;
    fs.mkdirSync(file('renders'));
    execFileSync('pdftoppm', ['-r', '10', path.join(corpus, 'Pages-tree-refs.pdf'), file('renders/p')], { stdio: 'ignore' });
    expect(walked).toBe(up.data.total_page);
    expect(walked).toBeGreaterThan(0);
    expect(walked).toBeLessThanOrEqual(fs.readdirSync(file('renders')).length);
  });
});

describe('streams that do not decode', () => {
  const check = (f: string) => spawnSync('qpdf', ['--check', f], { encoding: 'utf8' });

  it('issue18042.pdf (a "JPEG" of four digits): replaced at upload, said repaired, and every output passes qpdf --check', async () => {
    const original = path.join(corpus, 'issue18042.pdf');
    expect(check(original).stderr).toContain('error decoding stream data');
    const up = await client.upload(original);
    expect(up.code, up.msg).toBe(0);
    expect(up.data).toMatchObject({ repaired: true, total_page: 4 });
    const id = up.data.file_id;
    const outputs: [string, object][] = [
      ['document/rotate', { file_id: id, angle: 90, pages: 'all' }],
      ['compress', { file_id: id, level: 'high' }],
      ['encrypt', { file_id: id, password: 'secret' }],
      ['split', { file_id: id, mode: 'fixed', every: 4 }],
    ];
    for (const [tool, body] of outputs) {
      const out = file(`${tool.replace('/', '-')}.pdf`);
      const entry = await client.runTool(tool, body, out);
      expect(entry.status, `${tool}: ${entry.msg}`).toBe(0);
      const args = tool === 'encrypt' ? ['--password=secret', '--check', out] : ['--check', out];
      const checked = spawnSync('qpdf', args, { encoding: 'utf8' });
      expect(checked.status, `${tool}: ${checked.stderr}`).toBe(0);
      if (tool !== 'encrypt') expect(pdfinfoPages(out)).toBeGreaterThan(0);
    }
  });
});
