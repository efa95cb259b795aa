// The proofreader's review: the text and its open issues, as the user accepts or ignores each.
// Accepting one rewrites its span and moves the later issues by the change in length; one around
// it grows or shrinks with it; one the change only partly covers is dropped, since its offsets no
// longer say what it meant.
import type { ProofreadIssue } from '@quire/contracts';

export interface OpenIssue extends ProofreadIssue {
  id: number;
}

export interface Review {
  text: string;
  issues: OpenIssue[];
}

export function startReview(text: string, issues: readonly ProofreadIssue[]): Review {
  return { text, issues: [...issues].sort((a, b) => a.start - b.start).map((issue, id) => ({ ...issue, id })) };
}

export function acceptIssue(review: Review, id: number, suggestion: string): Review {
  const issue = review.issues.find((i) => i.id === id);
  if (!issue) return review;
  const delta = suggestion.length - (issue.end - issue.start);
  const text = review.text.slice(0, issue.start) + suggestion + review.text.slice(issue.end);
  const issues = review.issues.flatMap((other) => {
    if (other.id === id) return [];
    if (other.end <= issue.start) return [other];
    if (other.start >= issue.end) return [{ ...other, start: other.start + delta, end: other.end + delta }];
    // Around the change (a passive sentence around a misspelt word): it grows or shrinks with it.
    if (other.start <= issue.start && other.end >= issue.end) return [{ ...other, end: other.end + delta }];
    return [];
  });
  return { text, issues };
}

export function ignoreIssue(review: Review, id: number): Review {
  return { ...review, issues: review.issues.filter((i) => i.id !== id) };
}

/** Every issue with a suggestion takes its first one, last first so that earlier offsets hold. */
export function acceptAll(review: Review): Review {
  let next = review;
  for (const issue of [...review.issues].reverse()) {
    const [first] = issue.suggestions;
    if (first !== undefined && next.issues.some((i) => i.id === issue.id)) next = acceptIssue(next, issue.id, first);
  }
  return next;
}

/**
 * The text cut into plain runs and issue spans, for marking the issues in place. Where issues
 * overlap (a passive sentence holding a misspelt word) the shorter is marked: the longer is still
 * listed, and a sentence-long mark would hide the words inside it.
 */
export function segments(review: Review): ({ text: string } | { text: string; issue: OpenIssue })[] {
  const marked: OpenIssue[] = [];
  for (const issue of [...review.issues].sort((a, b) => a.end - a.start - (b.end - b.start))) {
    if (!marked.some((m) => m.start < issue.end && issue.start < m.end)) marked.push(issue);
  }
  marked.sort((a, b) => a.start - b.start);
  const out: ({ text: string } | { text: string; issue: OpenIssue })[] = [];
  let at = 0;
  for (const issue of marked) {
    if (issue.start > at) out.push({ text: review.text.slice(at, issue.start) });
    out.push({ text: review.text.slice(issue.start, issue.end), issue });
    at = issue.end;
  }
  if (at < review.text.length) out.push({ text: review.text.slice(at) });
  return out;
}
