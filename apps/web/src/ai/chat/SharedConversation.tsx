// A conversation shared by its link: read by anyone, without an account and without the document.
import { useEffect, useState } from 'react';
import { sharedConversation, type ConversationPreview } from '../../api/aiChat';
import { useI18n } from '../../i18n/I18nProvider';
import { Icon } from '../../ui/Icon';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { MessageBubble } from './ChatPanel';
import '../ai.css';
import './chat.css';

export function SharedConversation({ shareCode }: { shareCode: string }) {
  const { t } = useI18n();
  const [shared, setShared] = useState<ConversationPreview>();
  const [error, setError] = useState<string>();
  useDocumentTitle(shared?.title ?? t('chatPdf.title'));

  useEffect(() => {
    sharedConversation(shareCode).then(setShared, (e: Error) => setError(e.message));
  }, [shareCode]);

  return (
    <div className="page ai-page">
      <header className="page-header">
        <h1>{shared?.title ?? t('chatPdf.title')}</h1>
        <p>{t('chatPdf.sharedIntro')}</p>
      </header>
      <section className="card chat-shared" data-testid="chat-shared">
        {error && (
          <p className="ai-error" role="alert">
            {error}
          </p>
        )}
        {!shared && !error && <span className="spinner" aria-hidden="true" />}
        {shared && (
          <>
            <p className="chat-file-name">
              <Icon name="file" size={18} />
              {shared.file_name}
            </p>
            <div className="chat-messages">
              {shared.messages.map((m) => (
                <MessageBubble key={`${m.created_at}-${m.role}`} message={m} />
              ))}
            </div>
          </>
        )}
      </section>
    </div>
  );
}
