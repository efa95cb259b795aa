import type { ProofreadIssue } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { acceptAll, acceptIssue, ignoreIssue, segments, startReview } from './proofreadModel';

const text = 'This is is a sentense with an error.';
const issue = (start: number, end: number, suggestions: string[], kind: ProofreadIssue['kind'] = 'spelling'): ProofreadIssue => ({
  start,
  end,
  kind,
  message: 'm',
  suggestions,
});
// "sentense" at 13–21, the doubled "is " at 5–8, "an error" flagged without a suggestion at 27–35.
const issues = [issue(13, 21, ['sentence']), issue(5, 8, [''], 'grammar'), issue(30, 35, [], 'style')];

describe('the proofreader review', () => {
  it('accepts a suggestion and moves the later issues by the change', () => {
    const review = acceptIssue(startReview(text, issues), 0, '');
    expect(review.text).toBe('This is a sentense with an error.');
    const spelling = review.issues.find((i) => i.kind === 'spelling')!;
    expect(review.text.slice(spelling.start, spelling.end)).toBe('sentense');
    const style = review.issues.find((i) => i.kind === 'style')!;
    expect(review.text.slice(style.start, style.end)).toBe('error');
  });

  it('accepts all from the last, keeping an issue without a suggestion, and ignores one', () => {
    const all = acceptAll(startReview(text, issues));
    expect(all.text).toBe('This is a sentence with an error.');
    expect(all.issues.map((i) => i.kind)).toEqual(['style']);
    expect(ignoreIssue(all, all.issues[0]!.id).issues).toEqual([]);
  });

  it('grows an issue around the change with it', () => {
    const review = acceptIssue(startReview(text, [issue(0, 21, [], 'style'), issue(13, 21, ['sentence'])]), 1, 'sentence');
    expect(review.issues.map((i) => review.text.slice(i.start, i.end))).toEqual(['This is is a sentence']);
  });

  it('drops an issue whose span an accepted change partly covers', () => {
    const review = startReview('abcdef', [issue(1, 4, ['X']), issue(3, 5, ['Y'])]);
    expect(acceptIssue(review, 0, 'X')).toEqual({ text: 'aXef', issues: [] });
  });

  it('cuts the text into plain runs and marked issues', () => {
    const parts = segments(startReview(text, issues));
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => 'issue' in p).map((p) => p.text)).toEqual(['is ', 'sentense', 'error']);
  });

  it('marks the shorter of two overlapping issues', () => {
    const sentence = issue(0, 21, [], 'style');
    const parts = segments(startReview(text, [sentence, issue(13, 21, ['sentence'])]));
    expect(parts.filter((p) => 'issue' in p).map((p) => p.text)).toEqual(['sentense']);
    expect(parts.map((p) => p.text).join('')).toBe(text);
  });
});
