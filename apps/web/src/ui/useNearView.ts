import { useEffect, useState, type RefObject } from 'react';

/** How far outside the viewport an element counts as near: it starts loading before it scrolls in. */
const NEAR_MARGIN = '200px';

/** True once the element has come within reach of the viewport; it stays true after. */
export function useNearView(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, near]);
  return near;
}
