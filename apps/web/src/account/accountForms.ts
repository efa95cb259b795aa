// What the account forms check before asking the server, and what they read from a mailed link.
import { ACCOUNT_PASSWORD_MAX, ACCOUNT_PASSWORD_MIN, EMAIL_PATTERN, type Plan, type UserInfo } from '@quire/contracts';
import type { MessageKey } from '../i18n/translate';

export type FieldProblem = 'required' | 'invalid' | 'length';

/** What is wrong with an address as typed (blanks around it are ignored, as the server does). */
export function emailProblem(value: string): FieldProblem | undefined {
  const address = value.trim();
  if (!address) return 'required';
  return EMAIL_PATTERN.test(address) ? undefined : 'invalid';
}

/** What is wrong with a password being chosen; `forSignIn` only asks for one, as rules may change. */
export function passwordProblem(value: string, forSignIn = false): FieldProblem | undefined {
  if (!value) return 'required';
  if (forSignIn) return value.length > ACCOUNT_PASSWORD_MAX ? 'length' : undefined;
  return value.length < ACCOUNT_PASSWORD_MIN || value.length > ACCOUNT_PASSWORD_MAX ? 'length' : undefined;
}

/** The token of a mailed link, from its fragment (`#token=…`), which never reaches a server. */
export function linkToken(hash: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') || undefined;
}

/** The letter the avatar shows: the first of the name, else of the address. */
export function initialOf(user: Pick<UserInfo, 'first_name' | 'email'>): string {
  return (user.first_name.trim() || user.email.trim()).charAt(0).toUpperCase() || '?';
}

/** The name to show: first and last name, else the address. */
export function displayName(user: Pick<UserInfo, 'first_name' | 'last_name' | 'email'>): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.email;
}

type PlanLabel = 'premium' | 'ai' | 'free';

/** The labels the personal centre shows: Premium, then AI Upgraded, each the user has; else Free. */
export function planLabels(user: Pick<UserInfo, 'isVip' | 'isAiUser'>): PlanLabel[] {
  const labels: PlanLabel[] = [];
  if (user.isVip) labels.push('premium');
  if (user.isAiUser) labels.push('ai');
  return labels.length > 0 ? labels : ['free'];
}

/** The name of each plan, as the operator's page offers them. */
export const PLAN_NAMES: Record<Plan, MessageKey> = {
  free: 'account.planFree',
  premium: 'account.planPremium',
  ai: 'account.planAi',
  premium_ai: 'admin.planPremiumAi',
};
