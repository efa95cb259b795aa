// Page ranges as users type them: "1, 6-159, 59-100".
export const pageRangeMessages = {
  format: 'Please input something like: 1, 6-159, or 59-100',
  invalid: 'Please enter a valid page range.',
  tooMany: 'Maximum number of pages exceeded',
} as const;

export type PageRange = { from: number; to: number };
export type RangeResult = { ok: true; ranges: PageRange[] } | { ok: false; message: string };

const shape = /^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*,?\s*$/;

/** Parses a range list against a document of `pageCount` pages, keeping the order given. */
export function parsePageRanges(input: string, pageCount: number): RangeResult {
  if (!shape.test(input)) return { ok: false, message: pageRangeMessages.format };
  const ranges: PageRange[] = [];
  for (const part of input.split(',')) {
    if (!part.trim()) continue;
    const [a, b] = part.split('-').map((s) => Number(s.trim()));
    const from = a!;
    const to = b ?? from;
    if (from < 1 || to < from || to > pageCount) return { ok: false, message: pageRangeMessages.invalid };
    ranges.push({ from, to });
  }
  return { ok: true, ranges };
}

/**
 * Crop's reading of a range list (crop has one more message): a range naming a
 * page past the document's last exceeds the maximum number of pages; other mistakes read as above.
 */
export function parseCropRanges(input: string, pageCount: number): RangeResult {
  const result = parsePageRanges(input, Number.MAX_SAFE_INTEGER);
  if (result.ok && result.ranges.some((r) => r.to > pageCount)) return { ok: false, message: pageRangeMessages.tooMany };
  return result;
}

/** The distinct pages a range list names, ascending. */
export function pagesOf(ranges: PageRange[]): number[] {
  const set = new Set<number>();
  for (const r of ranges) for (let p = r.from; p <= r.to; p++) set.add(p);
  return [...set].sort((x, y) => x - y);
}

/** Writes a set of pages back as the shortest range list: [1,2,3,7] -> "1-3, 7". */
export function formatPageRanges(pages: number[]): string {
  const sorted = [...new Set(pages)].sort((x, y) => x - y);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
