import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// A relative import: the config runs in Node, which cannot load the contracts package's TypeScript by its name.
import { pickMarketingTexts } from '../../packages/contracts/src/marketingPages';
import { englishTextParts } from './englishTextParts';

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

/** Files worth compressing: text formats (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;

/**
 * Every built text file also as .br and .gz (when smaller), made once here at brotli's and gzip's
 * best, for the server to send by Accept-Encoding instead of compressing on each request.
 * dist/seo/ is the server's own reading, not served compressed.
 */
function precompressed(): Plugin {
  let outDir = '';
  return {
    name: 'quire-precompressed',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = fs
        .readdirSync(outDir, { recursive: true, encoding: 'utf8' })
        .filter((f) => COMPRESSIBLE.test(f) && !f.startsWith(`seo${path.sep}`))
        .map((f) => path.join(outDir, f));
      await Promise.all(
        files.map(async (file) => {
          const source = await fs.promises.readFile(file);
          const variants: [string, Buffer][] = [
            ['.br', zlib.brotliCompressSync(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })],
            ['.gz', zlib.gzipSync(source, { level: 9 })],
          ];
          for (const [ext, compressed] of variants)
            if (compressed.length < source.length) await fs.promises.writeFile(file + ext, compressed);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), englishTextParts(), marketingTexts(), precompressed()],
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
