// The template gallery: the shipped templates (sources in templates/, PDFs built into templates/.built/)
// and the operator's (QUIRE_TEMPLATES_DIR: PDFs, each with an optional <name>.json side-car). The
// catalogue is read again only when a file of either folder changed (names, sizes and times);
// use counts live in the database.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import {
  CUSTOM_TEMPLATE_CATEGORY,
  ErrorCode,
  QuireError,
  shippedTemplateCategories,
  type TemplateIndex,
  type TemplateList,
  type TemplateSummary,
  type templateListQuery,
} from '@quire/contracts';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { addTemplateUse as countTemplateUse, allTemplateUses } from '../db/templateUsesRepo.js';
import { declaredPages, firstPageThumbnail } from '../engines/poppler.js';
import { attachmentDisposition } from './fileNames.js';

/** Title and description by language ("en-us"…), or one text for all. */
type Localised = string | Record<string, string>;

interface Template {
  id: string;
  catId: string;
  title: Localised;
  description: Localised;
  tags: string[];
  pages: number;
  form: boolean;
  addedAt: number;
  pdf: string;
  fileName: string;
}

interface SideCar {
  title?: Localised;
  description?: Localised;
  category?: string;
  tags?: string[];
  form?: boolean;
}

const FEATURED = 8;
const THUMBNAIL_LONG_SIDE_PX = 480;
const DEFAULT_LANG = 'en-us';

function localised(text: Localised | undefined, lang: string): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  const base = lang.split('-')[0];
  const key = Object.keys(text).find((k) => k === lang) ?? Object.keys(text).find((k) => k.split('-')[0] === base);
  return text[key ?? DEFAULT_LANG] ?? Object.values(text)[0] ?? '';
}

/** A name fit for an id and a URL: lower-case letters, digits and dashes. */
const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'template';

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The files of a folder with their sizes and times, as one string that changes when any of them does. */
function folderStamp(dir: string): string {
  if (!dir || !fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const st = fs.statSync(path.join(dir, e.name));
      return `${e.name}:${st.size}:${st.mtimeMs}`;
    })
    .sort()
    .join('|');
}

async function pagesOf(ctx: AppContext, pdf: string): Promise<number> {
  return (await declaredPages(pdf, ctx.inspectLimits).catch(() => null)) ?? 0;
}

async function shippedTemplates(ctx: AppContext): Promise<Template[]> {
  const root = ctx.config.shippedTemplatesDir;
  const built = path.join(root, '.built');
  const found: Template[] = [];
  for (const catId of shippedTemplateCategories) {
    const catDir = path.join(root, catId);
    if (!fs.existsSync(catDir)) continue;
    for (const slug of fs.readdirSync(catDir).sort()) {
      const pdf = path.join(built, `${slug}.pdf`);
      const meta = readJson<SideCar & { tags: string[] }>(path.join(catDir, slug, 'meta.json'));
      // A source whose PDF was not built (setup not run since) is left out rather than offered broken.
      if (!meta || !fs.existsSync(pdf)) continue;
      found.push({
        id: slug,
        catId,
        title: meta.title ?? slug,
        description: meta.description ?? '',
        tags: meta.tags ?? [],
        pages: await pagesOf(ctx, pdf),
        form: meta.form ?? false,
        addedAt: Math.round(fs.statSync(pdf).mtimeMs),
        pdf,
        fileName: `${slug}.pdf`,
      });
    }
  }
  return found;
}

async function operatorTemplates(ctx: AppContext): Promise<Template[]> {
  const dir = ctx.config.templatesDir;
  if (!dir || !fs.existsSync(dir)) return [];
  const found: Template[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (path.extname(name).toLowerCase() !== '.pdf') continue;
    const pdf = path.join(dir, name);
    const base = name.slice(0, -'.pdf'.length);
    const meta = readJson<SideCar>(path.join(dir, `${base}.json`)) ?? {};
    const pages = await pagesOf(ctx, pdf);
    // Not a PDF poppler can open (or one with a password): not offered.
    if (pages === 0) continue;
    found.push({
      id: `custom-${slugOf(base)}`,
      catId: meta.category ? slugOf(meta.category) : CUSTOM_TEMPLATE_CATEGORY,
      title: meta.title ?? base,
      description: meta.description ?? '',
      tags: meta.tags ?? [],
      pages,
      form: meta.form ?? false,
      addedAt: Math.round(fs.statSync(pdf).mtimeMs),
      pdf,
      fileName: name,
    });
  }
  return found;
}

const catalogues = new WeakMap<AppContext, { stamp: string; templates: Promise<Template[]> }>();

