// pdftotext -bbox-layout's XHTML read into text: pure, so that the MuPDF worker reads it too (a
// conversion checks its model against it there, off the server's event loop).

/** A line as pdftotext lays it out: its page (1-based), its words and its height in points. */
export interface LaidOutLine {
  page: number;
  text: string;
  height: number;
}

/** The text of each page (blocks apart by a blank line, lines by a newline) and its lines with their heights. */
export interface PageLayout {
  pages: string[];
  lines: LaidOutLine[];
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(Number.parseInt(e.slice(e[1] === 'x' ? 2 : 1), e[1] === 'x' ? 16 : 10)) : (XML_ENTITIES[e] ?? m),
  );

export function parsePageLayout(xml: string): PageLayout {
  const texts: string[] = [];
  const lines: LaidOutLine[] = [];
  for (const [pageIndex, page] of xml.split('<page ').slice(1).entries()) {
    const blocks: string[] = [];
    for (const block of page.split('<block ').slice(1)) {
      const blockLines: string[] = [];
      for (const line of block.matchAll(/<line [^>]*yMin="([\d.]+)"[^>]*yMax="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
        const words = [...line[3]!.matchAll(/<word [^>]*>([\s\S]*?)<\/word>/g)].map((w) => unescapeXml(w[1]!));
        const text = words.join(' ');
        if (!text.trim()) continue;
        blockLines.push(text);
        lines.push({ page: pageIndex + 1, text, height: Number(line[2]) - Number(line[1]) });
      }
      if (blockLines.length) blocks.push(blockLines.join('\n'));
    }
    texts.push(blocks.join('\n\n'));
  }
  return { pages: texts, lines };
}
