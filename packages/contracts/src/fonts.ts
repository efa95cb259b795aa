// The 21 font families of the editor (spec §9 "Fonts: list of 21 families"), all from Debian's
// font packages that scripts/setup.sh installs (fonts-liberation2, fonts-dejavu-core,
// fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-urw-base35 through ghostscript,
// fonts-droid-fallback). No zod here: the MuPDF child program imports this module alone.

export type FontKind = 'sans' | 'serif' | 'mono' | 'script' | 'cjk';

export interface FontFamily {
  /** The id calls carry. */
  id: string;
  /** The name shown in the font menu, and fontconfig's family name. */
  name: string;
  kind: FontKind;
  /** Narrower than usual (condensed, narrow): a better stand-in for condensed originals. */
  narrow?: true;
  /** Names of fonts this family stands in for, matched in the original font's name (case-insensitive). */
  standsFor: readonly string[];
}

export const fontFamilies = [
  { id: 'liberation-sans', name: 'Liberation Sans', kind: 'sans', standsFor: ['arial', 'helvetica', 'arimo'] },
  { id: 'liberation-serif', name: 'Liberation Serif', kind: 'serif', standsFor: ['times', 'tinos'] },
  { id: 'liberation-mono', name: 'Liberation Mono', kind: 'mono', standsFor: ['courier', 'cousine'] },
  { id: 'dejavu-sans', name: 'DejaVu Sans', kind: 'sans', standsFor: ['dejavusans', 'verdana', 'bitstreamvera'] },
  { id: 'dejavu-serif', name: 'DejaVu Serif', kind: 'serif', standsFor: ['dejavuserif', 'georgia'] },
  { id: 'dejavu-sans-mono', name: 'DejaVu Sans Mono', kind: 'mono', standsFor: ['dejavusansmono', 'consolas', 'menlo'] },
  {
    id: 'dejavu-sans-condensed',
    name: 'DejaVu Sans Condensed',
    kind: 'sans',
    narrow: true,
    standsFor: ['dejavusanscondensed', 'tahoma'],
  },
  { id: 'dejavu-serif-condensed', name: 'DejaVu Serif Condensed', kind: 'serif', narrow: true, standsFor: ['dejavuserifcondensed'] },
  { id: 'dejavu-sans-light', name: 'DejaVu Sans Light', kind: 'sans', standsFor: ['light', 'thin'] },
  { id: 'carlito', name: 'Carlito', kind: 'sans', standsFor: ['calibri', 'carlito'] },
  { id: 'caladea', name: 'Caladea', kind: 'serif', standsFor: ['cambria', 'caladea'] },
  { id: 'nimbus-sans', name: 'Nimbus Sans', kind: 'sans', standsFor: ['nimbussans', 'helveticaneue'] },
  { id: 'nimbus-roman', name: 'Nimbus Roman', kind: 'serif', standsFor: ['nimbusroman', 'timesnewroman'] },
  { id: 'nimbus-mono', name: 'Nimbus Mono PS', kind: 'mono', standsFor: ['nimbusmono'] },
  { id: 'nimbus-sans-narrow', name: 'Nimbus Sans Narrow', kind: 'sans', narrow: true, standsFor: ['narrow', 'condensed', 'arialnarrow'] },
  { id: 'c059', name: 'C059', kind: 'serif', standsFor: ['schoolbook', 'c059'] },
  { id: 'p052', name: 'P052', kind: 'serif', standsFor: ['palatino', 'bookantiqua', 'p052', 'garamond'] },
  { id: 'urw-bookman', name: 'URW Bookman', kind: 'serif', standsFor: ['bookman'] },
  { id: 'urw-gothic', name: 'URW Gothic', kind: 'sans', standsFor: ['avantgarde', 'futura', 'centurygothic'] },
  { id: 'z003', name: 'Z003', kind: 'script', standsFor: ['zapfchancery', 'chancery', 'script', 'z003'] },
  {
    id: 'droid-sans-fallback',
    name: 'Droid Sans Fallback',
    kind: 'cjk',
    standsFor: ['simsun', 'mingliu', 'mincho', 'songti', 'heiti', 'msgothic'],
  },
] as const satisfies readonly FontFamily[];

export type FontFamilyId = (typeof fontFamilies)[number]['id'];
export const fontFamilyIds = fontFamilies.map((f) => f.id) as [FontFamilyId, ...FontFamilyId[]];
export const DEFAULT_FONT_FAMILY: FontFamilyId = 'liberation-sans';

/** What is known of an original font: its name (subset tag removed) and its descriptor's flags. */
export interface FontTraits {
  name: string;
  serif: boolean;
  mono: boolean;
}

/**
 * The family closest to an original font: one named for it (Arial → Liberation Sans), else the
 * first of its kind (serif, mono or sans, from the name before the flags, which producers set carelessly).
 */
export function nearestFamily(font: FontTraits): FontFamilyId {
  const name = font.name.toLowerCase().replace(/[\s_-]/g, '');
  const named = fontFamilies.find((f) => f.standsFor.some((s) => name.includes(s.replace(/\s/g, ''))));
  if (named) return named.id;
  const kind: FontKind =
    /courier|mono/.test(name) || font.mono
      ? 'mono'
      : /sans|arial|helvetica|gothic/.test(name)
        ? 'sans'
        : /times|serif|roman/.test(name) || font.serif
          ? 'serif'
          : 'sans';
  return fontFamilies.find((f) => f.kind === kind)!.id;
}
