// The occupation survey: a signed-in account names its occupation once (POST
// /api/ai/v2/user-ext-info/collect); the account's `career` keeps it and the user info carries it.
import { z } from 'zod';
import { OCCUPATION_TEXT_MAX, OCCUPATIONS, OTHER_PREFIX } from './occupations.js';

const fixedChoice = z.enum(OCCUPATIONS).exclude(['Other']);
const otherChoice = z
  .string()
  .startsWith(OTHER_PREFIX)
  .transform((v) => OTHER_PREFIX + v.slice(OTHER_PREFIX.length).trim())
  .refine((v) => v.length > OTHER_PREFIX.length, 'Other needs a text: what you do.')
  .refine((v) => v.length - OTHER_PREFIX.length <= OCCUPATION_TEXT_MAX, `Other's text has at most ${OCCUPATION_TEXT_MAX} characters.`);

export const occupationRequest = z.object({
  occupation: z
    .union([fixedChoice, otherChoice])
    .describe(
      `One of ${OCCUPATIONS.filter((o) => o !== 'Other').join(', ')}; or "${OTHER_PREFIX}<text>" with 1–${OCCUPATION_TEXT_MAX} characters of text`,
    ),
});
export type OccupationRequest = z.infer<typeof occupationRequest>;

/** The answer: the career the account now has. */
export const occupationSaved = z.object({ career: z.string() });
