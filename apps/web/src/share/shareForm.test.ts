import { describe, expect, it } from 'vitest';
import {
  addChip,
  canSendEmail,
  ccProblem,
  counterOver,
  finishEditing,
  formatShareDate,
  initialSender,
  isShareEmail,
  removeLastChip,
  startEditing,
  type CcState,
} from './shareForm';

const empty: CcState = { chips: [] };
/** Adds each address in turn, as typed and finished. */
const typedIn = (...addresses: string[]) => addresses.reduce((state, a) => addChip(state, a).state, empty);

describe('the address pattern', () => {
  it('takes letters, digits, dot, underscore and hyphen before @ and one to three dots in the domain', () => {
    for (const ok of ['a.b_c-d9@example.org', 'x@mail.example.co.uk', 'x@a-b_c.d']) expect(isShareEmail(ok), ok).toBe(true);
    for (const bad of ['plain', 'a+b@example.org', 'a@localhost', 'a@b.c.d.e.f', 'a b@example.org', '@example.org', 'a@.org'])
      expect(isShareEmail(bad), bad).toBe(false);
  });
});

describe('recipient chips', () => {
  it('takes a well-formed address and clears the input; blank input takes nothing', () => {
    const { state, taken } = addChip(empty, '  ann@example.org ');
    expect(taken).toBe(true);
    expect(state.chips).toEqual([{ email: 'ann@example.org', editing: false, valid: true }]);
    expect(addChip(state, '   ')).toEqual({ state: { chips: state.chips }, taken: true });
  });

  it('flags a malformed address, which blocks sending and names it', () => {
    const state = typedIn('ann@example.org', 'not-an-address');
    expect(state.chips[1]).toEqual({ email: 'not-an-address', editing: false, valid: false });
    expect(ccProblem(state)).toEqual({ kind: 'invalid', email: 'not-an-address' });
    expect(canSendEmail('me@example.org', state, '')).toBe(false);
  });

  it('refuses a duplicate whatever its case and keeps it typed', () => {
    const { state, taken } = addChip(typedIn('Ann@Example.org'), 'ann@EXAMPLE.org');
    expect(taken).toBe(false);
    expect(state.chips).toHaveLength(1);
    expect(ccProblem(state)).toEqual({ kind: 'duplicate' });
  });

  it('refuses a sixth address and turns the counter red; the next chip taken clears it', () => {
    const five = typedIn('a@x.org', 'b@x.org', 'c@x.org', 'd@x.org', 'e@x.org');
    expect(counterOver(five)).toBe(false);
    const { state, taken } = addChip(five, 'f@x.org');
    expect(taken).toBe(false);
    expect(state.chips).toHaveLength(5);
    expect(ccProblem(state)).toEqual({ kind: 'tooMany' });
    expect(counterOver(state)).toBe(true);
    expect(counterOver(removeLastChip(state))).toBe(false);
  });

  it('backspace in the empty input removes the last chip', () => {
    expect(removeLastChip(typedIn('a@x.org', 'b@x.org')).chips.map((c) => c.email)).toEqual(['a@x.org']);
    expect(removeLastChip(empty).chips).toEqual([]);
  });

  it('an edited chip left blank or made a duplicate goes; made malformed it is flagged; made good it is taken', () => {
    const state = startEditing(typedIn('a@x.org', 'b@x.org'), 1);
    expect(state.chips[1]?.editing).toBe(true);
    expect(finishEditing(state, 1, '  ').chips.map((c) => c.email)).toEqual(['a@x.org']);
    expect(finishEditing(state, 1, 'A@X.org').chips.map((c) => c.email)).toEqual(['a@x.org']);
    expect(finishEditing(state, 1, 'b@@x').chips[1]).toEqual({ email: 'b@@x', editing: false, valid: false });
    expect(finishEditing(typedIn('a@x.org', 'oops'), 1, 'c@x.org').chips[1]).toEqual({ email: 'c@x.org', editing: false, valid: true });
  });
});

describe('sending', () => {
  const one = typedIn('ann@example.org');
  it('needs a valid sender, a recipient, and nothing left typed or being edited', () => {
    expect(canSendEmail('me@example.org', one, '')).toBe(true);
    expect(canSendEmail('', one, '')).toBe(false);
    expect(canSendEmail('me@example', one, '')).toBe(false);
    expect(canSendEmail('me@example.org', empty, '')).toBe(false);
    expect(canSendEmail('me@example.org', one, 'half@')).toBe(false);
    expect(canSendEmail('me@example.org', startEditing(one, 0), '')).toBe(false);
  });

  it("starts with the account's address, unless it is a phone account's placeholder", () => {
    expect(initialSender('me@example.org')).toBe('me@example.org');
    expect(initialSender('15550001111@mobile.example')).toBe('');
    expect(initialSender(undefined)).toBe('');
  });
});

describe('share dates', () => {
  // 5 March 2027, noon local time: day and month tell the orders apart.
  const march5 = new Date(2027, 2, 5, 12).getTime();
  it('are MM/dd/yyyy, yyyy/MM/dd in Japanese and d/M/yyyy in Spanish', () => {
    expect(formatShareDate(march5, 'en-us')).toBe('03/05/2027');
    expect(formatShareDate(march5, 'de-de')).toBe('03/05/2027');
    expect(formatShareDate(march5, 'ja-jp')).toBe('2027/03/05');
    expect(formatShareDate(march5, 'es-es')).toBe('5/3/2027');
  });
});
