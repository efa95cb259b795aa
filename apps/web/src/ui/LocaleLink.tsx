import { Link, NavLink, type LinkProps, type NavLinkProps, useLocation } from 'react-router';
import { useI18n } from '../i18n/I18nProvider';

/** A link to an app path that keeps the current language prefix. */
export function LocaleLink({ to, ...rest }: Omit<LinkProps, 'to'> & { to: string }) {
  return <Link to={useI18n().localePath(to)} {...rest} />;
}

/**
 * A navigation link that keeps the language prefix. A link with a query (the editor's two modes)
 * is current only when the address carries the same values, not merely the same path.
 */
export function LocaleNavLink({ to, className, ...rest }: Omit<NavLinkProps, 'to' | 'className'> & { to: string; className: string }) {
  const { search } = useLocation();
  const current = new URLSearchParams(search);
  const sameQuery = [...new URLSearchParams(to.split('?')[1] ?? '')].every(([key, value]) => current.get(key) === value);
  return (
    <NavLink
      to={useI18n().localePath(to)}
      className={({ isActive }) => `${className}${isActive && sameQuery ? ' active' : ''}`}
      {...rest}
    />
  );
}
