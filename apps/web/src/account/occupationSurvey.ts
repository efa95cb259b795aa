// When the occupation survey asks: a signed-in account without a career, in a browser whose visitor
// has picked a language, unless the survey was closed here in the last 7 days.
import { OCCUPATION_TEXT_MAX, type Occupation, careerOf } from '@quire/contracts';

const CLOSED_KEY = 'quire.surveyClosedAt';
/** A closed survey asks again after this long. */
export const SURVEY_REST_MS = 7 * 24 * 3600_000;
/** How long after the sign-in (or the page's load, signed in) the survey appears. */
export const SURVEY_DELAY_MS = 1000;
/** A second submit within this time of the first is the same answer. */
export const SUBMIT_DEBOUNCE_MS = 500;

/** Whether the survey is due: `closedAt` is when it was last closed here (ms), if ever. */
export function surveyDue(career: string | undefined, languageChosen: boolean, closedAt: number | undefined, now: number): boolean {
  if (career === undefined || career !== '' || !languageChosen) return false;
  return closedAt === undefined || now - closedAt >= SURVEY_REST_MS;
}

export function surveyClosedAt(): number | undefined {
  try {
    const kept = Number(localStorage.getItem(CLOSED_KEY));
    return kept > 0 ? kept : undefined;
  } catch {
    return undefined;
  }
}

export function rememberSurveyClosed(at: number): void {
  try {
    localStorage.setItem(CLOSED_KEY, String(at));
  } catch {
    // No storage: the survey asks again at the next page load.
  }
}

/** What the form holds: the occupation the answer sends, or why it may not be sent yet. */
export function surveyAnswer(choice: Occupation | undefined, otherText: string): string | undefined {
  if (!choice) return undefined;
  if (choice !== 'Other') return choice;
  // At the limit the text may have been cut by the field's own maximum: it is not sent.
  if (otherText.trim() === '' || otherText.length >= OCCUPATION_TEXT_MAX) return undefined;
  return careerOf(choice, otherText);
}
