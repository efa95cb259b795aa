// The PDF editor's calls (/app/pdf-editor): document/content saves a list of edits as a task whose
// output is the edited PDF; document/runs, document/objects and document/form-fields read what the
// editor shows and edits. The password travels in a JSON body, never in a URL: the read calls are POSTs.
//
// Coordinates are PDF points with the origin at the top left of the page as it is shown (its crop
// box, after its /Rotate), x to the right and y DOWN: pdf.js's viewport at scale 1, and MuPDF's page space.
// Pages are numbered from 1.
import { z } from 'zod';
import { DEFAULT_FONT_FAMILY, fontFamilyIds } from './fonts.js';

export const EDIT_LIMITS = {
  /** Operations in one save. */
  operations: 2000,
  /** Characters of one text (a replaced run, a text box, an annotation's contents). */
  textLength: 5000,
  /** Bytes of one image added (PNG or JPEG, before base64). */
  imageBytes: 5 * 1024 * 1024,
  /** Bytes of all images added in one save. */
  imagesTotalBytes: 10 * 1024 * 1024,
  /** Points of one ink annotation or shape, all strokes together. */
  inkPoints: 20000,
  /** Fields filled in one save. */
  formFields: 2000,
  /** Pages in the order of a `pages` operation. */
  pages: 10000,
} as const;
/** The request body of document/content: the base64 images and the operations around them. */
export const EDIT_BODY_BYTES = Math.ceil((EDIT_LIMITS.imagesTotalBytes * 4) / 3) + 4 * 1024 * 1024;

const fileId = z.string().min(1).max(64).describe('An uploaded file id');
const passwd = z.string().max(128).optional().describe("The file's current password, if it has one");
const page = z.number().int().min(1).max(EDIT_LIMITS.pages).describe('1-based page number, in the order after the pages operation');
const coordinate = z.number().min(-100000).max(100000);
export const editRect = z
  .object({ x: coordinate, y: coordinate, width: z.number().positive().max(100000), height: z.number().positive().max(100000) })
  .describe('Points from the top left of the page as shown, y down');
export type EditRect = z.infer<typeof editRect>;
export const editPoint = z.tuple([coordinate, coordinate]).describe('[x, y] in points from the top left of the page as shown');
export const editColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Colours are written #rrggbb.' })
  .describe('#rrggbb')
  .meta({ examples: ['#000000'] });
const opacity = z.number().min(0).max(1);
const text = z.string().max(EDIT_LIMITS.textLength);
const fontFamily = z.enum(fontFamilyIds).describe('One of the 21 families (fonts.ts)');
const fontSize = z.number().min(1).max(500).describe('Points');
const objectId = z.string().min(1).max(64);

/** Base64 of a PNG or JPEG (no data: prefix), at most EDIT_LIMITS.imageBytes once decoded. */
const imageData = z
  .string()
  .min(8)
  .max(Math.ceil((EDIT_LIMITS.imageBytes * 4) / 3) + 4, { message: 'An image may have at most 5 MB.' })
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, { message: 'The image must be base64 (without a data: prefix).' });

