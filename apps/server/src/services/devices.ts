// What the list of sessions shows of where each signed in: browser and operating system, read from
// the User-Agent at sign-in by a few patterns (the first that matches wins, so the order matters:
// Edge and Opera also say Chrome, Chrome also says Safari, iOS also says Mac OS X).

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Headless)?(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

const firstMatch = (patterns: readonly [RegExp, string][], userAgent: string) => patterns.find(([p]) => p.test(userAgent))?.[1];

/**
 * "Firefox · Windows", or what of it is known; '' for an unknown or missing User-Agent. Only names
 * from the lists above are stored, never the client's own text.
 */
export function deviceOf(userAgent: string | undefined): string {
  // Past this, a User-Agent is padding: the patterns need not scan a long one.
  const head = (userAgent ?? '').slice(0, 512);
  return [firstMatch(BROWSERS, head), firstMatch(SYSTEMS, head)].filter(Boolean).join(' · ');
}
