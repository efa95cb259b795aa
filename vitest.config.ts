import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { englishTextParts } from './apps/web/englishTextParts';

/**
 * The files that run longest start first: the pdf.js corpus passes edit and render (9–11 minutes
 * each on 2 cores), and the browser's walks of every route in every language and under axe (4 and
 * 1.5 minutes). Without durations from an earlier run, as on a clean clone, Vitest starts larger
 * files first, and these are short files: started late, they would run on alone after the rest.
 */
class LongestPassesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const longest = (f: TestSpecification) => /(corpus-(edit|render)|e2e\/(languages|accessibility))\.test\.ts$/.test(f.moduleId);
    const sorted = await super.sort(files);
    return [...sorted.filter(longest), ...sorted.filter((f) => !longest(f))];
  }
}

// Suites are separate projects so scripts/test.sh can run them side by side.
export default defineConfig({
  test: {
    sequence: { sequencer: LongestPassesFirst },
    projects: [
      {
        // Some unit tests start engines (python, MuPDF's WebAssembly): on a loaded machine they take seconds, not milliseconds.
        test: { name: 'unit', include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'], testTimeout: 60_000 },
      },
      // The page's modules import en-us.json in parts (ADR 0544).
      { plugins: [englishTextParts()], test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.ts?(x)'] } },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.test.ts'],
          exclude: ['apps/server/test/corpus*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The corpus tests give every task its own deadline; a whole file's limit (25 min) only guards against a hang, on a loaded machine too.
        test: { name: 'corpus', include: ['apps/server/test/corpus*.test.ts'], testTimeout: 1_500_000, hookTimeout: 60_000 },
      },
      {
        // scripts/test.sh runs these after the other suites, two files at a time: side by side with the
        // corpus passes, Chromium and the corpus engines starve each other on 2 cores (the edit and render
        // passes overran their guards). A page on a loaded machine can take seconds to settle: expect.poll
        // waits up to 20 s, not 1 s.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          expect: { poll: { timeout: 20_000, interval: 100 } },
        },
      },
    ],
  },
});
