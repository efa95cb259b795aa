// The account's API keys: made with a name, the new key shown once to copy, listed by name and
// first characters with when they were made and last used, revoked after a question.
import type { ApiKeyCreated, ApiKeyEntry } from '@quire/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { createApiKey, listApiKeys, revokeApiKey } from '../api/account';
import { useI18n } from '../i18n/I18nProvider';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useToast } from '../ui/Toast';
import { FormError, Section, SubmitRow, TextField, useRequest } from './formParts';

const MAX_NAME_LENGTH = 64;

export function ApiKeysSection() {
  const { t, locale } = useI18n();
  const toast = useToast();
  const [keys, setKeys] = useState<ApiKeyEntry[]>();
  const [name, setName] = useState('');
  const [checked, setChecked] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated>();
  const [revoking, setRevoking] = useState<ApiKeyEntry>();
  const request = useRequest();
  const { run } = request;
  const nameProblem = name.trim() ? undefined : t('account.keyNameRequired');
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  // Last use is known to the minute.
  const minute = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  useEffect(() => {
    void run(async () => setKeys(await listApiKeys()));
  }, [run]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (nameProblem) return;
    void run(async () => {
      setCreated(await createApiKey(name.trim()));
      setName('');
      setChecked(false);
      setKeys(await listApiKeys());
    });
  };
  const revoke = (key: ApiKeyEntry) => {
    setRevoking(undefined);
    void run(async () => {
      await revokeApiKey(key.key_id);
      if (created?.key_id === key.key_id) setCreated(undefined);
      setKeys(await listApiKeys());
      toast(t('account.keyRevoked', { name: key.name }), { kind: 'success' });
    });
  };

  return (
    <Section title={t('account.apiKeys')} testId="account-api-keys">
      <p className="muted">{t('account.apiKeysNote')}</p>
      {created && <NewKey created={created} onStored={() => setCreated(undefined)} />}
      {keys &&
        (keys.length ? (
          <ul className="entry-list" data-testid="key-list">
            {keys.map((key) => (
              <li key={key.key_id} className="entry-item" data-testid="key-item">
                <div className="entry-info">
                  <span className="entry-name">
                    <strong>{key.name}</strong> <code>{key.hint}…</code>
                  </span>
                  <span className="muted" data-testid="key-dates">
                    {t('account.keyCreated', { date: day.format(key.created_at) })} ·{' '}
                    {key.last_used_at === null
                      ? t('account.keyNeverUsed')
                      : t('account.keyLastUsed', { date: minute.format(key.last_used_at) })}
                  </span>
                </div>
                <button
                  type="button"
                  className="button button-outline button-small"
                  aria-label={t('account.revokeKeyLabel', { name: key.name })}
                  onClick={() => setRevoking(key)}
                >
                  {t('account.revokeKey')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p data-testid="no-keys">{t('account.noKeys')}</p>
        ))}
      <form className="account-form key-form" noValidate onSubmit={submit}>
        <TextField
          label={t('account.keyName')}
          name="key-name"
          autoComplete="off"
          placeholder={t('account.keyNamePlaceholder')}
          maxLength={MAX_NAME_LENGTH}
          value={name}
          onChange={(e) => setName(e.target.value)}
          problem={checked ? nameProblem : undefined}
        />
        <SubmitRow label={t('account.createKey')} busy={request.busy} />
      </form>
      <FormError error={request.error} />
      {revoking && (
        <ConfirmDialog
          title={t('account.revokeKeyTitle', { name: revoking.name })}
          message={t('account.revokeKeyNote')}
          confirmLabel={t('account.revokeKey')}
          cancelLabel={t('account.keepKey')}
          onConfirm={() => revoke(revoking)}
          onCancel={() => setRevoking(undefined)}
        />
      )}
    </Section>
  );
}

/** The key itself, this once: copied with a button, or selected whole with one click. */
function NewKey({ created, onStored }: { created: ApiKeyCreated; onStored(): void }) {
  const { t } = useI18n();
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(created.key).then(
      () => setCopied(true),
      () => toast(t('account.keyCopyFailed')),
    );
  return (
    <div className="new-key" role="status" data-testid="new-key">
      <strong>{t('account.newKeyTitle', { name: created.name })}</strong>
      <p>{t('account.newKeyWarning')}</p>
      <div className="new-key-row">
        <code data-testid="new-key-value">{created.key}</code>
        <button type="button" className="button button-primary button-small" data-testid="copy-key" onClick={() => void copy()}>
          {copied ? t('account.keyCopied') : t('account.copyKey')}
        </button>
      </div>
      <div className="button-row">
        <button type="button" className="button button-ghost button-small" onClick={onStored}>
          {t('account.keyStored')}
        </button>
      </div>
    </div>
  );
}
