// The chat beside the document: its summary (keywords, outline, suggested questions), the
// conversation with answers streaming in, the pages they cite as links, and the file's other
// conversations to reopen, pin, rename, share or delete.
import { type AiCitation, type AiSummary, CONVERSATION_ID_HEADER, type LimitRefusal } from '@quire/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  ASK_CONVERSATION_STREAM,
  ASK_FILE_STREAM,
  conversationsOf,
  openConversation,
  syncConversation,
  type AiConversation,
  type AiMessage,
} from '../../api/aiChat';
import type { ApiError } from '../../api/client';
import { useI18n } from '../../i18n/I18nProvider';
import { useToast } from '../../ui/Toast';
import { useAiStream } from '../useAiStream';
import { ConversationList } from './ConversationList';
import { QuestionForm } from './QuestionForm';

interface ChatPanelProps {
  fileId: string;
  /** The analysis is done: questions can be asked. */
  ready: boolean;
  initialConversation?: string | undefined;
  summary: { data?: AiSummary; error?: ApiError; loading: boolean };
  onJump(page: number): void;
  onRefusal(refusal: LimitRefusal): void;
}

type ShownMessage = Pick<AiMessage, 'role' | 'content' | 'citations'> & { message_id?: string; tokens?: number };

export function ChatPanel({ fileId, ready, initialConversation, summary, onJump, onRefusal }: ChatPanelProps) {
  const { t } = useI18n();
  const toast = useToast();
  const stream = useAiStream();
  const [conversationId, setConversationId] = useState(initialConversation);
  const [messages, setMessages] = useState<AiMessage[]>([]);
  const [pending, setPending] = useState<string>();
  const [error, setError] = useState<string>();
  const [question, setQuestion] = useState('');
  const [conversations, setConversations] = useState<AiConversation[]>([]);
  const endRef = useRef<HTMLDivElement>(null);
  const streaming = stream.answer.status === 'streaming';

  const refreshList = useCallback(() => conversationsOf(fileId).then(setConversations, () => undefined), [fileId]);
  useEffect(() => {
    void refreshList();
  }, [refreshList]);

  const open = useCallback(
    async (id: string | undefined) => {
      stream.reset();
      setPending(undefined);
      setError(undefined);
      setConversationId(id);
      if (!id) return setMessages([]);
      try {
        setMessages((await openConversation(id)).messages);
      } catch (e) {
        toast(e instanceof Error ? e.message : String(e));
      }
    },
    [stream.reset, toast],
  );
  useEffect(() => {
    if (initialConversation) void open(initialConversation);
  }, [initialConversation, open]);

  // Back on this page, what was asked meanwhile in another window is caught up with.
  const latest = messages.at(-1)?.created_at ?? 0;
  useEffect(() => {
    if (!conversationId || streaming) return;
    const catchUp = () => {
      if (document.visibilityState !== 'visible') return;
      syncConversation(conversationId, latest).then(
        (d) =>
          d.messages.length &&
          setMessages((shown) => [...shown, ...d.messages.filter((m) => !shown.some((s) => s.message_id === m.message_id))]),
        () => undefined,
      );
    };
    document.addEventListener('visibilitychange', catchUp);
    return () => document.removeEventListener('visibilitychange', catchUp);
  }, [conversationId, streaming, latest]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view follows the conversation as it grows
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, pending, stream.answer.text]);

  const ask = async (asked: string) => {
    const text = asked.trim();
    if (!text || !ready || streaming) return;
    setError(undefined);
    setPending(text);
    setQuestion('');
    let id = conversationId;
    let began = false;
    const answer = await stream.start(
      id ? ASK_CONVERSATION_STREAM : ASK_FILE_STREAM,
      id ? { conversation_id: id, question: text } : { file_id: fileId, question: text },
      (headers) => {
        began = true;
        id = headers.get(CONVERSATION_ID_HEADER) ?? id;
      },
    );
    if (answer.status === 'failed' && answer.error) {
      if (answer.error.upgrade) onRefusal(answer.error.upgrade);
      else setError(answer.error.message);
    }
    if (!began || !id) {
      // Refused before the stream began: nothing was recorded, so the question goes back in the box.
      setQuestion(text);
      setPending(undefined);
      stream.reset();
      return;
    }
    setConversationId(id);
    try {
      setMessages((await openConversation(id)).messages);
      setPending(undefined);
      stream.reset();
    } catch {
      // The answer stays shown as it streamed.
    }
    void refreshList();
  };

  const shownPending: ShownMessage[] = pending
    ? [
        { role: 'user', content: pending, citations: [] },
        ...(stream.answer.status !== 'idle' && (stream.answer.text || streaming)
          ? [{ role: 'assistant' as const, content: stream.answer.text, citations: stream.answer.citations }]
          : []),
      ]
    : [];

  return (
    <div className="chat-panel" data-testid="chat-panel">
      <ConversationList
        conversations={conversations}
        current={conversationId}
        onOpen={(id) => void open(id)}
        onChanged={() => void refreshList()}
        onDeleted={(id) => {
          if (id === conversationId) void open(undefined);
          void refreshList();
        }}
      />
      <div className="chat-messages" data-testid="chat-messages" aria-live="polite">
        {<SummaryCard summary={summary} onJump={onJump} onAsk={(q) => void ask(q)} ready={ready} />}
        {[...messages, ...shownPending].map((m, i) => (
          <MessageBubble key={m.message_id ?? `pending-${i}`} message={m} onJump={onJump} />
        ))}
        {streaming && !stream.answer.text && (
          <p className="chat-status" role="status">
            <span className="spinner spinner-small" aria-hidden="true" />
            {t('chatPdf.thinking')}
          </p>
        )}
        {error && (
          <p className="ai-error" role="alert" data-testid="chat-answer-error">
            {error}
          </p>
        )}
        <div ref={endRef} />
      </div>
      <QuestionForm
        question={question}
        onChange={setQuestion}
        onAsk={() => void ask(question)}
        ready={ready}
        streaming={streaming}
        onStop={stream.stop}
        placeholder={t('chatPdf.askPlaceholder')}
        testId="chat"
      />
    </div>
  );
}

