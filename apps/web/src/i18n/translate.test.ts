import { describe, expect, it } from 'vitest';
import { translate } from './translate';

describe('translate', () => {
  it('falls back to en-us for a key the locale lacks', () => {
    expect(translate('es-es', {}, 'nav.home')).toBe('Home');
    expect(translate('es-es', { 'nav.home': 'Inicio' }, 'nav.home')).toBe('Inicio');
  });

  it('fills placeholders and picks the plural form', () => {
    expect(translate('en-us', {}, 'file.pages', { count: 1 })).toBe('1 page');
    expect(translate('en-us', {}, 'file.pages', { count: 12 })).toBe('12 pages');
    expect(translate('en-us', {}, 'pages.page', { page: 3 })).toBe('Page 3');
  });
});
