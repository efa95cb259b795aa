import { describe, expect, it } from 'vitest';
import { rememberedLocation } from './rememberedLanguage';

describe('rememberedLocation', () => {
  it('moves an unprefixed address to the remembered language, and leaves the rest', () => {
    expect(rememberedLocation('/', 'de')).toBe('/de');
    expect(rememberedLocation('/app/home', 'jp')).toBe('/jp/app/home');
    expect(rememberedLocation('/fr/app/home', 'de')).toBeUndefined();
    expect(rememberedLocation('/app/home', '')).toBeUndefined();
    expect(rememberedLocation('/app/home', undefined)).toBeUndefined();
  });
});
