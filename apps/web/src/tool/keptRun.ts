// A visitor's run on a tool page, remembered in the browser (local storage, so a reload or a new
// tab finds it): a visitor has one task a day, and a result lost to a reload could not be made
// again. The outputs are the visitor's on the server until they expire or an account takes them.
import { z } from 'zod';

const keptRun = z.object({ multiId: z.string().min(1) });
const storageKey = (slug: string) => `quire.run.${slug}`;

/** The run kept for this tool page, if any (nothing kept, storage off, or unreadable). */
export function loadKeptRun(slug: string, storage: Storage | undefined = globalThis.localStorage): string | undefined {
  try {
    const parsed = keptRun.safeParse(JSON.parse(storage?.getItem(storageKey(slug)) ?? 'null'));
    return parsed.success ? parsed.data.multiId : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the run shown on this tool page; undefined forgets it. */
export function keepRun(slug: string, multiId: string | undefined, storage: Storage | undefined = globalThis.localStorage): void {
  try {
    if (multiId) storage?.setItem(storageKey(slug), JSON.stringify({ multiId }));
    else storage?.removeItem(storageKey(slug));
  } catch {
    // Storage full or switched off: the result still shows, it only does not outlive the page.
  }
}
