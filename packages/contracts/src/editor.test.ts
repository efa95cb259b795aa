import { describe, expect, it } from 'vitest';
import { editRequest } from './editor.js';
import { fontFamilies, nearestFamily } from './fonts.js';

describe('the editor’s fonts', () => {
  it('lists 21 families, each once', () => {
    expect(fontFamilies).toHaveLength(21);
    expect(new Set(fontFamilies.map((f) => f.id)).size).toBe(21);
    expect(new Set(fontFamilies.map((f) => f.name)).size).toBe(21);
  });

  it('finds the stand-in named for a font, else one of its kind', () => {
    const near = (name: string, serif = false, mono = false) => nearestFamily({ name, serif, mono });
    expect(near('ArialMT')).toBe('liberation-sans');
    expect(near('TimesNewRomanPS-BoldMT', true)).toBe('liberation-serif');
    expect(near('Calibri-Bold')).toBe('carlito');
    expect(near('Cambria')).toBe('caladea');
    expect(near('CourierNewPSMT')).toBe('liberation-mono');
    expect(near('PalatinoLinotype-Roman', true)).toBe('p052');
    expect(near('F1', true)).toBe('liberation-serif');
    expect(near('F2', false, true)).toBe('liberation-mono');
    expect(near('F3')).toBe('liberation-sans');
  });
});

describe('document/content requests', () => {
  const whiteout = { op: 'whiteout', page: 1, rect: { x: 0, y: 0, width: 10, height: 10 } };
  const note = { op: 'annotate', page: 1, type: 'note', rect: { x: 0, y: 0, width: 10, height: 10 } };

  it('takes annotations in annotate mode, but nothing that changes the page', () => {
    expect(editRequest.safeParse({ file_id: 'f', mode: 'annotate', operations: [note] }).success).toBe(true);
    const refused = editRequest.safeParse({ file_id: 'f', mode: 'annotate', operations: [note, whiteout] });
    expect(refused.error?.issues[0]?.message).toMatch(/switch to edit mode/);
    expect(editRequest.safeParse({ file_id: 'f', operations: [note, whiteout] }).success).toBe(true);
  });

  it('refuses two pages operations, colours not written #rrggbb and images with a data: prefix', () => {
    const pages = { op: 'pages', order: [{ from: 1 }] };
    expect(editRequest.safeParse({ file_id: 'f', operations: [pages, pages] }).error?.issues[0]?.message).toBe(
      'Send at most one pages operation.',
    );
    expect(editRequest.safeParse({ file_id: 'f', operations: [{ ...whiteout, color: 'white' }] }).error?.issues[0]?.message).toBe(
      'Colours are written #rrggbb.',
    );
    const image = { op: 'addImage', page: 1, rect: whiteout.rect, image: 'data:image/png;base64,iVBORw0KGgo=' };
    expect(editRequest.safeParse({ file_id: 'f', operations: [image] }).success).toBe(false);
  });
});
