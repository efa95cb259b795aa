// Text written into a page's content stream: fonts embedded for it, its resource names, and the
// content appended after the page's own (replace text and the editor).
import * as mupdf from 'mupdf';

export const codePoints = (text: string) => [...text].map((c) => c.codePointAt(0)!);
export const isSpace = (cp: number) => /\s/.test(String.fromCodePoint(cp));
export const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

/** Every character that is not white space has a glyph with ink (subsets may keep empty glyphs). */
export function hasGlyphs(font: mupdf.Font, text: string): boolean {
  const bbox = (gid: number) => {
    const t = new mupdf.Text();
    t.showGlyph(font, mupdf.Matrix.identity, gid, 0);
    const r = t.getBounds(null as unknown as mupdf.StrokeState, mupdf.Matrix.identity); // null: filled, not stroked
    t.destroy();
    return r;
  };
  return codePoints(text).every((cp) => {
    if (isSpace(cp)) return true;
    const gid = font.encodeCharacter(cp);
    if (gid <= 0) return false;
    const r = bbox(gid);
    return r[2] > r[0] && r[3] > r[1];
  });
}

export interface TextFont {
  resource: mupdf.PDFObject;
  /** A TJ operand showing `text`, and its advance in text space units (ems). */
  show(text: string): { operand: string; advance: number };
}

export const num = (n: number) => String(Number(n.toFixed(4)));

/** A resource name not yet used in the page's dictionary of its kind (fonts, images, graphics states). */
export function resourceName(dict: mupdf.PDFObject, taken: Map<mupdf.PDFObject, string>, resource: mupdf.PDFObject): string {
  const known = taken.get(resource);
  if (known) return known;
  let i = 0;
  while (!dict.get(`Quire${i}`).isNull()) i++;
  const name = `Quire${i}`;
  dict.put(name, resource);
  taken.set(resource, name);
  return name;
}

/** The page's own resource dictionary (copied from an ancestor if inherited) with a dictionary of `kind`. */
export function pageResources(doc: mupdf.PDFDocument, page: mupdf.PDFObject, kind: 'Font' | 'XObject' | 'ExtGState'): mupdf.PDFObject {
  let resources = page.get('Resources');
  if (!resources.isDictionary()) {
    const inherited = page.getInheritable('Resources');
    resources = doc.newDictionary();
    if (inherited.isDictionary()) {
      inherited.forEach((value, key) => {
        resources.put(key, value);
      });
    }
    page.put('Resources', resources);
  }
  let dict = resources.get(kind);
  if (!dict.isDictionary()) {
    dict = doc.newDictionary();
    resources.put(kind, dict);
  }
  return dict;
}

/** Appends content to the page, after the existing content wrapped in q/Q so its state cannot leak into ours. */
export function appendContent(doc: mupdf.PDFDocument, page: mupdf.PDFObject, content: string) {
  const old = page.get('Contents');
  const contents = doc.newArray();
  contents.push(doc.addStream('q\n', {}));
  if (old.isArray()) {
    old.forEach((c) => {
      contents.push(c);
    });
  } else if (!old.isNull()) contents.push(old);
  contents.push(doc.addStream(`Q\n${content}`, {}));
  page.put('Contents', contents);
}

export function colorOp(color: number[]): string {
  const c = color.map(num).join(' ');
  return color.length === 1 ? `${c} g` : color.length === 4 ? `${c} k` : `${c} rg`;
}

/** The font embedded as Identity-H (glyph ids), or null when MuPDF cannot embed it (Type 3, bare CFF). */
export function identityFont(doc: mupdf.PDFDocument, font: mupdf.Font): TextFont | null {
  try {
    return {
      resource: doc.addFont(font),
      show: (text) => {
        // A font subset without a space glyph still gets its gap: a TJ offset of a quarter em.
        const parts: string[] = [];
        let advance = 0;
        for (const cp of codePoints(text)) {
          const gid = Math.max(0, font.encodeCharacter(cp));
          if (gid === 0 && isSpace(cp)) {
            parts.push('-250');
            advance += 0.25;
          } else {
            parts.push(`<${hex(gid, 4)}>`);
            advance += font.advanceGlyph(gid);
          }
        }
        return { operand: `[${parts.join(' ')}]`, advance };
      },
    };
  } catch {
    return null;
  }
}