function SummaryCard({
  summary,
  ready,
  onJump,
  onAsk,
}: {
  summary: ChatPanelProps['summary'];
  ready: boolean;
  onJump(page: number): void;
  onAsk(question: string): void;
}) {
  const { t } = useI18n();
  const data = summary.data;
  if (summary.error && !summary.error.upgrade)
    return (
      <p className="ai-error" role="alert" data-testid="chat-summary-error">
        {summary.error.message}
      </p>
    );
  if (!data)
    return ready && summary.loading ? (
      <p className="chat-status" data-testid="chat-summarising">
        <span className="spinner spinner-small" aria-hidden="true" />
        {t('chatPdf.summarising')}
      </p>
    ) : null;
  return (
    <article className="chat-summary" data-testid="chat-summary">
      <h2>{t('chatPdf.summary')}</h2>
      <p className="chat-summary-text">{data.summary}</p>
      {data.keywords.length > 0 && (
        <ul className="chat-keywords" aria-label={t('chatPdf.keywords')} data-testid="chat-keywords">
          {data.keywords.map((k) => (
            <li key={k}>{k}</li>
          ))}
        </ul>
      )}
      {data.outlines.length > 0 && (
        <>
          <h3>{t('chatPdf.outline')}</h3>
          <ul className="chat-outline" data-testid="chat-outline">
            {data.outlines.map((o) => (
              <li key={`${o.page}-${o.title}`} style={{ paddingInlineStart: (o.level - 1) * 14 }}>
                <button type="button" className="link-button" onClick={() => onJump(o.page)}>
                  {o.title}
                </button>
                <span className="chat-outline-page">{o.page}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {data.questions.length > 0 && (
        <>
          <h3>{t('chatPdf.suggested')}</h3>
          <div className="chat-suggestions" data-testid="chat-suggestions">
            {data.questions.map((q) => (
              <button key={q} type="button" className="chat-suggestion" onClick={() => onAsk(q)}>
                {q}
              </button>
            ))}
          </div>
        </>
      )}
    </article>
  );
}

/** A message; an answer's "(page N)" marks and its citations jump to the page. */
export function MessageBubble({ message, onJump }: { message: ShownMessage; onJump?: (page: number) => void }) {
  const { t } = useI18n();
  return (
    <div className={`chat-message ${message.role}`} data-testid={`chat-message-${message.role}`}>
      <p className="chat-message-text">{withPageLinks(message.content, onJump, (page) => t('chatPdf.pageN', { page }))}</p>
      {message.role === 'assistant' && message.citations.length > 0 && <Citations citations={message.citations} onJump={onJump} />}
    </div>
  );
}

function Citations({ citations, onJump }: { citations: AiCitation[]; onJump?: ((page: number) => void) | undefined }) {
  const { t } = useI18n();
  const pages = [...new Set(citations.map((c) => c.page))];
  return (
    <p className="chat-citations" data-testid="chat-citations">
      <span>{t('chatPdf.sources')}</span>
      {pages.map((page) => (
        <button
          key={page}
          type="button"
          className="chat-cite"
          disabled={!onJump}
          title={citations.find((c) => c.page === page)?.text.slice(0, 200)}
          onClick={() => onJump?.(page)}
          data-testid="chat-cite"
          data-page={page}
        >
          {t('chatPdf.pageN', { page })}
        </button>
      ))}
    </p>
  );
}

/** The text with each "(page N)" as a button to that page (plain text where nothing can jump). */
function withPageLinks(text: string, onJump: ((page: number) => void) | undefined, label: (page: number) => string) {
  if (!onJump) return text;
  return text.split(/(\(page \d+\))/).map((part, i) => {
    const page = /^\(page (\d+)\)$/.exec(part)?.[1];
    if (!page) return part;
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in a fixed order
      <button key={i} type="button" className="chat-cite inline" onClick={() => onJump(Number(page))}>
        {label(Number(page))}
      </button>
    );
  });
}
