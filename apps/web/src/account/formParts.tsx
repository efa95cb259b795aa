// The pieces every account form shares: a section of the account page, a labelled field with its
// inline problem, the server's refusal, and a hook running one request at a time.
import { ACCOUNT_PASSWORD_MAX, ACCOUNT_PASSWORD_MIN, ErrorCode } from '@quire/contracts';
import { useCallback, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { useT } from '../i18n/I18nProvider';
import type { FieldProblem } from './accountForms';

/** The HTTP status of the rate limit's refusals. */
const TOO_MANY_REQUESTS = 429;

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  problem?: string | undefined;
}

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="card account-section" data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export function TextField({ label, problem, ...input }: TextFieldProps) {
  const problemId = useId();
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input {...input} aria-invalid={problem ? true : undefined} aria-describedby={problem ? problemId : undefined} />
      {problem && (
        <span className="field-error" id={problemId} data-testid="field-error">
          {problem}
        </span>
      )}
    </label>
  );
}

interface CheckedFieldProps {
  label: string;
  value: string;
  onValue(value: string): void;
  /** What is wrong with the value, shown once the form was submitted (`shown`). */
  problem: FieldProblem | undefined;
  shown: boolean;
}

export function EmailField({ label, value, onValue, problem, shown }: CheckedFieldProps) {
  const problemText = useProblemText();
  return (
    <TextField
      label={label}
      type="email"
      name="email"
      autoComplete="email"
      value={value}
      onChange={(e) => onValue(e.target.value)}
      problem={shown ? problemText.email(problem) : undefined}
    />
  );
}

/** A password field; `chosen` for a new password, which browsers offer to generate and save. */
export function PasswordField({ label, value, onValue, problem, shown, chosen = false }: CheckedFieldProps & { chosen?: boolean }) {
  const problemText = useProblemText();
  const kind = chosen ? 'new-password' : 'current-password';
  return (
    <TextField
      label={label}
      type="password"
      name={kind}
      autoComplete={kind}
      value={value}
      onChange={(e) => onValue(e.target.value)}
      problem={shown ? problemText.password(problem) : undefined}
    />
  );
}

/** The sentence for a field's problem. */
function useProblemText() {
  const t = useT();
  return {
    email: (problem: FieldProblem | undefined) =>
      problem === 'required' ? t('account.emailRequired') : problem ? t('account.emailInvalid') : undefined,
    password: (problem: FieldProblem | undefined) =>
      problem === 'required'
        ? t('account.passwordRequired')
        : problem
          ? t('account.passwordLength', { min: ACCOUNT_PASSWORD_MIN, max: ACCOUNT_PASSWORD_MAX })
          : undefined,
  };
}

/** A form's submit button in its row, off while its request runs. */
export function SubmitRow({ label, busy, danger = false, testId }: { label: string; busy: boolean; danger?: boolean; testId?: string }) {
  return (
    <div className="button-row">
      <button type="submit" className={`button ${danger ? 'button-danger' : 'button-primary'}`} disabled={busy} data-testid={testId}>
        {label}
      </button>
    </div>
  );
}

/**
 * The server's refusal of a form: the catalogue's message, or for the rate limit's 3500 (sent with
 * HTTP 429) the one saying so. A 3500 with 503 is a service away (its database, say): "the service
 * is busy" is then what is true.
 */
export function FormError({ error }: { error: unknown }) {
  const t = useT();
  if (!error) return null;
  const tooMany = error instanceof ApiError && error.code === ErrorCode.Busy && error.httpStatus === TOO_MANY_REQUESTS;
  return (
    <div className="form-error" role="alert" data-testid="form-error">
      <p>{tooMany ? t('account.tooManyAttempts') : error instanceof Error ? error.message : String(error)}</p>
    </div>
  );
}

/** Runs a form's request: busy while it runs, its failure kept to show. */
export function useRequest() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(async (request: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await request();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
