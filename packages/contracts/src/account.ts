// Request and response shapes of the account service under /api/account/v1/.
import { z } from 'zod';
import { inviteCode } from './activity.js';
import { ACCOUNT_PASSWORD_MAX, ACCOUNT_PASSWORD_MIN, accountPasswordMessage, EMAIL_PATTERN, plans } from './accountRules.js';
import { linkLanguages } from './languages.js';
import { SAME_ORIGIN_PATH } from './siteLinks.js';

export const plan = z.enum(plans);

/** Longest address SMTP carries (RFC 5321's path limit less the angle brackets). */
const MAX_EMAIL_LENGTH = 254;

/** Addresses are compared as typed, less surrounding blanks and case. */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH)
  .superRefine((v, c) => {
    if (!EMAIL_PATTERN.test(v)) c.addIssue({ code: 'custom', message: `${v} is not a valid email address` });
  });

/** A new password; one being checked is only bounded, so a rule changed later locks nobody out. */
export const newPassword = z.string().min(ACCOUNT_PASSWORD_MIN, accountPasswordMessage).max(ACCOUNT_PASSWORD_MAX, accountPasswordMessage);
const givenPassword = z.string().min(1).max(ACCOUNT_PASSWORD_MAX);
const name = z.string().trim().max(64);

const lang = z.enum(linkLanguages).optional().describe("The page's language prefix, for the links in mail (none: English)");

export const registerRequest = z.object({
  email,
  password: newPassword,
  first_name: name.optional(),
  last_name: name.optional(),
  lang,
  invite: inviteCode.optional(),
});
export const loginRequest = z.object({ email, password: givenPassword, lang });
export const emailRequest = z.object({ email, lang });
/** The single-use token a mailed link carries. */
export const linkTokenRequest = z.object({ token: z.string().min(1).max(128) });
export const resetPasswordRequest = linkTokenRequest.extend({ password: newPassword });
export const changePasswordRequest = z.object({ password: givenPassword, new_password: newPassword });
export const changeEmailRequest = z.object({ password: givenPassword, email, lang });
export const deleteAccountRequest = z.object({ password: givenPassword });
/** A session link's token handed to the page in its address (`?token=`): it signs the browser in once. */
export const sessionTokenRequest = z.object({ token: z.string().min(1).max(128) });
/** POST /api/account/v1/session-link: a token for a product link's `?token=`, single use and short-lived. */
export const sessionLinkAnswer = z.object({ token: z.string(), expires_in_s: z.number().int() });

export const userInfo = z.object({
  user_id: z.string(),
  ws_id: z.string().describe('The account id'),
  ws_token: z.string().describe('The session token: also accepted as Authorization: Bearer'),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.string(),
  pay: z.boolean().describe('Paid plan (have_permission)'),
  have_permission: z.boolean(),
  ai: z.boolean().describe('AI plan'),
  career: z.string(),
  userType: z.enum(['free', 'pro', 'AI purchase', 'AI and pro']),
  isVip: z.boolean(),
  isAiUser: z.boolean(),
  operator: z.boolean().describe('May use the operator calls (/api/account/v1/admin/…)'),
});
export type UserInfo = z.infer<typeof userInfo>;
export const signedIn = userInfo.extend({ token: z.string() });
export type SignedIn = z.infer<typeof signedIn>;
export const mailSent = z.object({ email: z.string().describe('Where the mail went (when the account service sends mail)') });

export const ssoStartQuery = z.object({
  return: z.string().max(2048).regex(SAME_ORIGIN_PATH, 'The return address must be a path of this site.').optional(),
  /** The code of the invite link the browser came with: a new account made by this sign-in is the inviter's friend. */
  invite: z.string().max(64).optional(),
});
/** What the sign-in dialog offers besides a password: the single sign-on provider's name, if one is configured. */
export const signInOptions = z.object({ sso: z.object({ name: z.string() }).nullable() });
/** How many API keys one account may hold at once: enough for every script of a person, few enough to review. */
export const MAX_API_KEYS = 20;
const apiKeyName = z.string().trim().min(1, 'Give the key a name.').max(64, 'The name must contain at most 64 characters.');
export const createApiKeyRequest = z.object({ name: apiKeyName });
export const revokeApiKeyRequest = z.object({ key_id: z.string().min(1).max(64) });
export const apiKeyEntry = z.object({
  key_id: z.string(),
  name: z.string(),
  hint: z.string().describe('The first characters of the key, to tell keys apart'),
  created_at: z.number().int().describe('Epoch milliseconds'),
  last_used_at: z.number().int().nullable().describe('Epoch milliseconds, to the minute; null if never used'),
});
export type ApiKeyEntry = z.infer<typeof apiKeyEntry>;
export const apiKeyList = z.array(apiKeyEntry);
export const apiKeyCreated = apiKeyEntry.extend({
  key: z.string().describe('The key itself (send it as Authorization: Bearer): shown this once, only its hash is kept'),
});
export type ApiKeyCreated = z.infer<typeof apiKeyCreated>;
export const revokeSessionRequest = z.object({ session_id: z.string().min(1).max(64) });
export const sessionEntry = z.object({
  session_id: z.string().describe('What names the session to end it (not its token)'),
  device: z.string().describe("Browser and operating system at sign-in, as 'Firefox · Windows'; '' if unknown"),
  created_at: z.number().int().describe('Epoch milliseconds: the sign-in'),
  last_used_at: z.number().int().describe('Epoch milliseconds, to the minute'),
  current: z.boolean().describe('The session of this call'),
});
export type SessionEntry = z.infer<typeof sessionEntry>;
export const sessionList = z.array(sessionEntry);
/** The operator's list of accounts: a search in the addresses, a page of them. */
export const ADMIN_PAGE_SIZE = 20;
export const adminUsersQuery = z.object({
  q: z.string().trim().toLowerCase().max(320).default('').describe('Part of the address'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export const adminUser = z.object({
  user_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  plan,
  operator: z.boolean(),
  verified: z.boolean(),
  created_at: z.number().describe('Epoch milliseconds'),
  last_active_at: z.number().describe('Last sign-in, refresh or task held now (epoch milliseconds); 0: never'),
  files: z.number().int().describe('Files held now'),
  tasks: z.number().int().describe('Tasks held now'),
  bytes: z.number().int().describe('Bytes stored now: files and task outputs'),
  cloud_files: z.number().int().describe('Files in the document cloud'),
  cloud_bytes: z.number().int().describe('Bytes the document cloud holds'),
});
export type AdminUser = z.infer<typeof adminUser>;
export const adminUsersPage = z.object({
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  users: z.array(adminUser),
});
export type AdminUsersPage = z.infer<typeof adminUsersPage>;
export const adminPlanRequest = z.object({ user_id: z.string().min(1).max(64), plan });
