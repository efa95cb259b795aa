// The marks placed on the pages (signatures, names, dates) and the sign call they make.
import type { DigitalSignature, SignPlacement, ToolParams } from '@quire/contracts';
import type { Translate } from '../i18n/I18nProvider';
import { clampToPage, type Rect } from './geometry';
import type { SignatureImage } from './signatureImage';

/** A signature the page offers: made here (a one-off) or one of the account's saved ones. */
export interface PlaceableSignature {
  key: string;
  image: SignatureImage;
  savedId?: string;
}

export type Mark =
  | { id: string; page: number; rect: Rect; kind: 'image'; signature: PlaceableSignature }
  | { id: string; page: number; rect: Rect; kind: 'text' | 'date'; text: string };

/** What a mark is, said to the user. */
export const markLabel = (t: Translate, kind: Mark['kind']) =>
  kind === 'image' ? t('sign.mark.image') : kind === 'text' ? t('sign.mark.text') : t('sign.mark.date');

/** A new signature mark's longer side at most (points): the size of a signature on paper. */
const SIGNATURE_MAX_WIDTH = 160;
const SIGNATURE_MAX_HEIGHT = 60;
/** Height of a placed name or date (points); the text fills it. */
const TEXT_MARK_HEIGHT = 16;

let lastId = 0;
export const newMarkId = () => `m${++lastId}`;

/** The size a new mark starts with. */
export function initialSize(mark: { kind: 'image'; image: SignatureImage } | { kind: 'text' | 'date'; text: string }) {
  if (mark.kind === 'image') {
    const shrink = Math.min(SIGNATURE_MAX_WIDTH / mark.image.width, SIGNATURE_MAX_HEIGHT / mark.image.height);
    return { width: mark.image.width * shrink, height: mark.image.height * shrink };
  }
  // A sans-serif character is about half as wide as the text is high.
  return { width: Math.max(2, mark.text.length) * TEXT_MARK_HEIGHT * 0.55, height: TEXT_MARK_HEIGHT };
}

/** A rectangle of `size` centred on (x, y), kept on the page. */
export function centredAt(x: number, y: number, size: { width: number; height: number }, page: { width: number; height: number }): Rect {
  return clampToPage({ x: x - size.width / 2, y: y - size.height / 2, ...size }, page);
}

/** Room kept between a new mark and the marks around it (points). */
const MARK_GAP = 6;
/** On a page with no room left, each new mark goes this far right of and below the last one (points). */
const CASCADE_STEP = 12;

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width + MARK_GAP && b.x < a.x + a.width + MARK_GAP && a.y < b.y + b.height + MARK_GAP && b.y < a.y + a.height + MARK_GAP;
const inside = (r: Rect, area: Rect) =>
  r.x >= area.x && r.y >= area.y && r.x + r.width <= area.x + area.width && r.y + r.height <= area.y + area.height;

/**
 * Where a new mark of `size` goes on a page holding `taken`: the free spot nearest the middle of
 * the page's part in view (`view`; null: the whole page), on that part while it has room, else
 * anywhere on the page; on a page with no room left, a step right of and below the last mark, so
 * none hides another entirely.
 */
export function freeSpot(
  size: { width: number; height: number },
  taken: readonly Rect[],
  page: { width: number; height: number },
  view: Rect | null,
): Rect {
  const area = view ?? { x: 0, y: 0, ...page };
  const [cx, cy] = [area.x + area.width / 2, area.y + area.height / 2];
  // Spots one mark (and the gap) apart, in rows and columns through the middle of the view.
  const [stepX, stepY] = [size.width + MARK_GAP, size.height + MARK_GAP];
  const [x0, y0] = [cx - size.width / 2, cy - size.height / 2];
  const spots: Rect[] = [];
  for (let i = -Math.floor(x0 / stepX); x0 + i * stepX + size.width <= page.width; i++)
    for (let j = -Math.floor(y0 / stepY); y0 + j * stepY + size.height <= page.height; j++)
      spots.push({ x: x0 + i * stepX, y: y0 + j * stepY, ...size });
  const distance = (r: Rect) => Math.hypot(r.x - x0, r.y - y0);
  const free = spots
    .filter((spot) => !taken.some((r) => overlaps(spot, r)))
    .sort((a, b) => Number(inside(b, area)) - Number(inside(a, area)) || distance(a) - distance(b));
  if (free[0]) return free[0];
  const last = taken.at(-1);
  if (!last) return centredAt(cx, cy, size, page);
  const next = clampToPage({ ...size, x: last.x + CASCADE_STEP, y: last.y + CASCADE_STEP }, page);
  // At the page's bottom right corner the cascade starts again from the top left of the view.
  return next.x === last.x && next.y === last.y ? clampToPage({ ...size, x: area.x, y: area.y }, page) : next;
}

