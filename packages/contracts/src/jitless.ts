// Zod compiles its validators with new Function unless told not to; the web page's policy forbids
// eval (and the browser reports each try). This must run before any schema is built: the index
// imports it first, and the page's main.tsx imports it first by name, since its bundler skips the
// index (the package's sideEffects). The server keeps Zod's compiler.
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });
