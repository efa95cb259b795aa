// The banner list's ids and what an operator's link may be, without zod: the page's shell imports them (ADR 0542).

/** The banner list the page asks for: this product id and key (others have no banners). */
export const BANNER_PID = 4512;
export const BANNER_KEY = 'HiPDFTopMessageBar';

/**
 * A path of this site: one leading slash, printable ASCII without blanks or backslashes (browsers
 * read `//host`, `/\host` and a tab-split `/	/host` as another site).
 */
export const SAME_ORIGIN_PATH = /^\/(?![/\\])[!-[\]-~]*$/;
/** An http(s) address with no blank, control character or backslash a browser would drop or turn into a slash. */
const WEB_ADDRESS = /^https?:\/\/[^\s\p{Cc}\\]+$/iu;

/** Whether an operator's link (a banner's, a message's, the activity's) is a page of the site or a web address, and nothing a browser reads otherwise. */
export const isSiteLink = (link: string) => SAME_ORIGIN_PATH.test(link) || WEB_ADDRESS.test(link);
