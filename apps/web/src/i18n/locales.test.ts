import { describe, expect, it } from 'vitest';
import { splitLocalePrefix, switchLocalePath, withLocalePrefix } from './locales';

describe('locale prefix', () => {
  it('splits a known prefix off the path', () => {
    expect(splitLocalePrefix('/de/app/merge-pdf')).toEqual({ prefix: 'de', rest: '/app/merge-pdf' });
    expect(splitLocalePrefix('/jp')).toEqual({ prefix: 'jp', rest: '/' });
    expect(splitLocalePrefix('/fr/')).toEqual({ prefix: 'fr', rest: '/' });
  });

  it('leaves English and unknown first segments alone', () => {
    expect(splitLocalePrefix('/app/home')).toEqual({ prefix: '', rest: '/app/home' });
    expect(splitLocalePrefix('/')).toEqual({ prefix: '', rest: '/' });
    expect(splitLocalePrefix('/xx/app/home')).toEqual({ prefix: '', rest: '/xx/app/home' });
    expect(splitLocalePrefix('/it/app/home')).toEqual({ prefix: 'it', rest: '/app/home' });
    expect(splitLocalePrefix('/tw')).toEqual({ prefix: 'tw', rest: '/' });
    expect(splitLocalePrefix('/dev/app')).toEqual({ prefix: '', rest: '/dev/app' });
    expect(splitLocalePrefix('/constructor/x')).toEqual({ prefix: '', rest: '/constructor/x' });
  });

  it('adds the prefix of the current language to links', () => {
    expect(withLocalePrefix('', '/app/home')).toBe('/app/home');
    expect(withLocalePrefix('es', '/app/home')).toBe('/es/app/home');
    expect(withLocalePrefix('es', '/')).toBe('/es');
  });

  it('switches language keeping the page', () => {
    expect(switchLocalePath('/de/app/rotate-pdf', 'pt')).toBe('/pt/app/rotate-pdf');
    expect(switchLocalePath('/de/app/rotate-pdf', '')).toBe('/app/rotate-pdf');
    expect(switchLocalePath('/', 'fr')).toBe('/fr');
    expect(switchLocalePath('/jp', '')).toBe('/');
  });
});
