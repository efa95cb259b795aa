// How a user reaches the operator to buy a plan (QUIRE_OPERATOR_CONTACT). Quire takes no payment,
// so a buy button is only as good as this: a page or an address it opens, or the operator's own
// words on the pricing page; without any, no buy button is shown.
import { useEffect, useState } from 'react';
import { getServerConfig } from '../api/files';

export type OperatorContact =
  /** The operator's page (a new tab) or a mail to their address. */
  | { kind: 'link'; href: string; external: boolean }
  /** Neither: the operator's own words, which the pricing page shows. */
  | { kind: 'text'; text: string }
  | { kind: 'none' };

export function operatorContactOf(contact: string): OperatorContact {
  if (/^https?:\/\//i.test(contact)) return { kind: 'link', href: contact, external: true };
  if (contact.includes('@')) return { kind: 'link', href: `mailto:${contact}`, external: false };
  return contact ? { kind: 'text', text: contact } : { kind: 'none' };
}

/** The server's contact; undefined until it answers. */
export function useOperatorContact(): OperatorContact | undefined {
  const [contact, setContact] = useState<OperatorContact>();
  useEffect(() => {
    void getServerConfig().then((config) => setContact(operatorContactOf(config.operator_contact)));
  }, []);
  return contact;
}
