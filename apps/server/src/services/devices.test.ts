import { describe, expect, it } from 'vitest';
import { deviceOf } from './devices.js';

describe('deviceOf', () => {
  it('names the browser and the system of common User-Agents', () => {
    const cases: [string, string][] = [
      // Headless Chromium, as the end-to-end tests run it.
      ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome · Linux'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox · Windows'],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge · Windows',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
        'Safari · macOS',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        'Safari · iOS',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        'Chrome · Android',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
        'Opera · Linux',
      ],
      [
        'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome · ChromeOS',
      ],
    ];
    for (const [userAgent, device] of cases) expect(deviceOf(userAgent)).toBe(device);
  });

  it('says what it knows, and nothing for a script or no User-Agent', () => {
    expect(deviceOf('curl/8.5.0')).toBe('');
    expect(deviceOf(undefined)).toBe('');
    expect(deviceOf('SomeBot (Linux)')).toBe('Linux');
  });

  it('reads only the start of a padded User-Agent', () => {
    expect(deviceOf(`${'x'.repeat(100_000)} Firefox/1 Windows`)).toBe('');
  });
});
