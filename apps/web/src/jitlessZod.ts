// Zod compiles its validators with new Function unless told not to; the page's policy forbids
// eval. Imported first by main.tsx, so this runs before any module builds or parses a schema.
import { z } from 'zod';

z.config({ jitless: true });
