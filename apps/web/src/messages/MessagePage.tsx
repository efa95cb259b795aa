// /app/message: the notice page opened from the bell, the message centre as a page.
import { useI18n } from '../i18n/I18nProvider';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { MessageCentre } from './MessageCentre';

export function MessagePage() {
  const { t } = useI18n();
  useDocumentTitle(t('messages.title'));
  return (
    <div className="page message-page" data-testid="message-page">
      <header className="page-header">
        <h1>{t('messages.title')}</h1>
      </header>
      <section className="card">
        <MessageCentre compact={false} />
      </section>
    </div>
  );
}
