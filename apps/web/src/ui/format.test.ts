import { describe, expect, it } from 'vitest';
import { formatBytes, formatGb } from './format';

describe('formatBytes', () => {
  it('picks the largest unit below 1024', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
  });

  it('never shows a size over a limit as the limit: 20 MB and a byte more reads over 20 MB', () => {
    const MB = 1024 * 1024;
    expect(formatBytes(20 * MB + 1)).toBe('20.1 MB');
    expect(formatBytes(20.4 * MB)).toBe('20.4 MB');
    expect(formatBytes(20.45 * MB)).toBe('20.5 MB');
    expect(formatBytes(20 * MB - 1)).toBe('20.0 MB');
    expect(formatBytes(100 * MB + 1)).toBe('101 MB');
    expect(formatBytes(100 * MB)).toBe('100 MB');
  });

  it('writes French octets with a decimal comma, and German numbers with theirs', () => {
    expect(formatBytes(1536, 'fr-fr')).toBe('1,5 Ko');
    expect(formatBytes(20 * 1024 * 1024, 'fr-fr')).toBe('20 Mo');
    expect(formatBytes(512, 'fr-fr')).toBe('512 o');
    expect(formatBytes(3 * 1024 ** 3, 'fr-fr')).toBe('3,0 Go');
    expect(formatBytes(1536, 'de-de')).toBe('1,5 KB');
  });
});

describe('formatGb', () => {
  it('writes a capacity in GB, French in Go', () => {
    expect(formatGb(10 * 1024 ** 3)).toBe('10 GB');
    expect(formatGb(2.345 * 1024 ** 3)).toBe('2.35 GB');
    expect(formatGb(0.0001 * 1024 ** 3)).toBe('105 KB');
    expect(formatGb(0.5 * 1024 ** 3, 'fr-fr')).toBe('0,5 Go');
    expect(formatGb(1024, 'fr-fr')).toBe('1,0 Ko');
  });
});
