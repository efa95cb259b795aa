import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fontFamilies } from '@quire/contracts';
import { editFontFiles } from './fontFiles.js';

describe('the editor’s font files', () => {
  it('finds every one of the 21 families installed, a file of its own for each', async () => {
    const files = await editFontFiles();
    expect(Object.keys(files).sort()).toEqual(fontFamilies.map((f) => f.id).sort());
    const regulars = Object.values(files).map((f) => f.regular);
    expect(new Set(regulars).size).toBe(21);
    for (const file of regulars) expect(fs.existsSync(file)).toBe(true);
    // Styles the family has are files of their own; the bold of Liberation Sans is not its regular.
    expect(files['liberation-sans']!.bold).toMatch(/LiberationSans-Bold\.ttf$/);
    expect(files['urw-bookman']!.boldItalic).toMatch(/URWBookman-DemiItalic/);
  });
});
