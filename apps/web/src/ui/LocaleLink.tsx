import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router';
import { useI18n } from '../i18n/I18nProvider';

/** A link to an app path that keeps the current language prefix. */
export function LocaleLink({ to, ...rest }: Omit<LinkProps, 'to'> & { to: string }) {
  return <Link to={useI18n().localePath(to)} {...rest} />;
}

export function LocaleNavLink({ to, ...rest }: Omit<NavLinkProps, 'to'> & { to: string }) {
  return <NavLink to={useI18n().localePath(to)} {...rest} />;
}
