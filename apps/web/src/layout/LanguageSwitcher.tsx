import { useLocation, useNavigate } from 'react-router';
import { useI18n } from '../i18n/I18nProvider';
import { langPrefixes, localeByPrefix, localeNames, switchLocalePath, type LangPrefix } from '../i18n/locales';
import { Icon } from '../ui/Icon';

export function LanguageSwitcher() {
  const { prefix, t } = useI18n();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <label className="language-switcher">
      <Icon name="globe" size={18} />
      <select
        value={prefix}
        aria-label={t('nav.language')}
        data-testid="language-switcher"
        onChange={(e) => navigate(switchLocalePath(location.pathname, e.target.value as LangPrefix) + location.search)}
      >
        {langPrefixes.map((p) => (
          <option key={p} value={p}>
            {localeNames[localeByPrefix[p]]}
          </option>
        ))}
      </select>
    </label>
  );
}
