// The document model as an Apple Pages document (.pages since Pages 5: a zip of IWA archives,
// iwa.ts): one body text storage holding every paragraph, a paragraph style each for body text,
// headings 1–3 and list levels, a character style for each run's look where it differs from its
// paragraph's (bold, italic, size, face, colour), images and tables (pagesTable.ts) in paragraphs
// of their own, the image files in Data/. Lists keep their markers as text; a table larger than
// one tile of cells becomes tab-separated lines. ADR 0150 says which messages and why.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { type IwaObject, iwaFile, ProtoMessage } from './iwa.js';
import { type Block, type DocModel, type Run, runsText } from './model.js';
import { MAX_TABLE_COLUMNS, MAX_TABLE_ROWS, tableObjects } from './pagesTable.js';
import { listMarkers } from './text.js';

/** Message types of the iWork registry that the document uses. */
const TYPE = {
  document: 10000, // TP.DocumentArchive
  packageMetadata: 11006, // TSP.PackageMetadata
  stylesheet: 401, // TSS.StylesheetArchive
  storage: 2001, // TSWP.StorageArchive
  characterStyle: 2021, // TSWP.CharacterStyleArchive
  paragraphStyle: 2022, // TSWP.ParagraphStyleArchive
  drawableAttachment: 2003, // TSWP.DrawableAttachmentArchive
  image: 3005, // TSD.ImageArchive
};

/** Object ids: the document is 1 and the package metadata 2, as readers look for them there; styles, images and tables from `next` on. */
const ID = { document: 1, packageMetadata: 2, stylesheet: 3, storage: 4, next: 5 };

const MARGIN_PT = 54;
/** Ends a paragraph in a text storage. */
const PARAGRAPH_END = '\n';
/** Stands in a text storage where an attachment (an image or a table) is. */
const ATTACHMENT = '\ufffc';

/** A run's look: what a paragraph style or a character style sets. */
interface Look {
  bold: boolean;
  italic: boolean;
  size: number;
  font: string;
  /** RRGGBB; black when absent. */
  color?: string;
}

type ParagraphKind = 'body' | 'heading1' | 'heading2' | 'heading3' | 'list0' | 'list1' | 'list2';

type ImageBlock = Extract<Block, { kind: 'image' }>;
type TableBlock = Extract<Block, { kind: 'table' }>;

/** A paragraph of text, or of one image or table. */
interface Paragraph {
  kind: ParagraphKind;
  runs: Run[];
  attachment?: ImageBlock | TableBlock;
  pageBreakBefore: boolean;
}

/** PostScript names, as Pages names fonts. */
const FONT = { serif: 'TimesNewRomanPSMT', sans: 'Helvetica', mono: 'Courier' };
const fontOf = (r: { mono?: boolean; serif?: boolean }) => (r.mono ? FONT.mono : r.serif ? FONT.serif : FONT.sans);

const HEADING_SCALE = [1.6, 1.4, 1.2];
/** Points a run's size must differ from its paragraph style's to get a size of its own (PDF sizes wobble). */
const SIZE_TOLERANCE_PT = 1;

