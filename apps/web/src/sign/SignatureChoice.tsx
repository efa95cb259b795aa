// A signature shown as a button that places it: Sign PDF's list and the editor's signature tool.
import type { ButtonHTMLAttributes } from 'react';
import { useT } from '../i18n/I18nProvider';
import type { SignatureImage } from './signatureImage';

type SignatureChoiceProps = { image: SignatureImage; 'data-testid': string } & ButtonHTMLAttributes<HTMLButtonElement>;

export function SignatureChoice({ image, className = '', ...button }: SignatureChoiceProps) {
  const t = useT();
  return (
    <button type="button" className={`signature-choice ${className}`} aria-label={t('sign.place')} {...button}>
      <img src={image.png} alt="" />
    </button>
  );
}
