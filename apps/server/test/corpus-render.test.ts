// The pdf.js corpus through the tools that rebuild or draw pages: compress, PDF to PNG and extract images.
// Run with: npx vitest run --project corpus apps/server/test/corpus-render.test.ts
import { describeCorpusPass } from './corpusPdfPass.js';

describeCorpusPass(['compress', 'to_png', 'extract_images']);
