// Toasts: warnings close after 3 s, task toasts after 4 s; one that offers an action (a link) stays
// until it is followed or closed, since reading it and reaching for its link takes longer.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Icon } from './Icon';

export const WARNING_TOAST_MS = 3000;
export const TASK_TOAST_MS = 4000;

type ToastKind = 'warning' | 'success';
/** A place the toast's news leads to (a path of the app, with its language prefix). */
interface ToastLink {
  label: string;
  to: string;
}
interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  link?: ToastLink;
}
type ShowToast = (text: string, options?: { kind?: ToastKind; durationMs?: number; link?: ToastLink }) => void;

const ToastContext = createContext<ShowToast>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback<ShowToast>(
    (text, { kind = 'warning', durationMs = WARNING_TOAST_MS, link } = {}) => {
      const id = nextId.current++;
      // The same message twice in a row (e.g. two bad files) shows once.
      setToasts((list) => [...list.filter((t) => t.text !== text), { id, kind, text, ...(link && { link }) }]);
      if (!link) setTimeout(() => dismiss(id), durationMs);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast toast-${toast.kind}`}
            // One with an action is said politely: it waits for the reader, so it need not interrupt.
            role={toast.kind === 'warning' && !toast.link ? 'alert' : 'status'}
            data-testid="toast"
          >
            <Icon name={toast.kind === 'warning' ? 'alert' : 'check'} size={18} />
            <span>{toast.text}</span>
            {toast.link && (
              <Link to={toast.link.to} className="toast-link" data-testid="toast-link" onClick={() => dismiss(toast.id)}>
                {toast.link.label}
              </Link>
            )}
            <button type="button" className="toast-close" aria-label="Close" onClick={() => dismiss(toast.id)}>
              <Icon name="close" size={16} />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ShowToast {
  return useContext(ToastContext);
}
