import { useEffect, useRef, type ReactNode } from 'react';

interface ModalProps {
  className: string;
  /** The id of the element naming the dialog. */
  labelledBy: string;
  testId: string;
  /** Escape, or the dialog's own close. */
  onClose(): void;
  children: ReactNode;
}

/** A modal dialog: the page behind cannot be used until it is closed; Escape calls `onClose`. */
export function Modal({ className, labelledBy, testId, onClose, children }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    return () => el?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className={className}
      aria-labelledby={labelledBy}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {children}
    </dialog>
  );
}
