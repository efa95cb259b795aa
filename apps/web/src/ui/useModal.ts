import { useEffect, useRef, type SyntheticEvent } from 'react';

/**
 * Where the focus goes once the modal shows: showModal's own choice (its first control), the
 * dialog itself, or its first input.
 */
type ModalFocus = 'first' | 'dialog' | 'input';

/**
 * Props for a `<dialog>` shown as a modal for as long as the component is mounted: the page behind
 * cannot be used, and Escape calls `onClose` rather than closing it behind React's back.
 */
export function useModal(onClose: () => void, focus: ModalFocus = 'first') {
  const ref = useRef<HTMLDialogElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: shown once when mounted; the focus is a choice of the caller's, fixed for its life
  useEffect(() => {
    const el = ref.current;
    if (el && !el.open) el.showModal();
    if (focus === 'dialog') el?.focus();
    if (focus === 'input') el?.querySelector('input')?.focus();
    return () => el?.close();
  }, []);
  const onCancel = (e: SyntheticEvent) => {
    e.preventDefault();
    onClose();
  };
  return { ref, onCancel };
}
