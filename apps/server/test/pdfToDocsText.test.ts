// PDF to documents keeps the text poppler reads, over HTTP against a real Quire: the .docx is
// unzipped and its word/document.xml read with Python's XML parser, its words counted against
// pdftotext's for the same file. Files from pdf.js's test suite (test-corpus/pdfjs):
// - issue16316.pdf: a TeX paper whose Type 1 fonts MuPDF reads no characters from (its model
//   held 15 of the 4,093 letters pdftotext reads);
// - issue9972-2.pdf and bug1883609.pdf: prose that MuPDF's table hunt took for two-column tables.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quireForTests } from './harness.js';

const { client, dir } = quireForTests('todocs-text');
const corpus = (name: string) => path.join(import.meta.dirname, '../../../test-corpus/pdfjs', name);

/** The PDF converted to `format` through the API, saved; the task's status must be 0. */
async function convert(pdf: string, format: string): Promise<string> {
  const fileId = await client.uploadId(pdf);
  const created = await client.call(`converter?${new URLSearchParams({ file_id: fileId, output_format: format })}`);
  expect(created.code, created.msg).toBe(0);
  const entry = await client.waitTask(created.data.task_id);
  expect(entry.status, entry.msg).toBe(0);
  const out = path.join(dir, `${path.basename(pdf, '.pdf')}.${format}`);
  await client.download(entry.task_id, out);
  return out;
}

interface WordParagraph {
  text: string;
  inTable: boolean;
}

/** Each w:p of the body with its text and whether a table holds it, by Python's XML parser. */
function wordParagraphs(docx: string): WordParagraph[] {
  const xml = execFileSync('unzip', ['-p', docx, 'word/document.xml']);
  const script = `
import sys, json, xml.etree.ElementTree as E
W = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'
out = []
def walk(node, in_table):
    for child in node:
        if child.tag == W + 'p':
            out.append({'text': ''.join(t.text or '' for t in child.iter(W + 't')), 'inTable': in_table})
        else:
            walk(child, in_table or child.tag == W + 'tbl')
walk(E.fromstring(sys.stdin.buffer.read()).find(W + 'body'), False)
print(json.dumps(out))`;
  return JSON.parse(execFileSync('python3', ['-c', script], { input: xml }).toString()) as WordParagraph[];
}

/** Words as a reader counts them: runs of letters and digits, lower case. */
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const pdftotext = (pdf: string) => execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', pdf, '-']).toString();

/** How many of `expected`'s words `found` holds, each as often as both do. */
function kept(found: string[], expected: string[]): number {
  const left = new Map<string, number>();
  for (const w of found) left.set(w, (left.get(w) ?? 0) + 1);
  return expected.filter((w) => {
    const n = left.get(w) ?? 0;
    left.set(w, n - 1);
    return n > 0;
  }).length;
}

describe('a PDF whose text MuPDF reads only in part', () => {
  const pdf = corpus('issue16316.pdf');

  it('converts to a .docx with the words pdftotext reads', async () => {
    const expected = words(pdftotext(pdf));
    expect(expected.length).toBeGreaterThan(600);
    const found = words(
      wordParagraphs(await convert(pdf, 'docx'))
        .map((p) => p.text)
        .join('\n'),
    );
    expect(kept(found, expected) / expected.length).toBeGreaterThan(0.95);
  });

  it('keeps them in the other formats of the same model: plain text and HTML', async () => {
    const expected = words(pdftotext(pdf));
    const text = fs.readFileSync(await convert(pdf, 'txt'), 'utf8');
    expect(kept(words(text), expected) / expected.length).toBeGreaterThan(0.95);
    const html = fs.readFileSync(await convert(pdf, 'html'), 'utf8').replace(/<[^>]*>/g, ' ');
    expect(kept(words(html), expected) / expected.length).toBeGreaterThan(0.95);
  });
});

describe('prose is written as paragraphs, not as a table', () => {
  it('has no table for a questionnaire of plain paragraphs (issue9972-2.pdf)', async () => {
    const paragraphs = wordParagraphs(await convert(corpus('issue9972-2.pdf'), 'docx'));
    const light = paragraphs.find((p) => p.text.startsWith('Light and Sound: What is plugged into the wall sockets'));
    expect(light?.inTable).toBe(false);
    expect(paragraphs.filter((p) => p.inTable)).toEqual([]);
  });

  it('keeps a form’s introduction out of the table its fields make (bug1883609.pdf)', async () => {
    const paragraphs = wordParagraphs(await convert(corpus('bug1883609.pdf'), 'docx'));
    for (const start of [
      'This is an example of a user fillable PDF form.',
      'The fields of this form have been selected',
      'Important: Save the completed PDF form',
    ]) {
      const paragraph = paragraphs.find((p) => p.text.startsWith(start));
      expect(paragraph, start).toBeDefined();
      expect(paragraph!.inTable, start).toBe(false);
    }
  });
});
