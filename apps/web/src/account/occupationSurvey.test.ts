import { describe, expect, it } from 'vitest';
import { SURVEY_REST_MS, surveyAnswer, surveyDue } from './occupationSurvey';

describe('occupation survey', () => {
  const now = 1_800_000_000_000;
  it('is due for an account without a career once a language is picked, 7 days after a close', () => {
    expect(surveyDue('', true, undefined, now)).toBe(true);
    expect(surveyDue(undefined, true, undefined, now)).toBe(false);
    expect(surveyDue('IT', true, undefined, now)).toBe(false);
    expect(surveyDue('', false, undefined, now)).toBe(false);
    expect(surveyDue('', true, now - SURVEY_REST_MS + 1, now)).toBe(false);
    expect(surveyDue('', true, now - SURVEY_REST_MS, now)).toBe(true);
  });

  it('sends a choice, or Other with a non-blank text under 48 characters', () => {
    expect(surveyAnswer(undefined, '')).toBeUndefined();
    expect(surveyAnswer('Legal', 'ignored')).toBe('Legal');
    expect(surveyAnswer('Other', '   ')).toBeUndefined();
    expect(surveyAnswer('Other', ' Beekeeper ')).toBe('Other: Beekeeper');
    expect(surveyAnswer('Other', 'x'.repeat(47))).toBe(`Other: ${'x'.repeat(47)}`);
    expect(surveyAnswer('Other', 'x'.repeat(48))).toBeUndefined();
  });
});
