// Calls to the account service under /api/account/v1/. The session rides in its http-only cookie,
// so the page never holds the token.
import type {
  apiKeyCreated,
  apiKeyList,
  adminUsersPage,
  selfCheckResult,
  mailSent,
  sessionList,
  signedIn,
  signInOptions,
  userInfo,
  ApiKeyCreated,
  ApiKeyEntry,
  AdminUsersPage,
  Plan,
  SelfCheckId,
  SelfCheckResult,
  SessionEntry,
  SignedIn,
  UserInfo,
  bannerList,
  bannerResource,
  BannerResource,
} from '@quire/contracts';
import { splitLocalePrefix } from '../i18n/locales';
import { apiUrl, getJson, postJson, readEnvelope, send, type Answer } from './client';

const ACCOUNT_BASE = '/api/account/v1/';

/** Where the account service sent its mail. */
interface MailedTo {
  email: string;
}

/** The page's language prefix, sent with calls that mail a link so that the link opens in it. */
const lang = () => splitLocalePrefix(window.location.pathname).prefix || undefined;

export const fetchMe = (): Promise<UserInfo> => getJson<Answer<typeof userInfo>>(`${ACCOUNT_BASE}me`);

/** What the sign-in dialog offers besides a password: the single sign-on provider's name, or null. */
export const fetchSignInOptions = () => getJson<Answer<typeof signInOptions>>(`${ACCOUNT_BASE}sign-in-options`);

/** The address that starts a single sign-on, coming back to `returnPath` (a path of this site). */
/** The single sign-on's start: back to `returnPath`; with the invite code the browser keeps, if any. */
export const ssoStartUrl = (returnPath: string, invite?: string) =>
  `${ACCOUNT_BASE}oidc/start?${new URLSearchParams({ return: returnPath, ...(invite && { invite }) })}`;

/** Signs this browser in with a session link's token handed to the page (`?token=`): a new session cookie. */
export const adoptSession = (token: string): Promise<UserInfo> => postJson<Answer<typeof userInfo>>(`${ACCOUNT_BASE}session`, { token });

/** The user info read afresh (a plan changed since), the session extended to its full lifetime. */
export const refreshAccount = (): Promise<UserInfo> => getJson<Answer<typeof userInfo>>(apiUrl('account/refresh'));

export const signIn = (email: string, password: string): Promise<SignedIn> =>
  postJson<Answer<typeof signedIn>>(`${ACCOUNT_BASE}login`, { email, password, lang: lang() });

/** `invite`: the code of the invite link this browser came by, if any. */
export const register = (email: string, password: string, invite?: string): Promise<MailedTo> =>
  postJson<Answer<typeof mailSent>>(`${ACCOUNT_BASE}register`, { email, password, lang: lang(), invite });

export const forgotPassword = (email: string): Promise<MailedTo> =>
  postJson<Answer<typeof mailSent>>(`${ACCOUNT_BASE}forgot-password`, { email, lang: lang() });

export const resetPassword = (token: string, password: string): Promise<null> =>
  postJson<null>(`${ACCOUNT_BASE}reset-password`, { token, password });

/** Confirms the address; a browser signed in to no account is signed in to this one. */
export const verifyEmail = (token: string): Promise<MailedTo> =>
  postJson<Answer<typeof mailSent>>(`${ACCOUNT_BASE}verify-email`, { token });

/** A new confirmation link, for the page of one that expired. */
export const resendConfirmation = (email: string): Promise<MailedTo> =>
  postJson<Answer<typeof mailSent>>(`${ACCOUNT_BASE}resend-confirmation`, { email, lang: lang() });

export const confirmEmail = (token: string): Promise<MailedTo> =>
  postJson<Answer<typeof mailSent>>(`${ACCOUNT_BASE}confirm-email`, { token });

export const changePassword = (password: string, newPassword: string): Promise<SignedIn> =>
  postJson<Answer<typeof signedIn>>(`${ACCOUNT_BASE}change-password`, { password, new_password: newPassword });

export const changeEmail = (password: string, email: string): Promise<MailedTo> =>
  postJson<Answer<typeof mailSent>>(`${ACCOUNT_BASE}change-email`, { password, email, lang: lang() });

export const deleteAccount = (password: string): Promise<null> => postJson<null>(`${ACCOUNT_BASE}delete`, { password });

export const listApiKeys = (): Promise<ApiKeyEntry[]> => getJson<Answer<typeof apiKeyList>>(`${ACCOUNT_BASE}api-keys`);

/** A new key: its answer is the only time the key itself is seen. */
export const createApiKey = (name: string): Promise<ApiKeyCreated> =>
  postJson<Answer<typeof apiKeyCreated>>(`${ACCOUNT_BASE}api-keys`, { name });

export const revokeApiKey = (keyId: string): Promise<null> => postJson<null>(`${ACCOUNT_BASE}api-keys/revoke`, { key_id: keyId });

export const listSessions = (): Promise<SessionEntry[]> => getJson<Answer<typeof sessionList>>(`${ACCOUNT_BASE}sessions`);

export const revokeSession = (sessionId: string): Promise<null> =>
  postJson<null>(`${ACCOUNT_BASE}sessions/revoke`, { session_id: sessionId });

export const revokeOtherSessions = (): Promise<null> => postJson<null>(`${ACCOUNT_BASE}sessions/revoke-others`, {});

/** The operator's list: a page of the accounts whose address contains `search`. */
export const fetchAccounts = (search: string, page: number): Promise<AdminUsersPage> =>
  getJson<Answer<typeof adminUsersPage>>(`${ACCOUNT_BASE}admin/users?${new URLSearchParams({ q: search, page: String(page) })}`);

export const changeAccountPlan = (userId: string, plan: Plan): Promise<null> =>
  postJson<null>(`${ACCOUNT_BASE}admin/plan`, { user_id: userId, plan });

export const fetchBanners = async (): Promise<BannerResource[]> =>
  (await getJson<Answer<typeof bannerList>>(`${ACCOUNT_BASE}admin/banners`)).banners;

export const publishBanner = (banner: Omit<BannerResource, 'resource_id'>): Promise<BannerResource> =>
  postJson<Answer<typeof bannerResource>>(`${ACCOUNT_BASE}admin/banners`, banner);

export async function withdrawBanner(resourceId: string): Promise<void> {
  await readEnvelope<null>(
    await send(`${ACCOUNT_BASE}admin/banners?${new URLSearchParams({ resource_id: resourceId })}`, { method: 'DELETE' }),
  );
}

export const runSelfCheck = (check: SelfCheckId): Promise<SelfCheckResult> =>
  postJson<Answer<typeof selfCheckResult>>(`${ACCOUNT_BASE}admin/self-check`, { check });

/** Ends the session; its answer does not matter: a session that already ended is as good. */
export async function signOut(): Promise<void> {
  await send(`${ACCOUNT_BASE}logout`, { method: 'POST' }).catch(() => undefined);
}
