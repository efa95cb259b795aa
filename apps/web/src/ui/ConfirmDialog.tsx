import { useModal } from './useModal';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/** A modal question: the page behind cannot be used until it is answered; Escape cancels. */
export function ConfirmDialog({ title, message, confirmLabel, cancelLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const modal = useModal(onCancel);
  return (
    <dialog {...modal} className="confirm-dialog" aria-labelledby="confirm-title" data-testid="confirm-dialog">
      <h2 id="confirm-title">{title}</h2>
      <p>{message}</p>
      <div className="button-row">
        {/* The safe answer first: showModal focuses it, so Enter loses nothing. */}
        <button type="button" className="button button-ghost" data-testid="confirm-cancel" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className="button button-primary" data-testid="confirm-ok" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
