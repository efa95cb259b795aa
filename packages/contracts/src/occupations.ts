// The occupation survey's choices, without zod: the page's shell imports them (ADR 0542).

/** The survey's fixed choices, in the order the dialog lists them; Other takes a free text. */
export const OCCUPATIONS = [
  'Student',
  'Education',
  'IT',
  'Construction',
  'Design',
  'Healthcare',
  'Manufacturing',
  'Finance/Accounting',
  'Legal',
  'Government',
  'Marketing',
  'RealEstate',
  'Other',
] as const;
export type Occupation = (typeof OCCUPATIONS)[number];

/** The most characters Other's free text may have. */
export const OCCUPATION_TEXT_MAX = 48;
/** How Other's text is sent and kept as the career: `Other: Beekeeper`. */
export const OTHER_PREFIX = 'Other: ';

/** The career an answer keeps: the choice itself, or Other with its (trimmed) text. */
export const careerOf = (occupation: Occupation, otherText = ''): string =>
  occupation === 'Other' ? OTHER_PREFIX + otherText.trim() : occupation;
