import { useEffect, useRef, useState } from 'react';

/** How long the pointer rests on a menu before it opens or closes. */
export const MENU_HOVER_DELAY_MS = 200;

/** A menu that opens and closes a moment after the pointer enters or leaves, so passing over it does nothing. */
export function useHoverMenu(delayMs = MENU_HOVER_DELAY_MS) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const later = (value: boolean) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(value), delayMs);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    open,
    setOpen(value: boolean) {
      clearTimeout(timer.current);
      setOpen(value);
    },
    hoverProps: { onMouseEnter: () => later(true), onMouseLeave: () => later(false) },
  };
}
