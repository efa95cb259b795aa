// The pdf.js corpus through the page tools that qpdf does: merge, split, rotate, protect and unlock.
// Run with: npx vitest run --project corpus apps/server/test/corpus-organise.test.ts
import { describeCorpusPass } from './corpusPdfPass.js';

describeCorpusPass(['merge', 'split', 'rotate', 'encrypt', 'decode']);
