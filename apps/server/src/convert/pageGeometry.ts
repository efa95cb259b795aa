// Runs in the MuPDF child program (programs/mupdf.ts): walks each page through a device of our own
// and collects its text as lines of styled runs, and (for DXF) its vector paths. For PPTX a second
// pass draws the page without the text it collected and without the pictures that can stand on
// their own (written as files of their own), so a slide can show everything else as a picture
// under text that stays editable.
import fs from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { ErrorCode } from '@quire/contracts/errors';
import type { GeometryJob } from '../engines/mupdf/jobs.js';
import {
  MAX_PAGE_GLYPHS,
  MAX_PATH_POINTS,
  type PageGeometry,
  type PageImage,
  type PathShape,
  type Rgb,
  type Subpath,
  type TextLine,
  type TextRun,
} from './geometryTypes.js';

/** The background picture: at most this many pixels, whatever the page size. */
const MAX_BACKGROUND_PIXELS = 16_000_000;
/** A PNG larger than this is tried as a JPEG too (a photograph compresses far better so). */
const PNG_BEFORE_JPEG = 1_000_000;

const clamp255 = (v: number) => Math.max(0, Math.min(255, Math.round(v * 255)));

/** The colour as RGB, 0–255. Spaces MuPDF passes unconverted (spot, indexed, Lab) are approximated. */
export function toRgb(cs: mupdf.ColorSpace | null | undefined, c: number[]): Rgb {
  if (!cs || c.length === 0) return [0, 0, 0];
  if (cs.isRGB() && c.length >= 3) return [clamp255(c[0]!), clamp255(c[1]!), clamp255(c[2]!)];
  if (cs.isCMYK() && c.length >= 4) {
    const k = 1 - c[3]!;
    return [clamp255((1 - c[0]!) * k), clamp255((1 - c[1]!) * k), clamp255((1 - c[2]!) * k)];
  }
  if (cs.isGray()) return [clamp255(c[0]!), clamp255(c[0]!), clamp255(c[0]!)];
  if (cs.isLab()) return [clamp255(c[0]! / 100), clamp255(c[0]! / 100), clamp255(c[0]! / 100)];
  // Separation and DeviceN: a tint of ink, 1 being full ink; an index: unknown, shown dark.
  const tint = cs.isIndexed() ? 1 : Math.max(...c);
  return [clamp255(1 - tint), clamp255(1 - tint), clamp255(1 - tint)];
}

/** "ABCDEF+TimesNewRomanPS-BoldItalicMT" -> "Times New Roman"; names no office suite knows are kept as they are. */
export function fontFamily(name: string): string {
  const base = name.replace(/^[A-Z]{6}\+/, '');
  if (/times/i.test(base)) return 'Times New Roman';
  if (/arial|helvetica/i.test(base)) return 'Arial';
  if (/courier/i.test(base)) return 'Courier New';
  const family = base.split(/[-,]/)[0]!.replace(/(PSMT|PS|MT)$/, '');
  return family || 'Arial';
}

const isBold = (font: mupdf.Font) => font.isBold() || /bold|black|heavy|semibold|demi/i.test(font.getName());
const isItalic = (font: mupdf.Font) => font.isItalic() || /italic|oblique/i.test(font.getName());

/**
 * A character that says what the glyph is; anything else (no ToUnicode, control codes, a symbol
 * font's private-use codes, a lone surrogate) stays a picture.
 */
const readable = (u: number) => u >= 0x20 && u !== 0xfffd && !(u >= 0x7f && u < 0xa0) && !(u >= 0xd800 && u < 0xf900) && u <= 0x10ffff;

interface Glyph {
  char: string;
  /** Origin on the page and the writing direction (unit vector) and font size there. */
  x: number;
  y: number;
  dx: number;
  dy: number;
  size: number;
  advance: number;
  style: Omit<TextRun, 'text' | 'size'>;
  invisible: boolean;
}

/** Builds lines from glyphs in the order they are drawn, as a reader's eye would join them. */
export class LineBuilder {
  readonly lines: TextLine[] = [];
  private current: (TextLine & { endX: number; endY: number; dx: number; dy: number }) | null = null;