export const editOperation = z.discriminatedUnion('op', [
  // Edit mode.
  z.object({
    op: z.literal('replaceText'),
    page,
    run: objectId.describe('A run id from document/runs'),
    text: text.describe('The run’s new text; empty removes it'),
    font: fontFamily.optional().describe("Left out: the run's own font where it has the glyphs, else the nearest family"),
    size: fontSize.optional(),
    color: editColor.optional(),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
  }),
  z.object({
    op: z.literal('addText'),
    page,
    rect: editRect.describe('The text box: lines wrap at its width'),
    text: text.min(1),
    font: fontFamily.default(DEFAULT_FONT_FAMILY),
    size: fontSize.default(12),
    color: editColor.default('#000000'),
    bold: z.boolean().default(false),
    italic: z.boolean().default(false),
    align: z.enum(['left', 'center', 'right']).default('left'),
  }),
  z.object({ op: z.literal('addImage'), page, rect: editRect, image: imageData }),
  z.object({
    op: z.literal('moveImage'),
    page,
    image: objectId.describe('An image id from document/objects'),
    rect: editRect.describe('Where the image goes: a new place, a new size, or both'),
  }),
  z.object({ op: z.literal('deleteImage'), page, image: objectId }),
  z.object({ op: z.literal('whiteout'), page, rect: editRect, color: editColor.default('#ffffff') }),
  z.object({
    op: z.literal('shape'),
    page,
    kind: z.enum(['rect', 'ellipse', 'line', 'arrow']),
    rect: editRect.optional().describe('rect and ellipse'),
    points: z.tuple([editPoint, editPoint]).optional().describe('line and arrow: from, to'),
    stroke: editColor.nullable().default('#000000').describe('null: no outline'),
    fill: editColor.nullable().default(null).describe('null: not filled'),
    width: z.number().min(0).max(100).default(1),
    opacity: opacity.default(1),
  }),
  z.object({
    op: z.literal('pages'),
    order: z
      .array(
        z.object({
          from: z
            .union([z.number().int().min(1), z.literal('blank')])
            .describe("A page of the file as uploaded, or 'blank' (the size of the page before it)"),
          rotate: z
            .union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)])
            .default(0)
            .describe('Degrees clockwise, added to its own'),
        }),
      )
      .min(1)
      .max(EDIT_LIMITS.pages)
      .describe('The new document, page by page: reorder, delete (leave out), add blank, rotate'),
  }),
  // Annotate mode: each a real PDF annotation.
  z.object({
    op: z.literal('annotate'),
    page,
    type: z.enum(['highlight', 'underline', 'strikeout', 'note', 'ink', 'square', 'circle', 'line', 'freetext', 'stamp']),
    rect: editRect.optional().describe('note (its icon), square, circle, freetext, stamp'),
    quads: z
      .array(editRect)
      .max(1000)
      .optional()
      .describe('highlight, underline, strikeout: one rectangle per line of text marked (document/runs gives their boxes)'),
    points: z.tuple([editPoint, editPoint]).optional().describe('line: from, to'),
    ink: z.array(z.array(editPoint).min(1)).max(1000).optional().describe('ink: strokes of points'),
    color: editColor.default('#ffd400'),
    opacity: opacity.default(1),
    width: z.number().min(0).max(100).default(1).describe('Line width of ink, square, circle, line'),
    contents: text.optional().describe("The note's or comment's text; freetext: the text shown; stamp: its name (Approved, Draft …)"),
    author: z.string().max(200).optional(),
    font_size: fontSize.default(12).describe('freetext'),
    image: imageData.optional().describe('stamp: a picture (a signature) as its appearance, instead of the named stamp'),
  }),
  z.object({
    op: z.literal('editAnnotation'),
    page,
    annotation: objectId.describe('An annotation id from document/objects'),
    rect: editRect.optional(),
    color: editColor.optional(),
    opacity: opacity.optional(),
    contents: text.optional(),
    author: z.string().max(200).optional(),
  }),
  z.object({ op: z.literal('deleteAnnotation'), page, annotation: objectId }),
  // Forms.
  z.object({
    op: z.literal('fillForm'),
    fields: z
      .record(z.string().max(1000), z.union([z.string().max(EDIT_LIMITS.textLength), z.boolean()]))
      .describe(
        'Field name → value: text and choices a string (a choice: one of its options), check boxes a boolean, radio groups the chosen option',
      ),
  }),
  z.object({ op: z.literal('flatten'), annotations: z.boolean().default(false).describe('Also bake annotations into the page') }),
]);
export type EditOperation = z.infer<typeof editOperation>;
export type EditOperationInput = z.input<typeof editOperation>;

/** What annotate mode may do: the page's content stays as it is. */
export const annotateModeOps: ReadonlySet<EditOperation['op']> = new Set([
  'annotate',
  'editAnnotation',
  'deleteAnnotation',
  'fillForm',
  'flatten',
]);

