import { describe, expect, it } from 'vitest';
import { centredAt, freeSpot, initialSize, newMarkId, repeatOnPages, signRequest, type Mark, type PlaceableSignature } from './marks';

const drawn: PlaceableSignature = {
  key: 'one-off-1',
  image: { kind: 'drawn', png: 'data:image/png;base64,AAAA', width: 600, height: 150 },
};
const saved: PlaceableSignature = { ...drawn, key: 'saved-s1', savedId: 's1' };
const a4 = { width: 595, height: 842 };
const letterLandscape = { width: 792, height: 612 };

const signatureMark = (page: number, signature = drawn): Mark => ({
  id: newMarkId(),
  page,
  kind: 'image',
  signature,
  rect: { x: 400, y: 700, width: 160, height: 40 },
});

describe('marks', () => {
  it('start at the size of a signature on paper, keeping the image aspect', () => {
    expect(initialSize({ kind: 'image', image: drawn.image })).toEqual({ width: 160, height: 40 });
    expect(initialSize({ kind: 'image', image: { ...drawn.image, width: 100, height: 100 } })).toEqual({ width: 60, height: 60 });
  });

  it('placed by a click, go to the free spot nearest the middle of the part of the page in view', () => {
    const size = { width: 160, height: 40 };
    const view = { x: 0, y: 400, width: 595, height: 300 };
    const first = freeSpot(size, [], a4, view);
    expect(first).toEqual({ x: 217.5, y: 530, width: 160, height: 40 });
    const placed = [first];
    for (let n = 0; n < 30; n++) placed.push(freeSpot(size, placed, a4, view));
    // In view while it has room (three columns of five rows), then elsewhere on the page; none covers another.
    expect(placed.slice(0, 15).every((r) => r.y >= 400 && r.y + r.height <= 700)).toBe(true);
    expect(placed.slice(15).every((r) => r.y < 400 || r.y + r.height > 700)).toBe(true);
    for (const [i, a] of placed.entries())
      for (const b of placed.slice(0, i))
        expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
  });

  it('on a page with no room left, cascade from the last mark', () => {
    const size = { width: 500, height: 800 };
    const full = [{ x: 10, y: 10, width: 500, height: 800 }];
    expect(freeSpot(size, full, a4, null)).toEqual({ x: 22, y: 22, width: 500, height: 800 });
    expect(freeSpot(size, [{ x: 95, y: 42, width: 500, height: 800 }], a4, null)).toEqual({ x: 0, y: 0, width: 500, height: 800 });
  });

  it('are centred where they are dropped, but stay on the page', () => {
    expect(centredAt(100, 100, { width: 160, height: 40 }, a4)).toEqual({ x: 20, y: 80, width: 160, height: 40 });
    expect(centredAt(590, 840, { width: 160, height: 40 }, a4)).toEqual({ x: 435, y: 802, width: 160, height: 40 });
  });

  it('repeat on other pages at the same place, kept on a smaller page, never twice', () => {
    const mark = signatureMark(1);
    const copies = repeatOnPages(mark, [1, 2, 3, 3], [mark], (p) => (p === 3 ? letterLandscape : a4));
    expect(copies.map((c) => c.page)).toEqual([2, 3]);
    expect(copies[0]!.rect).toEqual(mark.rect);
    expect(copies[1]!.rect).toEqual({ x: 400, y: 572, width: 160, height: 40 });
    expect(new Set(copies.map((c) => c.id)).size).toBe(2);
    expect(repeatOnPages(mark, [2, 3], [mark, ...copies], (p) => (p === 3 ? letterLandscape : a4))).toEqual([]);
  });
});

describe('the sign request', () => {
  it('sends one-offs inline, saved signatures by id, names and dates as text, in page order', () => {
    const marks: Mark[] = [
      signatureMark(2, saved),
      signatureMark(1),
      { id: newMarkId(), page: 1, kind: 'date', text: '11/26/2026', rect: { x: 10, y: 20, width: 80, height: 16 } },
    ];
    const body = signRequest({ file_id: 'f1' }, marks);
    expect(body.file_id).toBe('f1');
    expect(body.placements.map((p) => [p.page, p.kind, p.signature_id ?? p.image_ref ?? p.text])).toEqual([
      [1, 'image', 'one-off-1'],
      [1, 'date', '11/26/2026'],
      [2, 'image', 's1'],
    ]);
    expect(body.placements[1]).toMatchObject({ x: 10, y: 20, width: 80, height: 16 });
    expect(body.images).toEqual({ 'one-off-1': drawn.image.png });
    expect(body.digital).toBeUndefined();
  });

  it('sends a one-off repeated on several pages once', () => {
    const body = signRequest({ file_id: 'f1' }, [signatureMark(1), signatureMark(2), signatureMark(3)]);
    expect(body.placements.map((p) => p.image_ref)).toEqual(['one-off-1', 'one-off-1', 'one-off-1']);
    expect(Object.keys(body.images ?? {})).toEqual(['one-off-1']);
  });

  it('shows a digital signature with the first signature mark', () => {
    const marks: Mark[] = [
      { id: newMarkId(), page: 1, kind: 'text', text: 'Ada Lovelace', rect: { x: 10, y: 20, width: 80, height: 16 } },
      signatureMark(1),
    ];
    const body = signRequest({ file_id: 'f1', passwd: 'pw' }, marks, { certificate: 'uploaded', p12: 'MIIB', password: 'secret' });
    expect(body.passwd).toBe('pw');
    expect(body.digital).toEqual({ certificate: 'uploaded', p12: 'MIIB', p12_password: 'secret', appearance: 1, timestamp: false });
    expect(signRequest({ file_id: 'f1' }, marks, { certificate: 'operator' }).digital).toEqual({
      certificate: 'operator',
      appearance: 1,
      timestamp: false,
    });
    const stamped = signRequest({ file_id: 'f1' }, marks, { certificate: 'operator', timestamp: true });
    expect(stamped.digital).toEqual({ certificate: 'operator', appearance: 1, timestamp: true });
  });
});
