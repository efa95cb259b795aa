// At most one interruption at a time: the event pop-up, the operator's top banner, the bell's
// unread badge, the bookmark hint and the gift button each ask to be shown, and only the first of
// them in PRIORITY that asks is; the others wait until it goes (closed, or its page left). A first
// visit used to meet all five at once.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

export type Interruption = 'event' | 'banner' | 'badge' | 'bookmark' | 'gift';

/** First the modal event, then the operator's word to everyone, then the user's own news, then the hints. */
const PRIORITY: readonly Interruption[] = ['event', 'banner', 'badge', 'bookmark', 'gift'];

/** How many parts of the page ask for each kind (the bell is in the page twice: desktop and phone). */
type Claims = ReadonlyMap<Interruption, number>;

/** The interruption shown while `claims` ask: the first in priority, or none. */
export function interruptionShown(claims: Claims): Interruption | undefined {
  return PRIORITY.find((kind) => (claims.get(kind) ?? 0) > 0);
}

interface Arbiter {
  claims: Claims;
  /** Asks for `kind`; the function returned withdraws the ask. */
  claim(kind: Interruption): () => void;
}

const ArbiterContext = createContext<Arbiter | null>(null);

export function InterruptionProvider({ children }: { children: ReactNode }) {
  const [claims, setClaims] = useState<Claims>(new Map());
  const claim = useCallback((kind: Interruption) => {
    const add = (by: number) =>
      setClaims((now) => {
        const next = new Map(now);
        next.set(kind, (now.get(kind) ?? 0) + by);
        return next;
      });
    add(1);
    return () => add(-1);
  }, []);
  const arbiter = useMemo(() => ({ claims, claim }), [claims, claim]);
  return <ArbiterContext.Provider value={arbiter}>{children}</ArbiterContext.Provider>;
}

/** Asks for `kind` while `wanted`; true when it is the one to show now. */
export function useInterruption(kind: Interruption, wanted: boolean): boolean {
  const arbiter = useContext(ArbiterContext);
  const claim = arbiter?.claim;
  useEffect(() => (wanted && claim ? claim(kind) : undefined), [claim, kind, wanted]);
  // Outside the provider (a page rendered on its own) nothing competes.
  if (!arbiter) return wanted;
  return wanted && interruptionShown(arbiter.claims) === kind;
}
