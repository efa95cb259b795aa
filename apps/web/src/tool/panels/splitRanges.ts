// Suggestions for the split tool's custom ranges.

const rangeText = (from: number, to: number) => (from === to ? `${from}` : `${from}-${to}`);

/** Two halves of the document, or the one page (nothing before a file is ready). */
export function defaultSplitRanges(pageCount: number): string {
  if (pageCount < 2) return pageCount === 1 ? '1' : '';
  const half = Math.ceil(pageCount / 2);
  return `${rangeText(1, half)}, ${rangeText(half + 1, pageCount)}`;
}

/** `text` with one more range: from after the last range to the end. */
export function withNextRange(text: string, lastPage: number, pageCount: number): string {
  const range = rangeText(Math.min(lastPage + 1, pageCount), pageCount);
  return text.trim() ? `${text.replace(/[\s,]+$/, '')}, ${range}` : range;
}
