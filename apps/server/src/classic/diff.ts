// The changes that turn one text into another, word by word: a model's corrected text read back as
// proofreading issues. Words, spaces and punctuation are the units, so applying every change to the
// original gives the corrected text exactly.

export interface TextChange {
  /** UTF-16 offsets in the original text. */
  start: number;
  end: number;
  /** What the span becomes ('' deletes it). */
  to: string;
}

const UNITS = /\s+|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;

/** Beyond this many cells the middle that differs is one change: the table stays small. */
const MAX_TABLE_CELLS = 4_000_000;

function unitsOf(text: string): { text: string; start: number }[] {
  return Array.from(text.matchAll(UNITS), (m) => ({ text: m[0], start: m.index }));
}

/** The changes from `from` to `to`, in order, none overlapping (a longest common subsequence of units). */
export function textChanges(from: string, to: string): TextChange[] {
  const a = unitsOf(from);
  const b = unitsOf(to);
  let head = 0;
  while (head < a.length && head < b.length && a[head]!.text === b[head]!.text) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail]!.text === b[b.length - 1 - tail]!.text) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const offsetA = (i: number) => (head + i < a.length ? a[head + i]!.start : from.length);
  const offsetB = (j: number) => (head + j < b.length ? b[head + j]!.start : to.length);
  const change = (i0: number, i1: number, j0: number, j1: number): TextChange => ({
    start: offsetA(i0),
    end: offsetA(i1),
    to: to.slice(offsetB(j0), offsetB(j1)),
  });
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_TABLE_CELLS) return [change(0, n, 0, m)];
  // lcs[i][j]: the longest common run of units of a[i..] and b[j..], in one flat table.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[head + i]!.text === b[head + j]!.text
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const changes: TextChange[] = [];
  let i = 0;
  let j = 0;
  let open: [number, number] | null = null;
  const close = () => {
    if (open && (open[0] < i || open[1] < j)) changes.push(change(open[0], i, open[1], j));
    open = null;
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[head + i]!.text === b[head + j]!.text) {
      close();
      i++;
      j++;
    } else {
      open ??= [i, j];
      if (j < m && (i === n || lcs[i * width + j + 1]! >= lcs[(i + 1) * width + j]!)) j++;
      else i++;
    }
  }
  close();
  return changes;
}
