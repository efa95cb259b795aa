import type { ReactNode } from 'react';
import { useModal } from './useModal';

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
  const modal = useModal(onClose);
  return (
    <dialog {...modal} className={className} aria-labelledby={labelledBy} data-testid={testId}>
      {children}
    </dialog>
  );
}