  add(g: Glyph) {
    let line = this.current;
    if (line) {
      const size = Math.max(g.size, line.size);
      const along = (g.x - line.endX) * line.dx + (g.y - line.endY) * line.dy;
      const across = Math.abs(-(g.x - line.x) * line.dy + (g.y - line.y) * line.dx);
      const sameDirection = g.dx * line.dx + g.dy * line.dy > 0.9998;
      // Far apart on one baseline (table columns), back over it, or off it: a new line.
      if (!sameDirection || g.invisible !== line.invisible || across > 0.5 * size || along < -0.5 * size || along > 1.5 * size) {
        line = null;
      } else if (along > 0.18 * size && g.char !== ' ' && !this.endsWithSpace(line)) {
        this.append(line, ' ', g);
      }
    }
    if (!line) {
      if (g.char === ' ') return;
      line = {
        x: g.x,
        y: g.y,
        angle: (Math.atan2(g.dy, g.dx) * 180) / Math.PI,
        width: 0,
        size: g.size,
        invisible: g.invisible,
        runs: [],
        endX: g.x,
        endY: g.y,
        dx: g.dx,
        dy: g.dy,
      };
      this.lines.push(line);
      this.current = line;
    }
    if (g.char !== ' ' || !this.endsWithSpace(line)) this.append(line, g.char, g);
    line.endX = g.x + g.dx * g.advance;
    line.endY = g.y + g.dy * g.advance;
    line.width = Math.max(line.width, (line.endX - line.x) * line.dx + (line.endY - line.y) * line.dy);
    line.size = Math.max(line.size, g.size);
  }

  /** Characters of a ligature beyond its first: no glyph of their own. */
  extend(char: string) {
    const run = this.current?.runs.at(-1);
    if (run) run.text += char;
  }

  private endsWithSpace(line: TextLine) {
    return line.runs.at(-1)?.text.endsWith(' ') ?? false;
  }

  private append(line: TextLine, char: string, g: Glyph) {
    const last = line.runs.at(-1);
    const size = Math.round(g.size * 10) / 10;
    if (
      last &&
      last.size === size &&
      last.font === g.style.font &&
      last.bold === g.style.bold &&
      last.italic === g.style.italic &&
      last.color.join() === g.style.color.join()
    ) {
      last.text += char;
    } else {
      line.runs.push({ text: char, size, ...g.style });
    }
  }

  /** The lines with trailing spaces cut, empty ones and exact overprints (fake bold, shadows) left out. */
  finish(): TextLine[] {
    const seen = new Map<string, TextLine[]>();
    const out: TextLine[] = [];
    for (const { endX: _x, endY: _y, dx: _dx, dy: _dy, ...line } of this.lines as (TextLine & {
      endX: number;
      endY: number;
      dx: number;
      dy: number;
    })[]) {
      const last = line.runs.at(-1);
      if (last) last.text = last.text.trimEnd();
      line.runs = line.runs.filter((r) => r.text);
      const text = line.runs.map((r) => r.text).join('');
      if (!text.trim()) continue;
      const twins = seen.get(text) ?? [];
      if (twins.some((t) => Math.abs(t.x - line.x) < 0.15 * line.size && Math.abs(t.y - line.y) < 0.15 * line.size)) continue;
      seen.set(text, [...twins, line]);
      out.push(line);
    }
    return out;
  }
}

const apply = (m: mupdf.Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/** The path's subpaths in page space, cubic curves flattened to segments of about 3 points. */
export function flatten(p: mupdf.Path, ctm: mupdf.Matrix): Subpath[] {
  const subpaths: Subpath[] = [];
  let cur: Subpath | null = null;
  let start: [number, number] = [0, 0];
  const at = (): [number, number] => [cur!.points.at(-2)!, cur!.points.at(-1)!];
  p.walk({
    moveTo(x, y) {
      start = apply(ctm, x, y);
      cur = { points: [...start], closed: false };
      subpaths.push(cur);
    },
    lineTo(x, y) {
      if (!cur) this.moveTo!(x, y);
      else cur.points.push(...apply(ctm, x, y));
    },
    curveTo(x1, y1, x2, y2, x3, y3) {
      if (!cur) return;
      const p0 = at();
      const [p1, p2, p3] = [apply(ctm, x1, y1), apply(ctm, x2, y2), apply(ctm, x3, y3)];
      const hull =
        Math.hypot(p1[0] - p0[0], p1[1] - p0[1]) + Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) + Math.hypot(p3[0] - p2[0], p3[1] - p2[1]);
      const n = Math.max(2, Math.min(24, Math.ceil(hull / 3)));
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
        cur.points.push(a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]);
      }
    },
    closePath() {
      if (!cur) return;
      cur.closed = true;
      // After a close, drawing goes on from the subpath's start.
      cur = { points: [...start], closed: false };
      subpaths.push(cur);
    },
  });
  return subpaths.filter((s) => s.points.length >= 4);
}

