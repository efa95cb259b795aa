// Edited text shown in the font the saved file will get: each of the 21 families' files comes from
// the server (document/font, cached by the browser) as a FontFace, loaded the first time a text
// asks for it, so a page that edits nothing downloads no font.
import { type EditFontStyle, fontFamilies } from '@quire/contracts';
import { apiUrl } from '../api/client';
import type { TextStyle } from './editOps';

const GENERIC = { sans: 'sans-serif', serif: 'serif', mono: 'monospace', script: 'cursive', cjk: 'sans-serif' } as const;

const added = new Set<string>();

const styleOf = ({ bold, italic }: TextStyle): EditFontStyle => (bold ? (italic ? 'boldItalic' : 'bold') : italic ? 'italic' : 'regular');

/**
 * The CSS font-family of a text style. Each file is its own face (a bold file already is bold), so
 * the text is set with normal weight and style; the generic family shows until the file is in.
 * Adding the face is idempotent, so it is done here, where the name is first needed.
 */
export function cssFontFamily(style: TextStyle): string {
  const file = styleOf(style);
  const name = `quire-${style.font}-${file}`;
  if (!added.has(name) && typeof FontFace !== 'undefined') {
    added.add(name);
    const face = new FontFace(name, `url(${apiUrl('document/font', { family: style.font, style: file })})`);
    document.fonts.add(face);
    // A font that cannot be had leaves the generic family in place.
    face.load().catch(() => {});
  }
  const kind = fontFamilies.find((f) => f.id === style.font)?.kind ?? 'sans';
  return `"${name}", ${GENERIC[kind]}`;
}
