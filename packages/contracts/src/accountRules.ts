// The account's plans and the sign-in's constants, without zod: the page's shell imports them (ADR 0542).

/**
 * What an account pays for: the limits of each plan hang on it. `premium_ai` is both paid plans at
 * once (the product's "AI and pro" user).
 */
export const plans = ['free', 'premium', 'ai', 'premium_ai'] as const;
export type Plan = (typeof plans)[number];
/**
 * The product's address pattern: letters, digits, dot, underscore and hyphen before the at-sign;
 * a domain of segments of letters, digits, underscore and hyphen joined by one to three dots.
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9._-]+@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){1,3}$/;
export const ACCOUNT_PASSWORD_MIN = 8;
/** Bounds the work of hashing one sign-in attempt. */
export const ACCOUNT_PASSWORD_MAX = 128;
export const accountPasswordMessage = `The password must contain between ${ACCOUNT_PASSWORD_MIN} and ${ACCOUNT_PASSWORD_MAX} characters.`;

/** The page a single sign-on in a popup window comes back to; it tells the page that opened it. */
export const SSO_CALLBACK_PAGE = '/app/login-callback.html';
/** The query parameter that brings a failed single sign-on's code back to the return path. */
export const SSO_ERROR_PARAM = 'sso_error';
/** The same-origin channel the callback page posts `loginSuccessed` (or `loginFailed` with a code) on. */
export const SSO_CHANNEL = 'quire-sign-in';