/** Controls other than the tab would read as the storage's own marks (paragraph ends, breaks, attachments). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is matched
const storageText = (s: string) => s.replace(/[\u0000-\u0008\u000a-\u001f\u2028\u2029\ufffc]/g, ' ');

function paragraphsOf(model: DocModel): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const page of model.pages) {
    // The first paragraph of each page after the first with any starts a new page.
    const first = paragraphs.length;
    const add = (kind: ParagraphKind, runs: Run[], attachment?: ImageBlock | TableBlock) => {
      if (attachment || runs.some((r) => r.text))
        paragraphs.push({ kind, runs, ...(attachment && { attachment }), pageBreakBefore: first > 0 && paragraphs.length === first });
    };
    for (const b of page.blocks) addBlock(b, model.bodySize, add);
  }
  return paragraphs;
}

function addBlock(b: Block, bodySize: number, add: (kind: ParagraphKind, runs: Run[], attachment?: ImageBlock | TableBlock) => void) {
  switch (b.kind) {
    case 'heading':
      return add(`heading${b.level}`, b.runs);
    case 'paragraph':
      return add('body', b.runs);
    case 'list': {
      const markers = listMarkers(b.items, b.ordered, b.start);
      b.items.forEach((item, i) => {
        // The marker in the face and size of the item's text, not its bold or italic.
        const first = item.runs[0];
        const marker: Run = { text: `${markers[i]}\t`, size: first?.size ?? bodySize, serif: !!first?.serif, mono: !!first?.mono };
        add(`list${item.level as 0 | 1 | 2}`, [marker, ...item.runs]);
      });
      return;
    }
    case 'table':
      if (b.rows.length > 0 && b.rows.length <= MAX_TABLE_ROWS && Math.max(...b.rows.map((r) => r.length)) <= MAX_TABLE_COLUMNS)
        return add('body', [], b);
      for (const row of b.rows) {
        // Cells apart by a tab, a cell's paragraphs by a space, each in the look of the text before it.
        const runs: Run[] = [];
        const separate = (text: string) => runs.length > 0 && runs.push({ ...runs[runs.length - 1]!, text });
        row.forEach((cell, c) => {
          if (c > 0) separate('\t');
          cell.forEach((p, k) => {
            if (k > 0) separate(' ');
            runs.push(...p);
          });
        });
        add('body', runs);
      }
      return;
    case 'image':
      return add('body', [], b);
  }
}

function colorMessage(rgb: string): ProtoMessage {
  const channel = (k: number) => parseInt(rgb.slice(k, k + 2), 16) / 255;
  // TSP.Color: model 1 is RGB, then red, green, blue and alpha from 0 to 1.
  return new ProtoMessage().uint(1, 1).float(3, channel(0)).float(4, channel(2)).float(5, channel(4)).float(6, 1);
}

/** TSWP.CharacterStylePropertiesArchive with the fields of `look` that are set. */
function characterProperties(look: Partial<Look>): ProtoMessage {
  const m = new ProtoMessage();
  if (look.bold !== undefined) m.bool(1, look.bold);
  if (look.italic !== undefined) m.bool(2, look.italic);
  if (look.size !== undefined) m.float(3, look.size);
  if (look.font !== undefined) m.string(5, look.font);
  if (look.color !== undefined) m.message(7, colorMessage(look.color));
  return m;
}

/** The paragraph styles' names, looks and spacing (before, after, indents in points). */
function paragraphStyles(model: DocModel) {
  const body: Look = { bold: false, italic: false, size: model.bodySize, font: model.bodySerif ? FONT.serif : FONT.sans };
  const styles: Record<ParagraphKind, { name: string; look: Look; before: number; after: number; indent?: number }> = {
    body: { name: 'Body', look: body, before: 0, after: 6 },
    heading1: { name: 'Heading', look: { ...body, bold: true, size: model.bodySize * HEADING_SCALE[0]! }, before: 12, after: 6 },
    heading2: { name: 'Heading 2', look: { ...body, bold: true, size: model.bodySize * HEADING_SCALE[1]! }, before: 12, after: 6 },
    heading3: { name: 'Heading 3', look: { ...body, bold: true, size: model.bodySize * HEADING_SCALE[2]! }, before: 12, after: 6 },
    list0: { name: 'List', look: body, before: 0, after: 3, indent: 36 },
    list1: { name: 'List 2', look: body, before: 0, after: 3, indent: 72 },
    list2: { name: 'List 3', look: body, before: 0, after: 3, indent: 108 },
  };
  return styles;
}

/** The part of a run's look that its paragraph style does not give it, or null when it has none. */
function override(run: Run, paragraph: Look): Partial<Look> | null {
  const look: Partial<Look> = {};
  if (!!run.bold !== paragraph.bold) look.bold = !!run.bold;
  if (!!run.italic !== paragraph.italic) look.italic = !!run.italic;
  if (Math.abs(run.size - paragraph.size) >= SIZE_TOLERANCE_PT) look.size = Math.round(run.size * 2) / 2;
  if (fontOf(run) !== paragraph.font) look.font = fontOf(run);
  if (run.color) look.color = run.color;
  return Object.keys(look).length > 0 ? look : null;
}

/** An image file of the package: its data id and name in Data/. */
interface DataFile {
  id: number;
  name: string;
  source: string;
}

