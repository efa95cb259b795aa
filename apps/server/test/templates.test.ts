// The template gallery through its HTTP API (/api/templates/v1/): every call as a visitor, search,
// sort and paging, use counts, the operator's folder (read again when it changes), and every shipped
// template's PDF checked with qpdf and pdftotext against its metadata (form templates: their fields).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, shippedTemplateCategories, type TemplateList, type TemplateSummary } from '@quire/contracts';
import { quireForTests, type Envelope } from './harness.js';
import { makePdf } from './fixtures.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const sources = path.join(repo, 'templates');
const operatorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-operator-templates-'));
afterAll(() => fs.rmSync(operatorDir, { recursive: true, force: true }));
const served = quireForTests('templates', { templatesDir: operatorDir });

interface Meta {
  title: Record<string, string>;
  description: Record<string, string>;
  tags: string[];
  pages: number;
  text: string[];
  form: boolean;
}
const shipped = shippedTemplateCategories.flatMap((cat) =>
  fs.readdirSync(path.join(sources, cat)).map((slug) => ({
    cat,
    slug,
    meta: JSON.parse(fs.readFileSync(path.join(sources, cat, slug, 'meta.json'), 'utf8')) as Meta,
    pdf: path.join(sources, '.built', `${slug}.pdf`),
  })),
);

async function call(pathname: string, headers: Record<string, string> = {}): Promise<Envelope> {
  return (await (await served.client.raw(`/api/templates/v1/${pathname}`, { headers })).json()) as Envelope;
}
async function list(query: string): Promise<TemplateList> {
  const answer = await call(`list?${query}`);
  expect(answer.code, answer.msg).toBe(0);
  return answer.data as TemplateList;
}

beforeAll(async () => {
  // Cached by source hash: instant once setup has built them.
  execFileSync('node', [path.join(repo, 'scripts/build-templates.mjs')], { stdio: 'ignore' });
  await makePdf(path.join(operatorDir, 'Club newsletter.pdf'), 2, 'Newsletter');
  fs.writeFileSync(
    path.join(operatorDir, 'Club newsletter.json'),
    JSON.stringify({ title: { 'en-us': 'Club newsletter', 'de-de': 'Vereinszeitung' }, category: 'Newsletters', tags: ['club'] }),
  );
  await makePdf(path.join(operatorDir, 'Plain.pdf'), 1, 'Plain');
  fs.writeFileSync(path.join(operatorDir, 'broken.pdf'), 'not a pdf');
}, 120_000);

describe('shipped templates', () => {
  it('are at least 30 in at least 6 categories', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(30);
    expect(new Set(shipped.map((t) => t.cat)).size).toBeGreaterThanOrEqual(6);
  });

  it.each(shipped.map((t) => [t.slug, t]))('%s is a valid PDF with its pages, text and fields', (_, t) => {
    execFileSync('qpdf', ['--check', t.pdf], { stdio: 'pipe' });
    expect(execFileSync('pdfinfo', [t.pdf], { encoding: 'utf8' })).toMatch(new RegExp(`^Pages:\\s+${t.meta.pages}$`, 'm'));
    const text = execFileSync('pdftotext', ['-layout', t.pdf, '-'], { encoding: 'utf8' });
    for (const phrase of t.meta.text) expect(text).toContain(phrase);
    const fields = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=acroform', t.pdf], { encoding: 'utf8', maxBuffer: 64 << 20 }))
      .acroform.fields as { fieldtype: string }[];
    if (!t.meta.form) return expect(fields).toEqual([]);
    const types = new Set(fields.map((f) => f.fieldtype));
    expect(types).toContain('/Tx');
    expect(fields.length).toBeGreaterThanOrEqual(3);
  });

  it('forms and invoices have text, check box and choice fields', () => {
    for (const slug of ['registration-form', 'classic-invoice']) {
      const json = JSON.parse(
        execFileSync('qpdf', ['--json', '--json-key=acroform', path.join(sources, '.built', `${slug}.pdf`)], { encoding: 'utf8' }),
      );
      expect(new Set(json.acroform.fields.map((f: { fieldtype: string }) => f.fieldtype))).toEqual(new Set(['/Tx', '/Btn', '/Ch']));
    }
  });
});

