import { useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { fileFields } from './common';
import type { OptionPanelProps, ToolRequest } from './types';
import '../sizeAndSecurity.css';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;

/** What is wrong with the two fields as typed so far, shown while the user types. */
export function passwordProblems(password: string, confirm: string): { length: boolean; mismatch: boolean } {
  return {
    length: password.length > 0 && (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX),
    // Not while the confirmation is still being typed up to the password's length.
    mismatch: confirm.length > 0 && confirm !== password && (confirm.length >= password.length || !password.startsWith(confirm)),
  };
}

/** A new password, typed twice; the file is encrypted with AES-256 and opens only with it. */
export function ProtectPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const problems = passwordProblems(password, confirm);
  const complete = password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX && confirm === password;
  const request: ToolRequest = file && complete ? { ok: true, body: { ...fileFields(file), password } } : { ok: false };

  const options = (
    <>
      <PasswordField
        label={t('protect.password')}
        value={password}
        onChange={setPassword}
        testId="protect-password"
        error={problems.length ? { text: t('protect.lengthRule'), testId: 'password-rule' } : undefined}
      />
      <PasswordField
        label={t('protect.confirm')}
        value={confirm}
        onChange={setConfirm}
        testId="protect-confirm"
        error={problems.mismatch ? { text: t('protect.mismatch'), testId: 'password-mismatch' } : undefined}
      />
      <p className="panel-note">{file?.password ? t('protect.replaces') : t('protect.help')}</p>
    </>
  );
  return layout({ options, request });
}

interface PasswordFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  testId: string;
  error?: { text: string; testId: string };
}

function PasswordField({ label, value, onChange, testId, error }: PasswordFieldProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="password"
        value={value}
        autoComplete="new-password"
        aria-invalid={error ? true : undefined}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <span className="field-error" role="alert" data-testid={error.testId}>
          {error.text}
        </span>
      )}
    </label>
  );
}
