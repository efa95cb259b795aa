import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// A relative import: the config runs in Node, which cannot load the contracts package's TypeScript by its name.
import { pickMarketingTexts } from '../../packages/contracts/src/marketingPages';

/**
 * dist/seo/<locale>.json: the texts of the marketing pages in each language, taken from the app's
 * own locale files, which the server writes into those pages' HTML (ADR 0502).
 */
function marketingTexts(): Plugin {
  const localesDir = path.join(import.meta.dirname, 'src/i18n/locales');
  return {
    name: 'quire-marketing-texts',
    apply: 'build',
    generateBundle() {
      for (const file of fs.readdirSync(localesDir).filter((f) => f.endsWith('.json'))) {
        const texts = JSON.parse(fs.readFileSync(path.join(localesDir, file), 'utf8')) as Record<string, string>;
        this.emitFile({ type: 'asset', fileName: `seo/${file}`, source: JSON.stringify(pickMarketingTexts(texts)) });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), marketingTexts()],
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
