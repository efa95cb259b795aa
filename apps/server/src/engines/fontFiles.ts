// The font files of the editor's 21 families (packages/contracts/src/fonts.ts), as fontconfig finds
// them among Debian's font packages: one file per family and style, looked up once per process.
import { type EditFontStyle, fontFamilies, type FontFamilyId } from '@quire/contracts';
import { runEngine } from './run.js';

export type FontStyle = EditFontStyle;
/** Each family's files by style; a style the family lacks is its regular file. */
export type FontFiles = Partial<Record<FontFamilyId, Record<FontStyle, string>>>;

const patterns: Record<FontStyle, string> = { regular: '', bold: ':bold', italic: ':italic', boldItalic: ':bold:italic' };

async function match(family: string, style: FontStyle): Promise<string | null> {
  const res = await runEngine('fc-match', ['-f', '%{family}\n%{file}', `${family}${patterns[style]}`], {
    timeoutMs: 10_000,
    memoryMb: 512,
  });
  const [families = '', file = ''] = res.stdout.split('\n');
  // fontconfig answers a missing family with another: that one is not the family asked for.
  return families.split(',').includes(family) && file ? file : null;
}

let files: Promise<FontFiles> | undefined;

/** The families installed (a missing one is left out, and the editor falls back past it). */
export function editFontFiles(): Promise<FontFiles> {
  files ??= (async () => {
    const found: FontFiles = {};
    for (const family of fontFamilies) {
      const regular = await match(family.name, 'regular');
      if (!regular) continue;
      const styles = await Promise.all(
        (['bold', 'italic', 'boldItalic'] as const).map(async (s) => [s, (await match(family.name, s)) ?? regular] as const),
      );
      found[family.id] = { regular, ...Object.fromEntries(styles) } as Record<FontStyle, string>;
    }
    return found;
  })();
  return files;
}
