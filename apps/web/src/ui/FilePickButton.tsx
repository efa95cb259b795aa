import type { ReactNode } from 'react';

interface FilePickButtonProps {
  className: string;
  accept: string;
  testId: string;
  onPick(file: File): void;
  children: ReactNode;
}

/** A button that opens the file chooser for one file; the same file may be picked again. */
export function FilePickButton({ className, accept, testId, onPick, children }: FilePickButtonProps) {
  return (
    <label className={className}>
      {children}
      <input
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
    </label>
  );
}
