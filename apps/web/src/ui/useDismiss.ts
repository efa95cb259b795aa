import { useEffect, type RefObject } from 'react';

/** While `open`, a click or focus outside `anchor`, or Escape, calls `close`. */
export function useDismiss(anchor: RefObject<HTMLElement | null>, open: boolean, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const closeOutside = (e: Event) => {
      if (!anchor.current?.contains(e.target as Node)) close();
    };
    const closeOnEscape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('focusin', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('focusin', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [anchor, open, close]);
}