/**
 * POST document/content. The `pages` operation (at most one) is applied first, wherever it is in
 * the list; every other operation's `page` counts pages in the new order. Ids (runs, images,
 * annotations) name objects of the file as uploaded and stay valid after reordering.
 * The task's output is the edited PDF (get-task-result, download-doc, output-as-file).
 */
export const editRequest = z
  .object({
    file_id: fileId,
    passwd,
    multi_id: z.string().min(1).max(64).optional(),
    mode: z.enum(['edit', 'annotate']).default('edit'),
    operations: z.array(editOperation).min(1).max(EDIT_LIMITS.operations),
  })
  .refine((r) => r.operations.filter((o) => o.op === 'pages').length <= 1, { message: 'Send at most one pages operation.' })
  .refine((r) => r.mode === 'edit' || r.operations.every((o) => annotateModeOps.has(o.op)), {
    message: 'Annotate mode adds annotations and fills forms only: switch to edit mode to change the page.',
  });
export type EditRequest = z.input<typeof editRequest>;

/** The read calls' body: the file, its password, and a page of the file as uploaded. */
export const editPageRequest = z.object({ file_id: fileId, passwd, page: z.number().int().min(1) });
export const editFileRequest = z.object({ file_id: fileId, passwd });

/** The four styles of a family's files; a style the family lacks is served as its regular file. */
export const editFontStyles = ['regular', 'bold', 'italic', 'boldItalic'] as const;
export type EditFontStyle = (typeof editFontStyles)[number];
/** GET document/font: one of the 21 families' files, for the page to show edited text in the font it will get. */
export const editFontQuery = z.object({ family: fontFamily, style: z.enum(editFontStyles).default('regular') });

const bbox = editRect;

/** POST document/runs: the page's text as MuPDF sees it, in runs of one font, size and colour within a line. */
export const textRun = z.object({
  id: z.string().describe('Stable for an unchanged file'),
  text: z.string(),
  bbox,
  /** The baseline's start, where the run's first character sits. */
  origin: editPoint,
  font: z.string().describe("The font's own name"),
  family: fontFamily.describe('The nearest of the 21 families, for the font menu'),
  size: z.number(),
  color: editColor,
  bold: z.boolean(),
  italic: z.boolean(),
  line: z.number().int().describe('Runs of one line share this number'),
  paragraph: z.number().int().describe('Runs of one paragraph share this number'),
  paragraph_bbox: bbox,
});
export type TextRun = z.infer<typeof textRun>;
export const pageRuns = z.object({ page: z.number().int(), width: z.number(), height: z.number(), runs: z.array(textRun) });
export type PageRuns = z.infer<typeof pageRuns>;

export const annotationKinds = [
  'highlight',
  'underline',
  'strikeout',
  'note',
  'ink',
  'square',
  'circle',
  'line',
  'freetext',
  'stamp',
  'other',
] as const;

/** POST document/objects: the page's images and annotations. */
export const pageObjects = z.object({
  page: z.number().int(),
  width: z.number(),
  height: z.number(),
  images: z.array(z.object({ id: z.string(), bbox, width_px: z.number().int(), height_px: z.number().int() })),
  annotations: z.array(
    z.object({
      id: z.string(),
      type: z.enum(annotationKinds),
      subtype: z.string().describe('The PDF /Subtype'),
      rect: bbox,
      contents: z.string(),
      author: z.string(),
      color: editColor.nullable(),
    }),
  ),
});
export type PageObjects = z.infer<typeof pageObjects>;

/** POST document/form-fields: the AcroForm fields, each widget of a field a row of its own. */
export const formFields = z.object({
  fields: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['text', 'checkbox', 'radio', 'combobox', 'listbox', 'signature', 'button']),
      value: z.string().describe('Check boxes: "Off" or their on state; radio: the chosen option'),
      options: z.array(z.string()).describe('Choices, and the on states of check boxes and radio buttons'),
      page: z.number().int(),
      rect: bbox,
      read_only: z.boolean(),
    }),
  ),
});
export type FormFields = z.infer<typeof formFields>;
