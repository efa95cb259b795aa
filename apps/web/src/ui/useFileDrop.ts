import { useRef, useState, type DragEvent } from 'react';

const carriesFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

/** Makes an element a drop target for files from outside the page. */
export function useFileDrop(onFiles: (files: File[]) => void) {
  const [active, setActive] = useState(false);
  // dragenter/dragleave fire for every child; count them to know when the pointer really left.
  const depth = useRef(0);
  return {
    active,
    dropProps: {
      onDragEnter: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        depth.current++;
        setActive(true);
      },
      onDragLeave: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setActive(false);
      },
      onDragOver: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      },
      onDrop: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setActive(false);
        onFiles([...e.dataTransfer.files]);
      },
    },
  };
}
