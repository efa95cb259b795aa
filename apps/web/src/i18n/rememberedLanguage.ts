// The language a visitor picked is remembered in this browser: an address without a language
// prefix (a bookmark, a typed address) then opens in it. Only a pick counts, not a link followed.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type LangPrefix, langPrefixes, splitLocalePrefix, withLocalePrefix } from './locales';

const STORAGE_KEY = 'quire.language';
/** English has no prefix; stored under its own name so that "English" is a choice too. */
const ENGLISH = 'en';

export function rememberLanguage(prefix: LangPrefix): void {
  try {
    localStorage.setItem(STORAGE_KEY, prefix || ENGLISH);
  } catch {
    // Storage refused (private mode): the pick holds for this visit's links only.
  }
}

function rememberedLanguage(): LangPrefix | undefined {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === ENGLISH) return '';
    return langPrefixes.find((p) => p !== '' && p === stored);
  } catch {
    return undefined;
  }
}

/** Whether this browser's visitor has picked a language (the occupation survey waits for one). */
export const languageChosen = (): boolean => rememberedLanguage() !== undefined;

/** Where the page should be for the remembered language, or undefined to stay. */
export function rememberedLocation(pathname: string, remembered: LangPrefix | undefined): string | undefined {
  const { prefix, rest } = splitLocalePrefix(pathname);
  if (prefix !== '' || !remembered) return undefined;
  return withLocalePrefix(remembered, rest);
}

/** At the first page of a visit: an unprefixed address moves to the remembered language's. */
export function useRememberedLanguage(): void {
  const location = useLocation();
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at the visit's first page; later links carry their prefix
  useEffect(() => {
    const target = rememberedLocation(location.pathname, rememberedLanguage());
    if (target) void navigate(target + location.search + location.hash, { replace: true });
  }, []);
}
