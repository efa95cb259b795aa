import { useCallback, useEffect, useRef, useState } from 'react';

/** How long the pointer rests on a menu before it opens or closes. */
export const MENU_HOVER_DELAY_MS = 200;

/** A menu that opens and closes a moment after the pointer enters or leaves, so passing over it does nothing. */
export function useHoverMenu(delayMs = MENU_HOVER_DELAY_MS, closeDelayMs = delayMs) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const later = (value: boolean) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(value), value ? delayMs : closeDelayMs);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const setNow = useCallback((value: boolean) => {
    clearTimeout(timer.current);
    setOpen(value);
  }, []);
  return {
    open,
    setOpen: setNow,
    hoverProps: { onMouseEnter: () => later(true), onMouseLeave: () => later(false) },
  };
}