/** Every template, read again when a file of the built or the operator's folder changed. */
function catalogue(ctx: AppContext): Promise<Template[]> {
  const stamp = `${folderStamp(path.join(ctx.config.shippedTemplatesDir, '.built'))}#${folderStamp(ctx.config.templatesDir)}`;
  const cached = catalogues.get(ctx);
  if (cached?.stamp === stamp) return cached.templates;
  const templates = Promise.all([shippedTemplates(ctx), operatorTemplates(ctx)]).then(([a, b]) => [...a, ...b]);
  catalogues.set(ctx, { stamp, templates });
  // A failed read (a folder unreadable for a moment) is tried again by the next call, not kept.
  templates.catch(() => catalogues.get(ctx)?.templates === templates && catalogues.delete(ctx));
  return templates;
}

function summary(t: Template, lang: string, uses: Map<string, number>): TemplateSummary {
  return {
    id: t.id,
    cat_id: t.catId,
    title: localised(t.title, lang),
    description: localised(t.description, lang),
    tags: t.tags,
    pages: t.pages,
    uses: uses.get(t.id) ?? 0,
    form: t.form,
    added_at: t.addedAt,
  };
}

const bySort: Record<z.infer<typeof templateListQuery>['sort'], (a: TemplateSummary, b: TemplateSummary) => number> = {
  popular: (a, b) => b.uses - a.uses || a.title.localeCompare(b.title),
  newest: (a, b) => b.added_at - a.added_at || a.title.localeCompare(b.title),
  name: (a, b) => a.title.localeCompare(b.title),
};

async function summaries(ctx: AppContext, lang: string): Promise<TemplateSummary[]> {
  const [templates, uses] = await Promise.all([catalogue(ctx), allTemplateUses(ctx.db)]);
  return templates.map((t) => summary(t, lang, uses));
}

export async function templateIndex(ctx: AppContext, lang: string): Promise<TemplateIndex> {
  const all = await summaries(ctx, lang);
  const counts = new Map<string, number>();
  for (const t of all) counts.set(t.cat_id, (counts.get(t.cat_id) ?? 0) + 1);
  // The shipped categories first, in their order, then the operator's by name.
  const order = (c: string) => {
    const i = (shippedTemplateCategories as readonly string[]).indexOf(c);
    return i === -1 ? shippedTemplateCategories.length : i;
  };
  const categories = [...counts.entries()]
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([cat_id, count]) => ({ cat_id, count }));
  return { categories, featured: [...all].sort(bySort.popular).slice(0, FEATURED) };
}

export async function templateList(ctx: AppContext, lang: string, q: z.infer<typeof templateListQuery>): Promise<TemplateList> {
  const words = (q.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matching = (await summaries(ctx, lang)).filter((t) => {
    if (q.cat_id && t.cat_id !== q.cat_id) return false;
    const haystack = [t.title, t.description, ...t.tags].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
  matching.sort(bySort[q.sort]);
  const start = (q.page - 1) * q.page_size;
  return { total: matching.length, page: q.page, page_size: q.page_size, templates: matching.slice(start, start + q.page_size) };
}

/** One template; 2405 for an id that is none. */
async function templateOf(ctx: AppContext, id: string): Promise<Template> {
  const found = (await catalogue(ctx)).find((t) => t.id === id);
  if (!found) throw new QuireError(ErrorCode.NoData);
  return found;
}

export async function templateDetail(ctx: AppContext, lang: string, id: string): Promise<TemplateSummary> {
  const [t, uses] = await Promise.all([templateOf(ctx, id), allTemplateUses(ctx.db)]);
  return summary(t, lang, uses);
}

export async function sendTemplate(ctx: AppContext, reply: FastifyReply, id: string) {
  const t = await templateOf(ctx, id);
  const size = fs.statSync(t.pdf).size;
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', attachmentDisposition(t.fileName))
    .header('content-length', size)
    .send(fs.createReadStream(t.pdf));
}

/** Counts one use of the template and answers the new count. */
export async function addTemplateUse(ctx: AppContext, id: string): Promise<{ uses: number }> {
  await templateOf(ctx, id);
  return { uses: await countTemplateUse(ctx.db, id) };
}

/** The first page as a PNG, drawn once per version of the PDF and kept under the data folder. */
export async function sendTemplateThumbnail(ctx: AppContext, reply: FastifyReply, id: string) {
  const t = await templateOf(ctx, id);
  const dir = path.join(ctx.config.dataDir, 'cache', 'template-thumbnails');
  const png = path.join(dir, `${t.id}-${t.addedAt}-${fs.statSync(t.pdf).size}.png`);
  if (!fs.existsSync(png)) {
    fs.mkdirSync(dir, { recursive: true });
    // Drawn beside its final name and renamed, so a concurrent request never sends half a file.
    const drawing = `${png.slice(0, -'.png'.length)}-${process.pid}-${Date.now()}.png`;
    await firstPageThumbnail(t.pdf, drawing, THUMBNAIL_LONG_SIDE_PX, ctx.inspectLimits);
    fs.renameSync(drawing, png);
  }
  return reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=3600').send(fs.createReadStream(png));
}
