// The pdf.js corpus through the page edits that MuPDF does: crop, redact and replace text.
// Run with: npx vitest run --project corpus apps/server/test/corpus-edit.test.ts
import { describeCorpusPass } from './corpusPdfPass.js';

describeCorpusPass(['cut', 'redaction', 'replacetext']);
