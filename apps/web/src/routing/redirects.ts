// Legacy and catch-all redirects, as a pure function of the location.
import { splitLocalePrefix, withLocalePrefix } from '../i18n/locales';

/**
 * Where an unmatched location goes: "[/{lang}]/v2/{tool}[-new]" to "[/{lang}]/app/{tool}" with the
 * same query string; "/v2/popular-tools" and anything else to the home page (in the same language).
 * The marketing slugs are pages of their own (landing pages), not redirects.
 */
export function resolveRedirect(pathname: string, search: string): string {
  const { prefix, rest } = splitLocalePrefix(pathname);
  const home = withLocalePrefix(prefix, '/');
  if (pathname.includes('/v2/popular-tools')) return home;
  const legacy = /^\/v2\/([^/]+?)(?:-new)?\/?$/.exec(rest);
  if (legacy) return withLocalePrefix(prefix, `/app/${legacy[1]}`) + search;
  return home;
}
