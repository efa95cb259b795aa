import { describe, expect, it } from 'vitest';
import { displayName, emailProblem, initialOf, linkToken, passwordProblem, planLabels } from './accountForms';

describe('account form checks', () => {
  it('takes the addresses the server takes', () => {
    expect(emailProblem('')).toBe('required');
    expect(emailProblem('   ')).toBe('required');
    expect(emailProblem('ann@example')).toBe('invalid');
    expect(emailProblem('ann example@x.org')).toBe('invalid');
    expect(emailProblem(' Ann.Lee@mail.example.org ')).toBeUndefined();
  });

  it('asks 8 to 128 characters of a new password, any of one being checked', () => {
    expect(passwordProblem('')).toBe('required');
    expect(passwordProblem('1234567')).toBe('length');
    expect(passwordProblem('12345678')).toBeUndefined();
    expect(passwordProblem('x'.repeat(129))).toBe('length');
    expect(passwordProblem('123', true)).toBeUndefined();
    expect(passwordProblem('', true)).toBe('required');
  });

  it("reads a mailed link's token from the fragment only", () => {
    expect(linkToken('#token=abc-_123')).toBe('abc-_123');
    expect(linkToken('token=abc')).toBe('abc');
    expect(linkToken('#other=1')).toBeUndefined();
    expect(linkToken('')).toBeUndefined();
  });
});

describe('how an account is shown', () => {
  const user = { first_name: '', last_name: '', email: 'ann@example.org' };

  it('shows the name when there is one, else the address', () => {
    expect(initialOf(user)).toBe('A');
    expect(displayName(user)).toBe('ann@example.org');
    expect(initialOf({ ...user, first_name: 'émile' })).toBe('É');
    expect(displayName({ ...user, first_name: 'Émile', last_name: 'Zola' })).toBe('Émile Zola');
  });

  it('names Premium first, then the AI plan, both for an account with both', () => {
    expect(planLabels({ isVip: true, isAiUser: true })).toEqual(['premium', 'ai']);
    expect(planLabels({ isVip: true, isAiUser: false })).toEqual(['premium']);
    expect(planLabels({ isVip: false, isAiUser: true })).toEqual(['ai']);
    expect(planLabels({ isVip: false, isAiUser: false })).toEqual(['free']);
  });
});