type Fail = (code: number, message: string) => Error;

/** Pictures per page taken out of the background, and the most pixels one may have. */
const MAX_PAGE_IMAGES = 200;
const MAX_IMAGE_PIXELS = 16_000_000;

const NO_STROKE = null as unknown as mupdf.StrokeState; // null: the bounds of a fill, not a stroke

/** The page-space box of the unit square under `ctm`. */
function unitBox(ctm: mupdf.Matrix): mupdf.Rect {
  const xs = [ctm[4], ctm[4] + ctm[0], ctm[4] + ctm[2], ctm[4] + ctm[0] + ctm[2]];
  const ys = [ctm[5], ctm[5] + ctm[1], ctm[5] + ctm[3], ctm[5] + ctm[1] + ctm[3]];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const overlaps = (a: mupdf.Rect, b: mupdf.Rect) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
const inside = (a: mupdf.Rect, b: mupdf.Rect, slack = 1) =>
  a[0] >= b[0] - slack && a[1] >= b[1] - slack && a[2] <= b[2] + slack && a[3] <= b[3] + slack;

/**
 * The first pass over a page: collects its editable text and (for DXF) its paths, decides which
 * text calls became lines, and which pictures can be pictures of their own on a slide: drawn
 * upright, whole (no clip, mask or transparency cutting them), on the page, and with nothing but
 * text drawn over them later.
 */
class PageWalker {
  readonly lines = new LineBuilder();
  readonly paths: PathShape[] = [];
  /** Per text call (fillText, strokeText, ignoreText) in drawing order: taken as editable lines. */
  readonly textTaken: boolean[] = [];
  /** Per fillImage call in drawing order: a picture of its own candidate, and whether something covers it. */
  readonly images: ({ box: mupdf.Rect; covered: boolean } | null)[] = [];
  /** Something other than editable text and separate pictures was drawn. */
  drewOther = false;
  private glyphs = 0;
  /** Inside a soft mask's or a tiling pattern's definition: drawn only through what it defines. */
  private hidden = 0;
  /**
   * Inside a tiling pattern's cell. Its calls are not counted in textTaken and images: the draw
   * pass runs a cell once per pattern, where this pass runs it at every use.
   */
  private tiles = 0;
  /** The clips in force: their boxes, null for a soft mask. */
  private clips: (mupdf.Rect | null)[] = [];
  /** Transparency groups in force that fade or blend what they hold. */
  private blending: boolean[] = [];
  private lastFill: { path: mupdf.Path; ctm: string; shape: PathShape } | null = null;

  constructor(
    private readonly bounds: mupdf.Rect,
    private readonly collectPaths: boolean,
    private readonly points: { used: number },
    private readonly fail: Fail,
  ) {}

  /** Pictures that stay separate: candidates nothing covers. */
  separate(): Set<number> {
    return new Set(this.images.flatMap((c, i) => (c && !c.covered ? [i] : [])));
  }

  /** Whether the page needs its background picture. */
  needsBackground(): boolean {
    return this.drewOther || this.images.some((c) => c?.covered);
  }

  private other(box: mupdf.Rect | null) {
    this.drewOther = true;
    for (const c of this.images) if (c && !c.covered && (!box || overlaps(c.box, box))) c.covered = true;
  }

  private textCall(text: mupdf.Text, ctm: mupdf.Matrix, color: Rgb, invisible: boolean) {
    if (this.tiles > 0) return this.other(text.getBounds(NO_STROKE, ctm));
    const taken = this.text(text, ctm, color, invisible);
    this.textTaken.push(taken);
    if (!taken && !invisible) this.other(text.getBounds(NO_STROKE, ctm));
  }

  private image(image: mupdf.Image, ctm: mupdf.Matrix, alpha: number) {
    const box = unitBox(ctm);
    if (this.tiles > 0) return this.other(box);
    const upright = ctm[0] > 0 && ctm[3] > 0 && Math.abs(ctm[1]) + Math.abs(ctm[2]) < 1e-3 * (ctm[0] + ctm[3]);
    const whole =
      this.hidden === 0 &&
      alpha >= 0.999 &&
      !this.blending.includes(true) &&
      this.clips.every((c) => c && inside(box, c)) &&
      inside(box, this.bounds) &&
      !image.getImageMask() &&
      !image.getMask() &&
      image.getWidth() * image.getHeight() <= MAX_IMAGE_PIXELS &&
      this.images.filter(Boolean).length < MAX_PAGE_IMAGES;
    if (upright && whole) {
      this.images.push({ box, covered: false });
    } else {
      this.images.push(null);
      this.other(box);
    }
  }

  device(): mupdf.Device {
    return new mupdf.Device({
      fillPath: (p, _evenOdd, ctm, cs, color) => {
        this.other(p.getBounds(NO_STROKE, ctm));
        this.path(p, ctm, null, toRgb(cs, color));
      },
      strokePath: (p, stroke, ctm, cs, color) => {
        this.other(p.getBounds(stroke, ctm));
        this.path(p, ctm, toRgb(cs, color), null);
      },
      clipPath: (p, _evenOdd, ctm) => void this.clips.push(p.getBounds(NO_STROKE, ctm)),
      clipStrokePath: (p, stroke, ctm) => void this.clips.push(p.getBounds(stroke, ctm)),
      clipText: (text, ctm) => void this.clips.push(text.getBounds(NO_STROKE, ctm)),
      clipStrokeText: (text, stroke, ctm) => void this.clips.push(text.getBounds(stroke, ctm)),
      clipImageMask: () => void this.clips.push(null),
      popClip: () => void this.clips.pop(),
      fillText: (text, ctm, cs, color, alpha) => this.textCall(text, ctm, toRgb(cs, color), alpha === 0),
      strokeText: (text, _stroke, ctm, cs, color, alpha) => this.textCall(text, ctm, toRgb(cs, color), alpha === 0),
      // Invisible text (render mode 3, an OCR layer over a scan).
      ignoreText: (text, ctm) => this.textCall(text, ctm, [0, 0, 0], true),
      fillShade: () => this.other(null),
      fillImage: (image, ctm, alpha) => this.image(image, ctm, alpha),
      fillImageMask: (_image, ctm) => this.other(unitBox(ctm)),
      beginMask: () => void this.hidden++,
      // The mask then clips what follows until its popClip.
      endMask: () => {
        this.hidden--;
        this.clips.push(null);
      },
      beginGroup: (_area, _cs, _isolated, _knockout, blend, alpha) => void this.blending.push(alpha < 0.999 || blend !== 'Normal'),
      endGroup: () => void this.blending.pop(),
      beginTile: () => {
        this.hidden++;
        this.tiles++;
        return 0;
      },
      endTile: () => {
        this.hidden--;
        this.tiles--;
      },
    });
  }

  /**
   * Takes the text as editable lines when every glyph says what character it is, it is written
   * horizontally in the page's own content, and it starts on the page; false leaves it to be drawn.
   */
  private text(text: mupdf.Text, ctm: mupdf.Matrix, color: Rgb, invisible: boolean): boolean {
    if (this.hidden > 0) return false;
    const glyphs: (Glyph | string)[] = [];
    let ok = true;
    text.walk({
      showGlyph: (font, trm, glyph, unicode, wmode) => {
        if (!ok) return;
        if (wmode !== 0 || !readable(unicode)) {
          ok = false;
          return;
        }
        // Ligatures (ﬁ, ﬂ…) as their letters, which is what an editor should find.
        const char =
          unicode >= 0xfb00 && unicode <= 0xfb06 ? String.fromCodePoint(unicode).normalize('NFKC') : String.fromCodePoint(unicode);
        if (glyph < 0) return void glyphs.push(char);
        const m = mupdf.Matrix.concat(trm, ctm);
        const scale = Math.hypot(m[0], m[1]);
        const size = Math.hypot(m[2], m[3]);
        if (!(scale > 0 && size > 0)) {
          ok = false;
          return;
        }
        const name = font.getName();
        glyphs.push({
          char: /\s/.test(char) ? ' ' : char,
          x: m[4],
          y: m[5],
          dx: m[0] / scale,
          dy: m[1] / scale,
          size,
          advance: font.advanceGlyph(glyph, 0) * scale,
          style: { font: fontFamily(name), bold: isBold(font), italic: isItalic(font), color },
          invisible,
        });
      },
    });
    const first = glyphs.find((g): g is Glyph => typeof g !== 'string');
    if (!ok || !first || this.glyphs + glyphs.length > MAX_PAGE_GLYPHS) return false;
    const [x0, y0, x1, y1] = this.bounds;
    // Off the page: neither shown nor worth a text box.
    if (first.x < x0 - first.size || first.x > x1 || first.y < y0 || first.y > y1 + first.size) return true;
    this.glyphs += glyphs.length;
    for (const g of glyphs) {
      if (typeof g === 'string') this.lines.extend(g);
      else this.lines.add(g);
    }
    return true;
  }

  private path(p: mupdf.Path, ctm: mupdf.Matrix, stroke: Rgb | null, fill: Rgb | null) {
    if (!this.collectPaths || this.hidden > 0) return;
    // A path filled and then stroked (the B operator) is one shape.
    const key = ctm.join();
    if (stroke && this.lastFill?.path.pointer === p.pointer && this.lastFill.ctm === key) {
      this.lastFill.shape.stroke = stroke;
      this.lastFill = null;
      return;
    }
    const [x0, y0, x1, y1] = this.bounds;
    const subpaths = flatten(p, ctm).filter((s) => {
      let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = 0; i < s.points.length; i += 2) {
        minX = Math.min(minX, s.points[i]!);
        maxX = Math.max(maxX, s.points[i]!);
        minY = Math.min(minY, s.points[i + 1]!);
        maxY = Math.max(maxY, s.points[i + 1]!);
      }
      return maxX >= x0 && minX <= x1 && maxY >= y0 && minY <= y1;
    });
    if (!subpaths.length) return;
    this.points.used += subpaths.reduce((n, s) => n + s.points.length / 2, 0);
    if (this.points.used > MAX_PATH_POINTS) throw this.fail(ErrorCode.TaskFailed, 'This PDF has too many drawings to convert.');
    const shape: PathShape = { subpaths, stroke, fill };
    this.paths.push(shape);
    this.lastFill = fill ? { path: p, ctm: key, shape } : null;
  }
}

