// Zod compiles its validators with new Function unless told not to; the web page's policy forbids
// eval (and the browser reports each try). The index imports this first, so it runs before any
// schema is built, however the page's bundle is split into chunks. The server keeps Zod's compiler.
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });
