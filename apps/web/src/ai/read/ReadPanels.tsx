// AI read's tools, each working on the text selected in the document and streamed: explain
// (WordNet's senses, the part of speech chosen from the sentence, and a model's explanation where
// configured), rewrite (by rules, or a model),
// summarise (the selection, or the whole document) and ask (about the whole document, with the
// pages the answer rests on).
import {
  AI_CONSTANTS,
  AI_LANGUAGE_LIMITS,
  CONVERSATION_ID_HEADER,
  type ExplainAnswer,
  explainAnswer,
  type LimitRefusal,
  type RewriteAnswer,
  rewriteAnswer,
} from '@quire/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ASK_CONVERSATION_STREAM, ASK_FILE_STREAM } from '../../api/aiChat';
import { EXPLAIN_STREAM, REWRITE_STREAM, type RewriteMode } from '../../api/aiLanguage';
import { useI18n } from '../../i18n/I18nProvider';
import { Icon } from '../../ui/Icon';
import { useCopyText } from '../../ui/useCopyText';
import { MessageBubble } from '../chat/ChatPanel';
import { QuestionForm } from '../chat/QuestionForm';
import { type AiAnswer, useAiStream } from '../useAiStream';

/** Text selected in the document, with the page's text around it; `at` tells one selection from the next. */
export interface Selected {
  text: string;
  context: string;
  page: number;
  at: number;
}

interface PanelProps {
  selected: Selected | undefined;
  onRefusal(refusal: LimitRefusal): void;
}

/** A streamed call for each new selection (none while `call` is undefined); a refusal opens the upgrade dialog. */
function useSelectionStream(
  selected: Selected | undefined,
  call: ((s: Selected) => { path: string; body: unknown }) | undefined,
  onRefusal: PanelProps['onRefusal'],
) {
  const stream = useAiStream();
  const refusal = useRef(onRefusal);
  refusal.current = onRefusal;
  const { start, reset } = stream;
  useEffect(() => {
    if (!selected || !call) return reset();
    const { path, body } = call(selected);
    void start(path, body).then((answer) => {
      if (answer.error?.upgrade) refusal.current(answer.error.upgrade);
    });
  }, [selected, call, start, reset]);
  return stream;
}

function SelectFirst({ text }: { text: string }) {
  return (
    <p className="ai-hint read-select-first" data-testid="read-select-first">
      <Icon name="pointer" size={18} />
      {text}
    </p>
  );
}

function Loading() {
  const { t } = useI18n();
  return (
    <p className="chat-status" role="status">
      <span className="spinner spinner-small" aria-hidden="true" />
      {t('aiRead.working')}
    </p>
  );
}

const explainCall = (s: Selected) => ({
  path: EXPLAIN_STREAM,
  body: { text: s.text, context: s.context.slice(0, AI_LANGUAGE_LIMITS.maxContextChars) },
});

export function ExplainPanel({ selected, onRefusal }: PanelProps) {
  const { t } = useI18n();
  const tooLong = !!selected && selected.text.length > AI_LANGUAGE_LIMITS.maxExplainChars;
  const stream = useSelectionStream(tooLong ? undefined : selected, explainCall, onRefusal);
  const parsed = explainAnswer.safeParse(stream.answer.result);
  const answer = parsed.success ? parsed.data : undefined;
  const partsOfSpeech: Record<ExplainAnswer['senses'][number]['pos'], string> = {
    noun: t('aiRead.pos.noun'),
    verb: t('aiRead.pos.verb'),
    adj: t('aiRead.pos.adj'),
    adv: t('aiRead.pos.adv'),
  };
  if (!selected) return <SelectFirst text={t('aiRead.selectToExplain')} />;
  if (tooLong) return <SelectFirst text={t('aiRead.explainTooLong', { max: AI_LANGUAGE_LIMITS.maxExplainChars })} />;
  return (
    <div className="read-result" data-testid="read-explain">
      <h2 className="read-term">{selected.text}</h2>
      {stream.answer.status === 'streaming' && !stream.answer.text && <Loading />}
      {answer?.sentence && <blockquote className="read-sentence">{answer.sentence}</blockquote>}
      {/* A model's explanation, as it is written (the classic provider has none: WordNet's senses follow). */}
      {stream.answer.text ? (
        <StreamedAnswer answer={stream.answer} onStop={stream.stop} testId="read-explanation" />
      ) : (
        stream.answer.error && !stream.answer.error.upgrade && <p className="ai-error">{stream.answer.error.message}</p>
      )}
      {answer && answer.senses.length === 0 && <p className="ai-hint">{t('aiRead.noSenses', { text: answer.text })}</p>}
      {answer && answer.senses.length > 0 && (
        <ol className="read-senses">
          {answer.senses.map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: WordNet's senses, in its order
            <li key={i} className={s.pos === answer.pos ? 'chosen' : ''} data-testid="read-sense" data-pos={s.pos}>
              <span className="read-pos">{partsOfSpeech[s.pos]}</span> {s.definition}
              {s.synonyms.length > 0 && (
                <span className="read-synonyms">
                  {t('aiRead.synonyms')} {s.synonyms.join(', ')}
                </span>
              )}
              {s.examples.map((e) => (
                <q key={e} className="read-example">
                  {e}
                </q>
              ))}
            </li>
          ))}
        </ol>
      )}
      {answer && !stream.answer.text && <p className="ai-quota">{t('aiRead.tokens', { tokens: answer.tokens })}</p>}
    </div>
  );
}

