// The optional digital signature: a PKCS#12 certificate file and its password, held only in this
// page's memory and sent in the sign call's body.
import { MAX_P12_BYTES } from '@quire/contracts';
import { useEffect, useId, useState } from 'react';
import { getServerConfig } from '../api/files';
import { useT } from '../i18n/I18nProvider';
import { FilePickButton } from '../ui/FilePickButton';
import { Icon } from '../ui/Icon';
import { useToast } from '../ui/Toast';

export interface DigitalState {
  on: boolean;
  /** The user's own certificate, or the one the operator configured for everyone. */
  certificate: 'uploaded' | 'operator';
  /** The certificate file, base64, and its name. */
  p12?: { base64: string; name: string };
  password: string;
  /** A trusted timestamp from the server's timestamp authority (PAdES B-T); offered only where it has one. */
  timestamp: boolean;
}

/** A file's bytes as base64. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsDataURL(file);
  });
}

interface DigitalSectionProps {
  state: DigitalState;
  onChange(state: DigitalState): void;
  /** Digital signing is on but no signature is placed to show it. */
  needsSignature: boolean;
}

export function DigitalSection({ state, onChange, needsSignature }: DigitalSectionProps) {
  const t = useT();
  const toast = useToast();
  const passwordId = useId();
  const [operatorOffered, setOperatorOffered] = useState(false);
  const [timestampOffered, setTimestampOffered] = useState(false);
  useEffect(() => {
    void getServerConfig().then((config) => {
      setOperatorOffered(config.signing_certificate);
      setTimestampOffered(config.timestamp_authority);
    });
  }, []);
  const uploading = !operatorOffered || state.certificate === 'uploaded';

  const pick = async (file: File) => {
    if (file.size > MAX_P12_BYTES) {
      toast(t('sign.certificateTooLarge'));
      return;
    }
    onChange({ ...state, p12: { base64: await readBase64(file), name: file.name } });
  };

  return (
    <section className="sign-section">
      <label className="check-row">
        <input type="checkbox" checked={state.on} data-testid="digital-on" onChange={(e) => onChange({ ...state, on: e.target.checked })} />
        {t('sign.digital')}
      </label>
      {state.on && (
        <>
          {operatorOffered && (
            <fieldset className="sign-certificates">
              <legend className="field-label">{t('sign.certificate')}</legend>
              {(['operator', 'uploaded'] as const).map((kind) => (
                <label key={kind} className="check-row">
                  <input
                    type="radio"
                    name={`${passwordId}-certificate`}
                    checked={state.certificate === kind}
                    data-testid={`certificate-${kind}`}
                    onChange={() => onChange({ ...state, certificate: kind })}
                  />
                  {kind === 'operator' ? t('sign.certificateOperator') : t('sign.certificateUploaded')}
                </label>
              ))}
            </fieldset>
          )}
          {uploading && (
            <>
              <p className="panel-note">{t('sign.digitalNote')}</p>
              <FilePickButton
                className="button button-outline button-small sign-certificate"
                accept=".p12,.pfx,application/x-pkcs12"
                testId="certificate-file"
                onPick={(file) => void pick(file)}
              >
                <Icon name="lock" size={16} /> {state.p12 ? state.p12.name : t('sign.chooseCertificate')}
              </FilePickButton>
              <label className="field" htmlFor={passwordId}>
                <span className="field-label">{t('sign.certificatePassword')}</span>
                <input
                  id={passwordId}
                  type="password"
                  autoComplete="off"
                  value={state.password}
                  data-testid="certificate-password"
                  onChange={(e) => onChange({ ...state, password: e.target.value })}
                />
              </label>
            </>
          )}
          {timestampOffered && (
            <label className="check-row">
              <input
                type="checkbox"
                checked={state.timestamp}
                data-testid="timestamp-on"
                onChange={(e) => onChange({ ...state, timestamp: e.target.checked })}
              />
              {t('sign.timestamp')}
            </label>
          )}
          {timestampOffered && state.timestamp && <p className="panel-note">{t('sign.timestampNote')}</p>}
          {needsSignature && <p className="panel-hint">{t('sign.digitalNeedsSignature')}</p>}
        </>
      )}
    </section>
  );
}
