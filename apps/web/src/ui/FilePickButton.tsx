import { type ReactNode, useRef } from 'react';

interface FilePickButtonProps {
  className: string;
  accept: string;
  testId: string;
  onPick(file: File): void;
  children: ReactNode;
}

/**
 * A button that opens the file chooser for one file; the same file may be picked again. A real
 * button, not a label around a hidden input: a label takes no focus, so Tab never reached it.
 */
export function FilePickButton({ className, accept, testId, onPick, children }: FilePickButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} data-testid={`${testId}-button`} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        data-testid={testId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onPick(file);
        }}
      />
    </>
  );
}