/** What a mark shows: two marks with the same key look the same. */
const contentKey = (m: Mark) => (m.kind === 'image' ? `image:${m.signature.key}` : `${m.kind}:${m.text}`);

/**
 * Copies of `mark` at the same place on each of `pages` that does not have it already (its own page
 * is skipped), kept on pages of another size.
 */
export function repeatOnPages(
  mark: Mark,
  pages: readonly number[],
  marks: readonly Mark[],
  sizeOf: (page: number) => { width: number; height: number },
): Mark[] {
  const copies: Mark[] = [];
  for (const page of new Set(pages)) {
    if (page === mark.page) continue;
    const rect = clampToPage(mark.rect, sizeOf(page));
    const exists = marks.some(
      (m) =>
        m.page === page && contentKey(m) === contentKey(mark) && Math.abs(m.rect.x - rect.x) < 0.5 && Math.abs(m.rect.y - rect.y) < 0.5,
    );
    if (!exists) copies.push({ ...mark, id: newMarkId(), page, rect });
  }
  return copies;
}

/** The placement a mark is sent as: a saved signature by its id, a one-off by its key in the call's images. */
function placementOf(mark: Mark): SignPlacement {
  const place = {
    page: mark.page,
    x: mark.rect.x,
    y: mark.rect.y,
    width: mark.rect.width,
    height: mark.rect.height,
    font: 'sans',
    color: '#000000',
  } as const;
  if (mark.kind !== 'image') return { ...place, kind: mark.kind, text: mark.text };
  const { savedId, key } = mark.signature;
  return { ...place, kind: 'image', ...(savedId ? { signature_id: savedId } : { image_ref: key }) };
}

/**
 * What a digital signature needs besides the marks: an uploaded certificate and its password, or
 * the operator's; and whether to time-stamp it (offered where the server has a timestamp authority).
 */
type DigitalChoice = ({ certificate: 'uploaded'; p12: string; password: string } | { certificate: 'operator' }) & { timestamp?: boolean };

/** The sign call's body: the marks in page order, each one-off image once, and the digital signature shown by the first signature mark. */
export function signRequest(
  file: { file_id: string; passwd?: string },
  marks: readonly Mark[],
  digital?: DigitalChoice,
): ToolParams<'sign'> {
  const ordered = [...marks].sort((a, b) => a.page - b.page);
  const placements = ordered.map(placementOf);
  const appearance = placements.findIndex((p) => p.kind === 'image');
  let signature: DigitalSignature | undefined;
  if (digital && appearance >= 0)
    signature = {
      ...(digital.certificate === 'operator'
        ? { certificate: 'operator', appearance }
        : { certificate: 'uploaded', p12: digital.p12, p12_password: digital.password, appearance }),
      timestamp: digital.timestamp === true,
    };
  // A one-off placed on many pages is sent once.
  const oneOffs = ordered.flatMap((m) =>
    m.kind === 'image' && !m.signature.savedId ? [[m.signature.key, m.signature.image.png] as const] : [],
  );
  const images = oneOffs.length ? Object.fromEntries(oneOffs) : undefined;
  return { ...file, placements, ...(images && { images }), ...(signature && { digital: signature }) };
}
