import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * The width pages are drawn at in a scrolling column: the column's own width less its `padding`,
 * at most `max`; measured once it is laid out (pages are not redrawn as the window changes).
 */
export function useColumnWidth(ref: RefObject<HTMLElement | null>, max: number, padding: number): number | undefined {
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const column = ref.current;
    if (column) setWidth(Math.max(120, Math.min(max, column.clientWidth - padding)));
  }, [ref, max, padding]);
  return width;
}