describe('the template API', () => {
  it('index: every category with its count, and featured templates', async () => {
    const index = await call('index');
    expect(index.code, index.msg).toBe(0);
    const counts = Object.fromEntries(index.data.categories.map((c: { cat_id: string; count: number }) => [c.cat_id, c.count]));
    for (const cat of shippedTemplateCategories) expect(counts[cat]).toBe(shipped.filter((t) => t.cat === cat).length);
    // The operator's: one with a category of its own, one in Custom; the broken file is left out.
    expect(counts).toMatchObject({ newsletters: 1, custom: 1 });
    expect(index.data.categories.map((c: { cat_id: string }) => c.cat_id).slice(0, 6)).toEqual([...shippedTemplateCategories]);
    expect(index.data.featured.length).toBeGreaterThan(0);
  });

  it('list: a category, words, the three sorts and pages', async () => {
    const invoices = await list('cat_id=invoices&sort=name');
    expect(invoices.total).toBe(5);
    expect(invoices.templates.every((t) => t.cat_id === 'invoices')).toBe(true);
    const titles = invoices.templates.map((t) => t.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));

    const found = await list('search=GIFT%20voucher');
    expect(found.templates.map((t) => t.id)).toEqual(['gift-certificate']);
    expect((await list('search=nothing-matches-this')).total).toBe(0);

    const all = await list('sort=name&page_size=60');
    expect(all.total).toBe(shipped.length + 2);
    const page2 = await list('sort=name&page_size=7&page=2');
    expect(page2.templates.map((t) => t.id)).toEqual(all.templates.slice(7, 14).map((t) => t.id));
    const last = await list(`sort=name&page_size=7&page=${Math.ceil(all.total / 7)}`);
    expect(last.templates.length).toBe(all.total % 7 || 7);

    const newest = (await list('sort=newest&page_size=60')).templates.map((t) => t.added_at);
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    expect((await call('list?sort=oldest')).code).toBe(ErrorCode.InvalidParams);
  });

  it('add-num counts uses, which popular sorts by and detail shows', async () => {
    for (let i = 0; i < 3; i++) await call('add-num?template_id=weekly-planner');
    const used = await call('add-num?template_id=todo-list');
    expect(used.data).toEqual({ uses: 1 });
    expect((await call('detail?template_id=weekly-planner')).data.uses).toBe(3);
    const popular = await list('sort=popular');
    expect(popular.templates.slice(0, 2).map((t) => [t.id, t.uses])).toEqual([
      ['weekly-planner', 3],
      ['todo-list', 1],
    ]);
    expect((await call('index')).data.featured[0].id).toBe('weekly-planner');
    const stored = await served.quire.ctx.db.selectFrom('template_uses').selectAll().where('template_id', '=', 'weekly-planner').execute();
    expect(stored).toEqual([{ template_id: 'weekly-planner', uses: 3 }]);
  });

  it('detail, download-file and thumbnail of a template; 2405 for an id that is none', async () => {
    const detail = (await call('detail?template_id=classic-invoice')).data as TemplateSummary;
    expect(detail).toMatchObject({ id: 'classic-invoice', cat_id: 'invoices', title: 'Classic invoice', pages: 1, form: true });

    const pdf = await served.client.raw('/api/templates/v1/download-file?template_id=classic-invoice');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).equals(fs.readFileSync(path.join(sources, '.built', 'classic-invoice.pdf')))).toBe(true);

    const png = path.join(served.dir, 'thumb.png');
    const thumb = await served.client.raw('/api/templates/v1/thumbnail?template_id=classic-invoice');
    expect(thumb.headers.get('content-type')).toBe('image/png');
    fs.writeFileSync(png, Buffer.from(await thumb.arrayBuffer()));
    const [w, h] = execFileSync('identify', ['-format', '%w %h', png], { encoding: 'utf8' }).split(' ').map(Number);
    expect(Math.max(w!, h!)).toBe(480);
    // Drawn once: the cached file answers the second request.
    const cached = fs.readdirSync(path.join(served.quire.ctx.config.dataDir, 'cache', 'template-thumbnails'));
    await served.client.raw('/api/templates/v1/thumbnail?template_id=classic-invoice');
    expect(fs.readdirSync(path.join(served.quire.ctx.config.dataDir, 'cache', 'template-thumbnails'))).toEqual(cached);

    for (const call_ of ['detail', 'download-file', 'add-num', 'thumbnail']) {
      const answer = await call(`${call_}?template_id=no-such-template`);
      expect(answer.code, call_).toBe(ErrorCode.NoData);
    }
  });
});

describe("the operator's folder", () => {
  it('shows its PDFs with their side-cars, in the language asked, and notices new ones', async () => {
    const newsletter = (await call('detail?template_id=custom-club-newsletter', { lang: 'de-de' })).data as TemplateSummary;
    expect(newsletter).toMatchObject({ title: 'Vereinszeitung', cat_id: 'newsletters', pages: 2, tags: ['club'] });
    expect((await call('detail?template_id=custom-club-newsletter&lang=en-us')).data.title).toBe('Club newsletter');
    expect((await call('detail?template_id=custom-plain')).data).toMatchObject({ title: 'Plain', cat_id: 'custom' });

    await makePdf(path.join(operatorDir, 'Menu card.pdf'), 1, 'Menu');
    expect((await list('cat_id=custom&sort=name')).templates.map((t) => t.id)).toEqual(['custom-menu-card', 'custom-plain']);
    const bytes = Buffer.from(
      await (await served.client.raw('/api/templates/v1/download-file?template_id=custom-menu-card')).arrayBuffer(),
    );
    expect(bytes.equals(fs.readFileSync(path.join(operatorDir, 'Menu card.pdf')))).toBe(true);

    fs.rmSync(path.join(operatorDir, 'Plain.pdf'));
    expect((await call('detail?template_id=custom-plain')).code).toBe(ErrorCode.NoData);
  });
});