export function RewritePanel({ selected, onRefusal }: PanelProps) {
  const { t } = useI18n();
  const [mode, setMode] = useState<RewriteMode>('simplify');
  const copyText = useCopyText();
  const call = useCallback((s: Selected) => ({ path: REWRITE_STREAM, body: { text: s.text, mode } }), [mode]);
  const stream = useSelectionStream(selected, call, onRefusal);
  const parsed = rewriteAnswer.safeParse(stream.answer.result);
  const answer = parsed.success ? parsed.data : undefined;
  const kinds: Record<RewriteAnswer['changes'][number]['kind'], string> = {
    'plain-word': t('aiRead.change.plainWord'),
    wordy: t('aiRead.change.wordy'),
    split: t('aiRead.change.split'),
    passive: t('aiRead.change.passive'),
  };
  if (!selected) return <SelectFirst text={t('aiRead.selectToRewrite')} />;
  return (
    <div className="read-result" data-testid="read-rewrite">
      <label className="ai-select">
        <span>{t('aiRead.rewriteMode')}</span>
        <select value={mode} onChange={(e) => setMode(e.target.value as RewriteMode)} data-testid="read-rewrite-mode">
          <option value="simplify">{t('aiRead.mode.simplify')}</option>
          <option value="shorten">{t('aiRead.mode.shorten')}</option>
          <option value="paraphrase">{t('aiRead.mode.paraphrase')}</option>
        </select>
      </label>
      {stream.answer.status === 'streaming' && !stream.answer.text && <Loading />}
      <StreamedAnswer answer={stream.answer} onStop={stream.stop} testId="read-rewritten" />
      {answer && (
        <>
          <button
            type="button"
            className="button button-small button-outline"
            onClick={() => void copyText(answer.text, { copied: t('aiProofread.copied'), refused: t('aiProofread.copyFailed') })}
          >
            <Icon name="copy" size={16} />
            {t('aiProofread.copy')}
          </button>
          {answer.changes.length > 0 ? (
            <ul className="read-changes" data-testid="read-changes">
              {answer.changes.map((c) => (
                <li key={`${c.start}-${c.kind}`} data-kind={c.kind}>
                  <span className="read-change-kind">{kinds[c.kind]}</span> <del>{c.from}</del>
                  {c.to !== null && <ins>{c.to}</ins>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="ai-hint">{t('aiRead.noChanges')}</p>
          )}
          <p className="ai-hint" data-testid="read-rewrite-note">
            {answer.note}
          </p>
        </>
      )}
    </div>
  );
}

/** A streamed answer's text, its state and Stop. */
function StreamedAnswer({ answer, onStop, testId }: { answer: AiAnswer; onStop(): void; testId: string }) {
  const { t } = useI18n();
  if (answer.status === 'idle') return null;
  return (
    <div className="read-streamed">
      <p className="read-rewritten" data-testid={testId} data-status={answer.status}>
        {answer.text}
      </p>
      {answer.status === 'streaming' && (
        <button type="button" className="button button-small button-outline" onClick={onStop} data-testid="read-stop">
          {t('chatPdf.stop')}
        </button>
      )}
      {answer.error && !answer.error.upgrade && <p className="ai-error">{answer.error.message}</p>}
      {answer.tokens !== undefined && <p className="ai-quota">{t('aiRead.tokens', { tokens: answer.tokens })}</p>}
    </div>
  );
}

export function SummarisePanel({ selected, onRefusal, fileId, ready }: PanelProps & { fileId: string; ready: boolean }) {
  const { t } = useI18n();
  const stream = useAiStream();
  const [whole, setWhole] = useState(false);
  const enough = !!selected && selected.text.length >= AI_CONSTANTS.minTextChars;
  const refusal = useRef(onRefusal);
  refusal.current = onRefusal;
  const { start } = stream;
  const run = useCallback(
    async (path: string, body: unknown) => {
      const answer = await start(path, body);
      if (answer.error?.upgrade) refusal.current(answer.error.upgrade);
    },
    [start],
  );
  // A selection long enough is summarised as soon as it is chosen.
  useEffect(() => {
    if (!selected || selected.text.length < AI_CONSTANTS.minTextChars) return;
    setWhole(false);
    void run('summary/text/stream', { text: selected.text });
  }, [selected, run]);
  return (
    <div className="read-result" data-testid="read-summarise">
      {!enough && (
        <SelectFirst text={selected ? t('aiRead.selectMore', { min: AI_CONSTANTS.minTextChars }) : t('aiRead.selectToSummarise')} />
      )}
      <button
        type="button"
        className="button button-small button-outline"
        disabled={!ready || stream.answer.status === 'streaming'}
        onClick={() => {
          setWhole(true);
          void run('chat/summary/stream', { file_id: fileId });
        }}
        data-testid="read-summarise-document"
      >
        {t('aiRead.summariseDocument')}
      </button>
      {stream.answer.status !== 'idle' && (
        <h2 className="read-term">{whole ? t('aiRead.documentSummary') : t('aiRead.selectionSummary')}</h2>
      )}
      <StreamedAnswer answer={stream.answer} onStop={stream.stop} testId="read-summary" />
    </div>
  );
}

interface Asked {
  question: string;
  answer: AiAnswer;
}

export function AskPanel({
  selected,
  onRefusal,
  fileId,
  ready,
  onJump,
}: PanelProps & { fileId: string; ready: boolean; onJump(page: number): void }) {
  const { t } = useI18n();
  const stream = useAiStream();
  const [question, setQuestion] = useState('');
  const [asked, setAsked] = useState<Asked[]>([]);
  const [pending, setPending] = useState<string>();
  const conversation = useRef<string | undefined>(undefined);

  // A selection is quoted in the question, to ask about it.
  useEffect(() => {
    if (selected) setQuestion(`“${selected.text.slice(0, 400)}” `);
  }, [selected]);

  const ask = async () => {
    const text = question.trim();
    if (!text || !ready) return;
    setPending(text);
    setQuestion('');
    const id = conversation.current;
    const answer = await stream.start(
      id ? ASK_CONVERSATION_STREAM : ASK_FILE_STREAM,
      id ? { conversation_id: id, question: text } : { file_id: fileId, question: text },
      (headers) => {
        conversation.current = headers.get(CONVERSATION_ID_HEADER) ?? conversation.current;
      },
    );
    setPending(undefined);
    if (answer.error?.upgrade) onRefusal(answer.error.upgrade);
    if (answer.status === 'failed' && !answer.text) {
      setQuestion(text);
      if (!answer.error?.upgrade) setAsked((a) => [...a, { question: text, answer }]);
    } else setAsked((a) => [...a, { question: text, answer }]);
    stream.reset();
  };

  const streaming = stream.answer.status === 'streaming';
  return (
    <div className="read-result read-ask" data-testid="read-ask">
      <div className="chat-messages">
        {asked.length === 0 && !pending && <p className="ai-hint">{t('aiRead.askHint')}</p>}
        {asked.map((a, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the questions of this reading, in order
          <div key={i} className="read-asked">
            <MessageBubble message={{ role: 'user', content: a.question, citations: [] }} />
            {a.answer.text ? (
              <MessageBubble message={{ role: 'assistant', content: a.answer.text, citations: a.answer.citations }} onJump={onJump} />
            ) : (
              a.answer.error && <p className="ai-error">{a.answer.error.message}</p>
            )}
          </div>
        ))}
        {pending && (
          <>
            <MessageBubble message={{ role: 'user', content: pending, citations: [] }} />
            {stream.answer.text && (
              <MessageBubble
                message={{ role: 'assistant', content: stream.answer.text, citations: stream.answer.citations }}
                onJump={onJump}
              />
            )}
          </>
        )}
      </div>
      <QuestionForm
        question={question}
        onChange={setQuestion}
        onAsk={() => void ask()}
        ready={ready}
        streaming={streaming}
        onStop={stream.stop}
        placeholder={t('aiRead.askPlaceholder')}
        testId="read"
      />
    </div>
  );
}
