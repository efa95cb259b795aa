// The box a question about the document is typed in: Enter sends, Shift+Enter starts a new line;
// while an answer streams, Stop takes Send's place.
import { AI_CONSTANTS } from '@quire/contracts';
import type { KeyboardEvent } from 'react';
import { useI18n } from '../../i18n/I18nProvider';
import { Icon } from '../../ui/Icon';

interface QuestionFormProps {
  question: string;
  onChange(question: string): void;
  onAsk(): void;
  /** The document is analysed: questions can be asked. */
  ready: boolean;
  streaming: boolean;
  onStop(): void;
  placeholder: string;
  testId: string;
}

export function QuestionForm({ question, onChange, onAsk, ready, streaming, onStop, placeholder, testId }: QuestionFormProps) {
  const { t } = useI18n();
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onAsk();
    }
  };
  return (
    <form
      className="chat-ask"
      onSubmit={(e) => {
        e.preventDefault();
        onAsk();
      }}
    >
      <textarea
        className="chat-question"
        value={question}
        maxLength={AI_CONSTANTS.maxQuestionChars - 1}
        rows={3}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKey}
        placeholder={ready ? placeholder : t('chatPdf.waitForAnalysis')}
        aria-label={t('chatPdf.question')}
        disabled={!ready}
        data-testid={`${testId}-question`}
      />
      {streaming ? (
        <button type="button" className="button button-outline" onClick={onStop} data-testid={`${testId}-stop`}>
          {t('chatPdf.stop')}
        </button>
      ) : (
        <button type="submit" className="button button-primary" disabled={!ready || !question.trim()} data-testid={`${testId}-send`}>
          <Icon name="arrowRight" size={18} />
          <span className="visually-hidden">{t('chatPdf.send')}</span>
        </button>
      )}
    </form>
  );
}
