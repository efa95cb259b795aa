// A three-page PDF of prose for the AI pages' tests: a heading and a paragraph per page, each page
// about its own subject, so that an answer's page can be told from the question.
import fs from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export const PROSE_PAGES: [string, string][] = [
  [
    'Gardens',
    'A kitchen garden needs sunlight for at least six hours a day. Tomatoes, beans and lettuce grow well in raised beds filled with compost. Water the beds early in the morning so the leaves dry before the evening. Gardeners rotate the crops each year in order to keep the soil healthy.',
  ],
  [
    'Volcanoes',
    'A volcano erupts when magma rises through cracks in the crust. Gas dissolved in the magma expands as the pressure falls, and the growing bubbles drive the molten rock upward until it bursts out as lava, ash and volcanic bombs. Basalt lava flows far; sticky rhyolite magma explodes.',
  ],
  [
    'Railways',
    'The first public steam railway opened in 1825 between Stockton and Darlington. Locomotives pulled coal wagons along iron rails, and within twenty years railways carried passengers across the country, changing how people travelled and where they lived and worked.',
  ],
];

export async function makeProsePdf(file: string): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const [heading, text] of PROSE_PAGES) {
    const page = doc.addPage([595, 842]);
    page.drawText(heading, { x: 72, y: 760, size: 22, font: bold });
    page.drawText(text, { x: 72, y: 720, size: 12, font, maxWidth: 450, lineHeight: 17 });
  }
  fs.writeFileSync(file, await doc.save());
  return file;
}
