// The first stop of Tab on every page: past the sidebar or the header, straight to the page's own content.
import { useT } from '../i18n/I18nProvider';

/** The id of the layouts' main element, the link's target. */
export const CONTENT_ID = 'content';

export function SkipLink() {
  const t = useT();
  return (
    <a
      href={`#${CONTENT_ID}`}
      className="skip-link"
      data-testid="skip-link"
      onClick={(e) => {
        // Focus moves into the page without a fragment in the address (the router would see a new location).
        e.preventDefault();
        document.getElementById(CONTENT_ID)?.focus();
      }}
    >
      {t('nav.skipToContent')}
    </a>
  );
}