/**
 * The second pass: everything the first did not take, drawn on `draw` (when the page needs its
 * background); the separate pictures handed to `onImage` instead.
 */
function backgroundDevice(
  draw: mupdf.Device | null,
  walker: PageWalker,
  onImage: (image: mupdf.Image, ctm: mupdf.Matrix) => void,
): mupdf.Device {
  const separate = walker.separate();
  let texts = 0;
  let images = 0;
  let tiles = 0;
  // Calls inside a pattern cell are drawn and not counted, as the first pass did not count them.
  const drawText = () => tiles > 0 || !walker.textTaken[texts++];
  return new mupdf.Device({
    fillPath: (p, evenOdd, ctm, cs, color, alpha) => draw?.fillPath(p, evenOdd, ctm, cs, color as mupdf.Color, alpha),
    strokePath: (p, stroke, ctm, cs, color, alpha) => draw?.strokePath(p, stroke, ctm, cs, color as mupdf.Color, alpha),
    clipPath: (p, evenOdd, ctm) => draw?.clipPath(p, evenOdd, ctm),
    clipStrokePath: (p, stroke, ctm) => draw?.clipStrokePath(p, stroke, ctm),
    fillText: (text, ctm, cs, color, alpha) => drawText() && draw?.fillText(text, ctm, cs, color as mupdf.Color, alpha),
    strokeText: (text, stroke, ctm, cs, color, alpha) => drawText() && draw?.strokeText(text, stroke, ctm, cs, color as mupdf.Color, alpha),
    ignoreText: () => void (tiles > 0 || texts++),
    clipText: (text, ctm) => draw?.clipText(text, ctm),
    clipStrokeText: (text, stroke, ctm) => draw?.clipStrokeText(text, stroke, ctm),
    fillShade: (shade, ctm, alpha) => draw?.fillShade(shade, ctm, alpha),
    fillImage: (image, ctm, alpha) => (tiles === 0 && separate.has(images++) ? onImage(image, ctm) : draw?.fillImage(image, ctm, alpha)),
    fillImageMask: (image, ctm, cs, color, alpha) => draw?.fillImageMask(image, ctm, cs, color as mupdf.Color, alpha),
    clipImageMask: (image, ctm) => draw?.clipImageMask(image, ctm),
    popClip: () => draw?.popClip(),
    beginMask: (area, luminosity, cs, color) => draw?.beginMask(area, luminosity, cs, color as mupdf.Color),
    endMask: () => draw?.endMask(),
    beginGroup: (area, cs, isolated, knockout, blend, alpha) => draw?.beginGroup(area, cs, isolated, knockout, blend, alpha),
    endGroup: () => draw?.endGroup(),
    beginTile: (area, view, xstep, ystep, ctm, id, docId) => {
      tiles++;
      return draw ? draw.beginTile(area, view, xstep, ystep, ctm, id, docId) : 0;
    },
    endTile: () => {
      tiles--;
      draw?.endTile();
    },
    beginLayer: (name) => draw?.beginLayer(name),
    endLayer: () => draw?.endLayer(),
  });
}

