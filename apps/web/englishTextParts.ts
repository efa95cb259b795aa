import fs from 'node:fs';
import type { Plugin } from 'vite';
import { isShellText } from './src/i18n/shellTexts';

/**
 * `en-us.json?shell` and `en-us.json?rest`: in a build, the English texts every page carries and
 * those the first page needing them loads (ADR 0544). Elsewhere (the dev server, the unit tests)
 * the shell's part is the whole file and the rest empty.
 */
export function englishTextParts(): Plugin {
  let split = false;
  return {
    name: 'quire-english-text-parts',
    enforce: 'pre',
    configResolved(config) {
      split = config.command === 'build';
    },
    load(id) {
      const part = /\/en-us\.json\?(shell|rest)$/.exec(id)?.[1];
      if (!part) return null;
      const texts = JSON.parse(fs.readFileSync(id.slice(0, id.indexOf('?')), 'utf8')) as Record<string, string>;
      const inPart = (key: string) => (split ? isShellText(key) : true) === (part === 'shell');
      return `export default ${JSON.stringify(Object.fromEntries(Object.entries(texts).filter(([key]) => inPart(key))))};`;
    },
  };
}