/** The objects of Document.iwa (the document first: readers take the first object's type for the file's kind) and the image files. */
function documentObjects(model: DocModel): { objects: IwaObject[]; lastId: number; files: DataFile[] } {
  const styles = paragraphStyles(model);
  const objects: IwaObject[] = [];
  let nextId = ID.next;
  const styleInfo = (name?: string, parent?: number) => {
    // TSS.StyleArchive: name, parent style, whether it is an unnamed variation, its stylesheet.
    const m = new ProtoMessage();
    if (name) m.string(1, name);
    if (parent !== undefined) m.ref(3, parent);
    if (!name) m.bool(4, true);
    return m.ref(5, ID.stylesheet);
  };

  const paragraphStyleIds = {} as Record<ParagraphKind, number>;
  const bodyId = nextId;
  for (const [kind, s] of Object.entries(styles) as [ParagraphKind, (typeof styles)[ParagraphKind]][]) {
    const id = nextId++;
    paragraphStyleIds[kind] = id;
    // TSWP.ParagraphStylePropertiesArchive: 7 first line indent, 10 keep with next, 11 left indent, 20 space after, 21 space before.
    const para = new ProtoMessage();
    if (s.indent) para.float(7, -18).float(11, s.indent);
    if (kind.startsWith('heading')) para.bool(10, true);
    para.float(20, s.after).float(21, s.before);
    // Body sets the whole look; the others are based on it and set what they change.
    const look = kind === 'body' ? s.look : kind.startsWith('heading') ? { bold: true, size: s.look.size } : {};
    const payload = new ProtoMessage()
      .message(1, styleInfo(s.name, kind === 'body' ? undefined : bodyId))
      .message(11, characterProperties(look))
      .message(12, para);
    objects.push({ id, type: TYPE.paragraphStyle, payload });
  }

  // A paragraph that starts a PDF page starts a page here too: its style's variation says so.
  const pageStartIds = new Map<ParagraphKind, number>();
  const pageStartStyle = (kind: ParagraphKind) => {
    let id = pageStartIds.get(kind);
    if (id === undefined) {
      id = nextId++;
      pageStartIds.set(kind, id);
      // 14: page break before.
      const payload = new ProtoMessage()
        .message(1, styleInfo(undefined, paragraphStyleIds[kind]))
        .message(12, new ProtoMessage().bool(14, true));
      objects.push({ id, type: TYPE.paragraphStyle, payload });
    }
    return id;
  };

  const characterStyleIds = new Map<string, number>();
  const characterStyle = (look: Partial<Look>) => {
    const key = JSON.stringify(look);
    let id = characterStyleIds.get(key);
    if (id === undefined) {
      id = nextId++;
      characterStyleIds.set(key, id);
      const payload = new ProtoMessage().message(1, styleInfo()).message(11, characterProperties(look));
      objects.push({ id, type: TYPE.characterStyle, payload });
    }
    return id;
  };

  // An attachment: the drawable attachment the text points to and what it places, a table (its
  // cells' text: their paragraphs joined by spaces) or an image and its file.
  const files: DataFile[] = [];
  const first = model.pages[0] ?? { width: 612, height: 792 };
  const contentWidth = first.width - 2 * MARGIN_PT;
  const attachment = (b: ImageBlock | TableBlock) => {
    const drawable = b.kind === 'table' ? table(b) : image(b);
    const id = nextId++;
    // TSWP.DrawableAttachmentArchive: the drawable, its offsets from where the text places it.
    objects.push({ id, type: TYPE.drawableAttachment, payload: new ProtoMessage().ref(1, drawable).float(3, 0).float(5, 0) });
    return id;
  };
  const table = (b: TableBlock) => {
    const rows = b.rows.map((row) => row.map((cell) => cell.map((p) => storageText(runsText(p))).join(' ')));
    const { objects: parts, infoId } = tableObjects(rows, contentWidth, paragraphStyleIds.body, () => nextId++);
    objects.push(...parts);
    return infoId;
  };
  const image = (b: ImageBlock) => {
    const imageId = nextId++;
    const file: DataFile = {
      id: files.length + 1,
      name: `image-${files.length + 1}${path.extname(b.file)}`,
      source: path.join(model.imagesDir, b.file),
    };
    files.push(file);
    const scale = Math.min(1, contentWidth / b.width);
    const size = (w: number, h: number) => new ProtoMessage().float(1, w).float(2, h);
    // TSD.GeometryArchive: position, size; TSD.DrawableArchive: geometry, aspect ratio locked.
    const geometry = new ProtoMessage().message(1, size(0, 0)).message(2, size(b.width * scale, b.height * scale));
    // TSD.ImageArchive: the drawable, original size (pixels), natural size (points), the data.
    const payload = new ProtoMessage()
      .message(1, new ProtoMessage().message(1, geometry).bool(7, true))
      .message(4, size(b.pixels[0], b.pixels[1]))
      .message(9, size(b.width * scale, b.height * scale))
      .dataRef(11, file.id);
    objects.push({ id: imageId, type: TYPE.image, payload });
    return imageId;
  };

  // The text, with the paragraph style of each paragraph's first character, the character style
  // from each character where it changes (none: the paragraph style's look) and the attachments
  // where they stand; offsets count UTF-16 units, as iWork's strings do.
  let text = '';
  const paragraphTable = new ProtoMessage();
  const characterTable = new ProtoMessage();
  const attachmentTable = new ProtoMessage();
  let lastCharacterStyle: number | null | undefined;
  for (const [i, p] of paragraphsOf(model).entries()) {
    if (i > 0) text += PARAGRAPH_END;
    const style = p.pageBreakBefore ? pageStartStyle(p.kind) : paragraphStyleIds[p.kind];
    paragraphTable.message(1, new ProtoMessage().uint(1, text.length).ref(2, style));
    if (p.attachment) {
      attachmentTable.message(1, new ProtoMessage().uint(1, text.length).ref(2, attachment(p.attachment)));
      text += ATTACHMENT;
    }
    for (const run of p.runs) {
      const look = override(run, styles[p.kind].look);
      const style = look ? characterStyle(look) : null;
      if (style !== lastCharacterStyle) {
        const entry = new ProtoMessage().uint(1, text.length);
        characterTable.message(1, style === null ? entry : entry.ref(2, style));
        lastCharacterStyle = style;
      }
      text += storageText(run.text);
    }
  }

  // TSWP.StorageArchive: kind 0 is the body, then its stylesheet, text, in_document, style and attachment tables.
  const storage = new ProtoMessage()
    .uint(1, 0)
    .ref(2, ID.stylesheet)
    .string(3, text)
    .bool(10, true)
    .message(5, paragraphTable)
    .message(8, characterTable)
    .message(9, attachmentTable);
  const stylesheet = new ProtoMessage();
  for (const o of objects) if (o.type === TYPE.paragraphStyle || o.type === TYPE.characterStyle) stylesheet.ref(1, o.id);
  // TP.DocumentArchive: its TSA/TSK document parts (locale), stylesheet, body text, page size and margins.
  const document = new ProtoMessage()
    .message(15, new ProtoMessage().message(1, new ProtoMessage().string(4, 'en_US')).string(3, 'en'))
    .ref(2, ID.stylesheet)
    .ref(4, ID.storage)
    .float(30, first.width)
    .float(31, first.height);
  for (const field of [32, 33, 34, 35]) document.float(field, MARGIN_PT);
  return {
    objects: [
      { id: ID.document, type: TYPE.document, payload: document },
      { id: ID.stylesheet, type: TYPE.stylesheet, payload: stylesheet },
      { id: ID.storage, type: TYPE.storage, payload: storage },
      ...objects,
    ],
    lastId: nextId - 1,
    files,
  };
}

