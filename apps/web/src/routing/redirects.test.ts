import { describe, expect, it } from 'vitest';
import { resolveRedirect } from './redirects';

describe('resolveRedirect', () => {
  it('sends legacy v2 tool paths to /app, keeping language and query', () => {
    expect(resolveRedirect('/v2/merge-pdf', '')).toBe('/app/merge-pdf');
    expect(resolveRedirect('/v2/merge-pdf-new', '?a=1&b=2')).toBe('/app/merge-pdf?a=1&b=2');
    expect(resolveRedirect('/de/v2/rotate-pdf', '?x=y')).toBe('/de/app/rotate-pdf?x=y');
    expect(resolveRedirect('/jp/v2/split-pdf-new/', '')).toBe('/jp/app/split-pdf');
  });

  it('sends popular-tools to home', () => {
    expect(resolveRedirect('/v2/popular-tools', '?q=1')).toBe('/');
    expect(resolveRedirect('/fr/v2/popular-tools', '')).toBe('/fr');
    expect(resolveRedirect('/something/v2/popular-tools/more', '')).toBe('/');
  });

  it('sends anything else to home', () => {
    expect(resolveRedirect('/nope', '?a=1')).toBe('/');
    expect(resolveRedirect('/de/nope/deeper', '')).toBe('/de');
    expect(resolveRedirect('/v2/a/b', '')).toBe('/');
    expect(resolveRedirect('/constructor', '')).toBe('/');
  });
});
