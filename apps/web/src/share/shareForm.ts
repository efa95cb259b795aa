// The share dialog's rules with no React in them: the recipients' chips (added, edited, removed),
// what the form may send, the sender it starts with, and how a share's date is written.
import { MAX_SHARE_RECIPIENTS, SHARE_EMAIL_PATTERN } from '@quire/contracts';
import type { Locale } from '../i18n/locales';

/** A recipient: its address, whether it is being edited in place, and whether the address is well formed. */
export interface CcChip {
  email: string;
  editing: boolean;
  valid: boolean;
}

/** Why an address was not taken, or what is wrong with one taken. */
export type CcProblem = { kind: 'tooMany' } | { kind: 'duplicate' } | { kind: 'invalid'; email: string };

export interface CcState {
  chips: CcChip[];
  /** The refusal of the last address typed (shown until the input changes). */
  problem?: CcProblem;
}

/** Keys that finish an address in the recipients' input. */
export const CHIP_KEYS: readonly string[] = ['Enter', ' ', ';'];

/**
 * Accounts made from a phone number carry a placeholder address with this marker: the dialog does
 * not offer it as the sender, and the user types their own.
 */
export const MOBILE_EMAIL_MARKER = '@mobile.';

export const isShareEmail = (address: string): boolean => SHARE_EMAIL_PATTERN.test(address);

/** The sender the dialog starts with: the account's address, unless it is a phone account's placeholder. */
export const initialSender = (accountEmail: string | undefined): string =>
  accountEmail && !accountEmail.includes(MOBILE_EMAIL_MARKER) ? accountEmail : '';

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Takes what was typed as a new chip (Enter, space, semicolon or leaving the input): a malformed
 * address becomes a chip flagged invalid; a duplicate or a sixth is refused and stays typed.
 * Answers the new state and whether the input is to be cleared.
 */
export function addChip(state: CcState, typed: string): { state: CcState; taken: boolean } {
  const email = typed.trim();
  if (email === '') return { state: { chips: state.chips }, taken: true };
  if (state.chips.length >= MAX_SHARE_RECIPIENTS) return { state: { chips: state.chips, problem: { kind: 'tooMany' } }, taken: false };
  if (state.chips.some((c) => sameAddress(c.email, email)))
    return { state: { chips: state.chips, problem: { kind: 'duplicate' } }, taken: false };
  return { state: { chips: [...state.chips, { email, editing: false, valid: isShareEmail(email) }] }, taken: true };
}

/** Backspace in the empty input takes the last chip away. */
export const removeLastChip = (state: CcState): CcState => ({ chips: state.chips.slice(0, -1) });

export const removeChip = (state: CcState, index: number): CcState => ({ chips: state.chips.filter((_, i) => i !== index) });

export const startEditing = (state: CcState, index: number): CcState => ({
  chips: state.chips.map((c, i) => (i === index ? { ...c, editing: true } : c)),
});

/**
 * An edited chip left: blank or a duplicate of another, it goes; otherwise it keeps the new address,
 * flagged invalid if malformed.
 */
export function finishEditing(state: CcState, index: number, edited: string): CcState {
  const email = edited.trim();
  const others = state.chips.filter((_, i) => i !== index);
  if (email === '' || others.some((c) => sameAddress(c.email, email))) return { chips: others };
  return { chips: state.chips.map((c, i) => (i === index ? { email, editing: false, valid: isShareEmail(email) } : c)) };
}

/** What the recipients' field says: the last refusal, else the first malformed chip. */
export function ccProblem(state: CcState): CcProblem | undefined {
  if (state.problem) return state.problem;
  const invalid = state.chips.find((c) => !c.valid && !c.editing);
  return invalid && { kind: 'invalid', email: invalid.email };
}

/** The counter "n/5" turns red once an address past the fifth was refused. */
export const counterOver = (state: CcState): boolean => state.problem?.kind === 'tooMany';

/** Send waits for a valid sender and at least one recipient, and for every address to be settled and well formed. */
export function canSendEmail(sender: string, state: CcState, typed: string): boolean {
  return (
    isShareEmail(sender.trim()) &&
    state.chips.length > 0 &&
    typed.trim() === '' &&
    ccProblem(state) === undefined &&
    state.chips.every((c) => !c.editing)
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A share's date as the product writes it: MM/dd/yyyy; yyyy/MM/dd in Japanese; d/M/yyyy in Spanish. */
export function formatShareDate(epochMs: number, locale: Locale): string {
  const date = new Date(epochMs);
  const [y, m, d] = [date.getFullYear(), date.getMonth() + 1, date.getDate()];
  if (locale === 'ja-jp') return `${y}/${pad(m)}/${pad(d)}`;
  if (locale === 'es-es') return `${d}/${m}/${y}`;
  return `${pad(m)}/${pad(d)}/${y}`;
}