/** Writes the model as a .pages file to `out`. */
export async function writePages(model: DocModel, out: string): Promise<void> {
  const { objects, lastId, files } = documentObjects(model);
  // TSP.PackageMetadata: the last object id, the components (which .iwa holds which objects) and
  // the data files (TSP.DataInfo: id, SHA-1 digest, preferred and actual name in Data/).
  const component = new ProtoMessage().uint(1, ID.document).string(2, 'Document');
  const metadata = new ProtoMessage().uint(1, lastId).message(3, component);
  const zip = new yazl.ZipFile();
  // iWork reads only stored (uncompressed) entries; the archives are Snappy streams and the images compressed anyway.
  const add = (name: string, data: Buffer) => zip.addBuffer(data, name, { compress: false });
  for (const f of files) {
    const data = fs.readFileSync(f.source);
    const digest = createHash('sha1').update(data).digest();
    metadata.message(4, new ProtoMessage().uint(1, f.id).bytes(2, digest).string(3, f.name).string(4, f.name));
    add(`Data/${f.name}`, data);
  }
  add('Index/Document.iwa', iwaFile(objects));
  add('Index/Metadata.iwa', iwaFile([{ id: ID.packageMetadata, type: TYPE.packageMetadata, payload: metadata }]));
  add('Metadata/DocumentIdentifier', Buffer.from(randomUUID().toUpperCase(), 'utf8'));
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(out));
}