/** A PNG or, where far smaller, a JPEG (a photograph); JPEG only for a pixmap without alpha. */
function encodePicture(pixmap: mupdf.Pixmap): { data: Uint8Array; ext: string } {
  const png = pixmap.asPNG();
  if (png.length <= PNG_BEFORE_JPEG || pixmap.getAlpha()) return { data: png, ext: 'png' };
  const jpeg = pixmap.asJPEG(85);
  return jpeg.length < png.length ? { data: jpeg, ext: 'jpg' } : { data: png, ext: 'png' };
}

/** An image's pixels in RGB or grey, as the slide's picture format takes them. */
function pictureOf(image: mupdf.Image): mupdf.Pixmap {
  const pixmap = image.toPixmap();
  const cs = pixmap.getColorSpace();
  return cs && (cs.isRGB() || cs.isGray()) ? pixmap : pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, true);
}

export function pageGeometry(
  job: GeometryJob,
  doc: mupdf.Document,
  progress: (done: number, total: number) => void,
  fail: Fail,
): { pages: number } {
  const count = doc.countPages();
  const pages: PageGeometry[] = [];
  const points = { used: 0 };
  const dir = path.dirname(job.output);
  const write = (name: string, data: Uint8Array) => {
    fs.writeFileSync(path.join(dir, name), data);
    return name;
  };
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i);
    const bounds = page.getBounds();
    const [x0, y0, x1, y1] = bounds;
    const width = x1 - x0;
    const height = y1 - y0;
    const walker = new PageWalker(bounds, job.paths, points, fail);
    const device = walker.device();
    page.run(device, mupdf.Matrix.identity);
    device.close();
    let background: string | null = null;
    const images: PageImage[] = [];
    if (job.backgroundDpi && (walker.needsBackground() || walker.separate().size)) {
      let pixmap: mupdf.Pixmap | null = null;
      let draw: mupdf.DrawDevice | null = null;
      if (walker.needsBackground()) {
        const scale = Math.min(job.backgroundDpi / 72, Math.sqrt(MAX_BACKGROUND_PIXELS / Math.max(1, width * height)));
        // The picture covers the page from its top left corner, whatever its box's origin.
        const matrix = mupdf.Matrix.concat(mupdf.Matrix.translate(-x0, -y0), mupdf.Matrix.scale(scale, scale));
        pixmap = new mupdf.Pixmap(
          mupdf.ColorSpace.DeviceRGB,
          [0, 0, Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))],
          false,
        );
        pixmap.clear(255);
        draw = new mupdf.DrawDevice(matrix, pixmap);
      }
      const second = backgroundDevice(draw, walker, (image, ctm) => {
        const [bx0, by0, bx1, by1] = unitBox(ctm);
        const picture = pictureOf(image);
        const { data, ext } = encodePicture(picture);
        picture.destroy();
        const file = write(`${path.basename(job.output)}.page${i + 1}.image${images.length + 1}.${ext}`, data);
        images.push({ x: bx0 - x0, y: by0 - y0, width: bx1 - bx0, height: by1 - by0, file });
      });
      page.run(second, mupdf.Matrix.identity);
      second.close();
      draw?.close();
      if (pixmap) {
        const { data, ext } = encodePicture(pixmap);
        background = write(`${path.basename(job.output)}.page${i + 1}.${ext}`, data);
        pixmap.destroy();
      }
    }
    // Geometry is kept relative to the page's top left corner.
    const lines = walker.lines.finish().map((l) => ({ ...l, x: l.x - x0, y: l.y - y0 }));
    const paths = walker.paths.map((s) => ({
      ...s,
      subpaths: s.subpaths.map((sp) => ({ ...sp, points: sp.points.map((v, k) => v - (k % 2 ? y0 : x0)) })),
    }));
    pages.push({ width, height, lines, paths, images, background });
    page.destroy();
    progress(i + 1, count);
  }
  fs.writeFileSync(job.output, JSON.stringify(pages));
  return { pages: count };
}
