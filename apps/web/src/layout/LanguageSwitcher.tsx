import { useLocation, useNavigate } from 'react-router';
import { useI18n } from '../i18n/I18nProvider';
import { langPrefixes, localeByPrefix, localeNames, switchLocalePath, type LangPrefix } from '../i18n/locales';
import { Icon } from '../ui/Icon';
import { rememberLanguage } from '../i18n/rememberedLanguage';

export function LanguageSwitcher() {
  const { prefix, t } = useI18n();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <label className="language-switcher">
      <Icon name="globe" size={18} />
      {/* The current language's name sets the width; the select lies over it (its own width is its longest option's). */}
      <span className="language-current" aria-hidden="true">
        {localeNames[localeByPrefix[prefix]]}
        <Icon name="chevronDown" size={14} />
      </span>
      <select
        value={prefix}
        aria-label={t('nav.language')}
        data-testid="language-switcher"
        onChange={(e) => {
          const chosen = e.target.value as LangPrefix;
          rememberLanguage(chosen);
          void navigate(switchLocalePath(location.pathname, chosen) + location.search);
        }}
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
