import { useEffect, useState, type RefObject } from 'react';

/** How far outside the viewport an element counts as near: it starts loading before it scrolls in. */
const NEAR_MARGIN = '200px';

/**
 * True once the element has come within reach of the viewport; it stays true after, unless
 * `stay` is off: then it turns false again when the element leaves (a large drawing to let go).
 */
export function useNearView(ref: RefObject<Element | null>, { stay = true, margin = NEAR_MARGIN } = {}): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || (near && stay)) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const intersecting = entries.some((e) => e.isIntersecting);
        setNear(intersecting);
        if (intersecting && stay) observer.disconnect();
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, near, stay, margin]);
  return near;
}
