// A hint on a desktop's home pages: the keys that bookmark Quire (Ctrl+D, or Cmd+D on a Mac).
// It goes for good once closed or once those keys are pressed; phones and tablets never see it.
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from './Icon';
import { useInterruption } from './interruptions';

const DISMISSED_KEY = 'quire.bookmarkHint.dismissed';
/** A desktop: a fine pointer and a wide window. */
const DESKTOP = '(pointer: fine) and (min-width: 1024px)';

const isMac = () => /Mac|iPhone|iPad/.test(`${navigator.platform} ${navigator.userAgent}`);

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return true;
  }
}

export function BookmarkHint() {
  const { t } = useI18n();
  const [shown, setShown] = useState(() => !dismissedBefore() && window.matchMedia(DESKTOP).matches);
  const turn = useInterruption('bookmark', shown);

  const dismiss = () => {
    setShown(false);
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Storage refused (private mode): the hint goes for this visit only.
    }
  };

  // Pressing the keys is what the hint asked for: it has done its job.
  useEffect(() => {
    if (!shown) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'd') dismiss();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!turn) return null;
  const keys = isMac() ? '⌘ Cmd + D' : 'Ctrl + D';
  return (
    <aside className="bookmark-hint" data-testid="bookmark-hint" aria-label={t('bookmark.label')}>
      <Icon name="star" size={18} />
      <p>{t('bookmark.text', { keys })}</p>
      <button type="button" className="icon-button" aria-label={t('bookmark.close')} onClick={dismiss} data-testid="bookmark-hint-close">
        <Icon name="close" size={16} />
      </button>
    </aside>
  );
}
