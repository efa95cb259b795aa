import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useT } from '../i18n/I18nProvider';

/** Alt with an arrow moves the focused item: back with Left and Up, on with Right and Down (Left and Right swap right to left). */
function keyStep(e: KeyboardEvent<HTMLElement>): -1 | 1 | 0 {
  if (!e.altKey) return 0;
  const rtl = getComputedStyle(e.currentTarget).direction === 'rtl';
  if (e.key === 'ArrowUp' || e.key === (rtl ? 'ArrowRight' : 'ArrowLeft')) return -1;
  if (e.key === 'ArrowDown' || e.key === (rtl ? 'ArrowLeft' : 'ArrowRight')) return 1;
  return 0;
}

/**
 * Reordering of a list of `count` items by dragging, or from the keyboard (each item focusable,
 * Alt+arrows move it, said aloud by the `status` live region, which the list renders once). Spread
 * `itemProps(index)` on each item.
 */
export function useDragReorder(onMove: (from: number, to: number) => void, count: number) {
  const t = useT();
  const [dragged, setDragged] = useState<number | null>(null);
  // Read by the drag events: a quick drag's first dragover can come before React renders the state.
  const draggedNow = useRef<number | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const [announced, setAnnounced] = useState('');
  const end = () => {
    draggedNow.current = null;
    setDragged(null);
    setTarget(null);
  };

  const itemProps = (index: number) => ({
    draggable: true,
    tabIndex: 0,
    'aria-keyshortcuts': 'Alt+ArrowLeft Alt+ArrowRight',
    'data-reorder-index': index,
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      if (e.target !== e.currentTarget) return; // keys in the item's own buttons and fields are theirs
      const step = keyStep(e);
      const to = index + step;
      if (step === 0 || to < 0 || to >= count) return;
      e.preventDefault();
      const list = e.currentTarget.parentElement;
      onMove(index, to);
      setAnnounced(t('reorder.moved', { position: to + 1, count }));
      // The moved item keeps the focus, wherever the list's new order puts it.
      requestAnimationFrame(() => list?.querySelector<HTMLElement>(`[data-reorder-index="${to}"]`)?.focus());
    },
    onDragStart: (e: DragEvent) => {
      draggedNow.current = index;
      setDragged(index);
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(index));
    },
    onDragOver: (e: DragEvent) => {
      if (draggedNow.current === null) return; // files from outside go to the drop zone
      e.preventDefault();
      e.stopPropagation();
      if (target !== index) setTarget(index);
    },
    onDrop: (e: DragEvent) => {
      const from = draggedNow.current;
      if (from === null) return;
      e.preventDefault();
      e.stopPropagation();
      onMove(from, index);
      end();
    },
    onDragEnd: end,
    'data-dragging': dragged === index || undefined,
    'data-drop-target': (target === index && dragged !== index) || undefined,
  });

  return { itemProps, status: announced };
}
