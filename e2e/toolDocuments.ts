// A document of each kind the tools take, for the walks over every tool page: a long PDF and a
// photo made here, the office kinds from the repository's corpus.
import fs from 'node:fs';
import path from 'node:path';
import type { ToolDefinition } from '@quire/contracts';
import { makePdf } from '../apps/server/test/fixtures.js';
import { encodePng, photoRaster } from '../apps/server/test/imageFixtures.js';

const CORPUS = path.join(import.meta.dirname, '../test-corpus/office');
const OFFICE: Record<string, string> = {
  doc: 'having-images.docx',
  xls: 'SimpleWithImages.xls',
  ppt: 'SmartArt.pptx',
  rtf: 'image.rtf',
  txt: 'UTF-8-demo.txt',
  pub: 'SampleBrochure.pub',
};

/** Makes the documents in `dir` (a 17-page PDF, a 900×1200 photo); returns which one a tool takes. */
export async function toolDocuments(dir: string): Promise<(tool: ToolDefinition) => string> {
  await makePdf(path.join(dir, 'long.pdf'), 17, 'Long');
  fs.writeFileSync(path.join(dir, 'photo.png'), encodePng(photoRaster(900, 1200)));
  return (tool) => {
    const ext = tool.extFrom[0]!;
    if (ext === 'pdf') return path.join(dir, 'long.pdf');
    if (ext === 'jpg') return path.join(dir, 'photo.png');
    if (!OFFICE[ext]) throw new Error(`no document for ${tool.slug} (${ext})`);
    return path.join(CORPUS, OFFICE[ext]);
  };
}
