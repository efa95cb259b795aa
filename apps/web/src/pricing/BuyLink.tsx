// A buy button that ends where buying happens: the operator's page or address, or the pricing
// page when the operator left words there; none while the server has no contact (operatorContact.ts).
import type { ReactNode } from 'react';
import { LocaleLink } from '../ui/LocaleLink';
import { useOperatorContact } from './operatorContact';

interface BuyLinkProps {
  className: string;
  testId: string;
  onClick?(): void;
  children: ReactNode;
}

export function BuyLink({ className, testId, onClick, children }: BuyLinkProps) {
  const contact = useOperatorContact();
  if (contact?.kind === 'link') {
    return (
      <a
        className={className}
        href={contact.href}
        data-testid={testId}
        onClick={onClick}
        {...(contact.external && { target: '_blank', rel: 'noopener noreferrer' })}
      >
        {children}
      </a>
    );
  }
  if (contact?.kind === 'text') {
    return (
      <LocaleLink to="/pricing" className={className} data-testid={testId} onClick={onClick}>
        {children}
      </LocaleLink>
    );
  }
  return null;
}
