import { useState, type DragEvent } from 'react';

/** Drag-and-drop reordering of a list: spread `itemProps(index)` on each item. */
export function useDragReorder(onMove: (from: number, to: number) => void) {
  const [dragged, setDragged] = useState<number | null>(null);
  const [target, setTarget] = useState<number | null>(null);
  const end = () => {
    setDragged(null);
    setTarget(null);
  };

  return (index: number) => ({
    draggable: true,
    onDragStart: (e: DragEvent) => {
      setDragged(index);
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(index));
    },
    onDragOver: (e: DragEvent) => {
      if (dragged === null) return; // files from outside go to the drop zone
      e.preventDefault();
      e.stopPropagation();
      if (target !== index) setTarget(index);
    },
    onDrop: (e: DragEvent) => {
      if (dragged === null) return;
      e.preventDefault();
      e.stopPropagation();
      onMove(dragged, index);
      end();
    },
    onDragEnd: end,
    'data-dragging': dragged === index || undefined,
    'data-drop-target': (target === index && dragged !== index) || undefined,
  });
}
