// /app/ai-proofread: pasted text or a document's text checked for spelling (Hunspell), grammar
// and style; each issue marked in place with its suggestions, accepted or ignored one by one or all
// at once, and the corrected text copied or downloaded.
import { type LimitRefusal, proofreadAnswer } from '@quire/contracts';
import { useEffect, useMemo, useState } from 'react';
import { UpgradeDialog } from '../../account/UpgradeDialog';
import { PROOFREAD_FILE_STREAM, PROOFREAD_TEXT_STREAM, proofreadLanguages } from '../../api/aiLanguage';
import { ApiError } from '../../api/client';
import { getServerConfig } from '../../api/files';
import { uploadFile } from '../../api/upload';
import { useI18n } from '../../i18n/I18nProvider';
import { saveBlob } from '../../ui/download';
import { useHandedOffFile } from '../../files/handOff';
import { FilePickButton } from '../../ui/FilePickButton';
import { Icon } from '../../ui/Icon';
import { Tabs } from '../../ui/Tabs';
import { useToast } from '../../ui/Toast';
import { useCopyText } from '../../ui/useCopyText';
import { AiPage } from '../AiPage';
import { AI_DOCUMENT_ACCEPT } from '../documentTypes';
import { languageNamer } from '../languageNames';
import { useAiStream } from '../useAiStream';
import { acceptAll, acceptIssue, ignoreIssue, type OpenIssue, type Review, segments, startReview } from './proofreadModel';

/** The proofreader reads a PDF's text (the server refuses other types with 3100). */

type Mode = 'text' | 'file';

export function AiProofreadPage() {
  const { t } = useI18n();
  return (
    <AiPage title={t('aiProofread.title')} intro={t('aiProofread.intro')} signInText={t('aiProofread.signIn')}>
      <Proofreader />
    </AiPage>
  );
}

/** The dictionary matching the page's language if there is one ("de-de" → "de-DE"), else American English. */
function defaultLanguage(languages: readonly string[], locale: string): string {
  const [lang, region = ''] = locale.split('-');
  return (
    languages.find((l) => l.toLowerCase() === `${lang}-${region}`.toLowerCase()) ??
    languages.find((l) => l.split('-')[0] === lang) ??
    (languages.includes('en-US') ? 'en-US' : (languages[0] ?? 'en-US'))
  );
}

function Proofreader() {
  const { t, locale } = useI18n();
  const toast = useToast();
  // A PDF chosen on a landing page opens the document tab with it.
  const handed = useHandedOffFile();
  const [mode, setMode] = useState<Mode>(handed ? 'file' : 'text');
  const [languages, setLanguages] = useState<string[]>([]);
  const [lang, setLang] = useState('en-US');
  const [draft, setDraft] = useState('');
  const [file, setFile] = useState<File | undefined>(handed);
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<Review>();
  const [truncated, setTruncated] = useState(false);
  const [refusal, setRefusal] = useState<LimitRefusal>();
  const stream = useAiStream();
  const nameOf = useMemo(() => languageNamer(locale), [locale]);

  useEffect(() => {
    proofreadLanguages().then(
      ({ languages: listed }) => {
        setLanguages(listed);
        setLang(defaultLanguage(listed, locale));
      },
      () => setLanguages([]),
    );
  }, [locale]);

  const failed = (e: unknown) => {
    if (e instanceof ApiError && e.upgrade) setRefusal(e.upgrade);
    else toast(e instanceof Error ? e.message : String(e));
  };

  // The corrected text streams in (a model's as it writes it); the issues come with the result.
  const check = async () => {
    setBusy(true);
    try {
      let call: { path: string; body: object } = { path: PROOFREAD_TEXT_STREAM, body: { text: draft, lang } };
      if (mode === 'file' && file) {
        const config = await getServerConfig();
        const uploaded = await uploadFile(file, { chunkThreshold: config.chunk_threshold, onProgress: () => {} });
        call = { path: PROOFREAD_FILE_STREAM, body: { file_id: uploaded.file_id, lang } };
      }
      const done = await stream.start(call.path, call.body);
      const answer = proofreadAnswer.safeParse(done.result);
      if (answer.success) {
        setReview(startReview(answer.data.text, answer.data.issues));
        setTruncated(answer.data.truncated);
        stream.reset();
      } else if (done.error) failed(done.error);
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  };

  const copyText = useCopyText();
  const copy = (text: string) => copyText(text, { copied: t('aiProofread.copied'), refused: t('aiProofread.copyFailed') });

  if (review) {
    return (
      <ReviewView
        review={review}
        truncated={truncated}
        onChange={setReview}
        onCopy={() => void copy(review.text)}
        onDownload={() => saveBlob(new Blob([review.text], { type: 'text/plain;charset=utf-8' }), t('aiProofread.fileName'))}
        onEdit={() => {
          setDraft(review.text);
          setMode('text');
          setReview(undefined);
        }}
      />
    );
  }

  const ready = !busy && (mode === 'text' ? draft.trim().length > 0 : !!file);
  return (
    <section className="card ai-tool" data-testid="ai-proofread">
      <Tabs<Mode>
        tabs={[
          { id: 'text', label: t('aiProofread.pasteText') },
          { id: 'file', label: t('aiProofread.uploadFile') },
        ]}
        current={mode}
        onChoose={setMode}
        testIdPrefix="proofread-mode-"
      />
      {mode === 'text' ? (
        <textarea
          className="ai-textarea"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          aria-label={t('aiProofread.textLabel')}
          placeholder={t('aiProofread.placeholder')}
          data-testid="proofread-text"
        />
      ) : (
        <div className="ai-file-input">
          <FilePickButton className="button button-outline" accept={AI_DOCUMENT_ACCEPT} testId="proofread-file" onPick={setFile}>
            <Icon name="upload" size={18} />
            {file ? t('aiDetector.otherFile') : t('aiDetector.chooseFile')}
          </FilePickButton>
          {file && (
            <p className="ai-file-name" data-testid="proofread-file-name">
              <Icon name="file" size={18} />
              {file.name}
            </p>
          )}
          <p className="ai-hint">{t('aiProofread.fileHint')}</p>
        </div>
      )}
      <div className="ai-actions">
        <label className="ai-select">
          <span>{t('aiProofread.language')}</span>
          <select value={lang} onChange={(e) => setLang(e.target.value)} data-testid="proofread-language">
            {languages.map((l) => (
              <option key={l} value={l}>
                {nameOf(l)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button-primary" disabled={!ready} onClick={() => void check()} data-testid="proofread-run">
          {busy ? t('aiDetector.checking') : t('aiProofread.check')}
        </button>
      </div>
      {stream.answer.status === 'streaming' && (
        <div className="read-streamed" data-testid="proofread-streaming">
          <p className="chat-status" role="status">
            <span className="spinner spinner-small" aria-hidden="true" />
            {t('aiRead.working')}
          </p>
          <p className="read-rewritten">{stream.answer.text}</p>
          <button type="button" className="button button-small button-outline" onClick={stream.stop} data-testid="proofread-stop">
            {t('chatPdf.stop')}
          </button>
        </div>
      )}
      {refusal && <UpgradeDialog refusal={refusal} onClose={() => setRefusal(undefined)} />}
    </section>
  );
}

interface ReviewViewProps {
  review: Review;
  truncated: boolean;
  onChange(review: Review): void;
  onCopy(): void;
  onDownload(): void;
  onEdit(): void;
}

function ReviewView({ review, truncated, onChange, onCopy, onDownload, onEdit }: ReviewViewProps) {
  const { t } = useI18n();
  const [focused, setFocused] = useState<number>();
  const kindLabel: Record<OpenIssue['kind'], string> = {
    spelling: t('aiProofread.spelling'),
    grammar: t('aiProofread.grammar'),
    style: t('aiProofread.style'),
  };
  return (
    <div className="ai-review" data-testid="proofread-review">
      <section className="card ai-review-text">
        <div className="ai-review-bar">
          <strong data-testid="proofread-count">{t('aiProofread.issues', { count: review.issues.length })}</strong>
          <div className="ai-review-buttons">
            <button type="button" className="button button-small button-outline" onClick={onEdit} data-testid="proofread-edit">
              {t('aiProofread.edit')}
            </button>
            <button type="button" className="button button-small button-outline" onClick={onCopy} data-testid="proofread-copy">
              <Icon name="copy" size={16} />
              {t('aiProofread.copy')}
            </button>
            <button type="button" className="button button-small button-outline" onClick={onDownload} data-testid="proofread-download">
              <Icon name="download" size={16} />
              {t('aiProofread.download')}
            </button>
          </div>
        </div>
        {truncated && <p className="ai-hint">{t('aiProofread.truncated')}</p>}
        <p className="ai-marked-text ai-proofread-text" data-testid="proofread-result">
          {segments(review).map((part, i) =>
            'issue' in part ? (
              <mark
                key={`i${part.issue.id}`}
                className={`ai-issue ai-issue-${part.issue.kind}${focused === part.issue.id ? ' focused' : ''}`}
                title={part.issue.message}
                data-testid="proofread-mark"
              >
                {part.text}
              </mark>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: plain runs have no identity of their own
              <span key={`t${i}`}>{part.text}</span>
            ),
          )}
        </p>
      </section>
      <section className="card ai-issues" aria-label={t('aiProofread.issueList')}>
        {review.issues.some((i) => i.suggestions.length > 0) && (
          <button
            type="button"
            className="button button-primary ai-accept-all"
            onClick={() => onChange(acceptAll(review))}
            data-testid="proofread-accept-all"
          >
            {t('aiProofread.acceptAll')}
          </button>
        )}
        {review.issues.length === 0 && <p className="ai-hint">{t('aiProofread.none')}</p>}
        <ul>
          {review.issues.map((issue) => (
            <li
              key={issue.id}
              className="ai-issue-card"
              data-testid="proofread-issue"
              data-kind={issue.kind}
              onMouseEnter={() => setFocused(issue.id)}
              onMouseLeave={() => setFocused(undefined)}
            >
              <span className={`ai-kind ai-issue-${issue.kind}`}>{kindLabel[issue.kind]}</span>
              <q className="ai-issue-span">{review.text.slice(issue.start, issue.end)}</q>
              <p>{issue.message}</p>
              <div className="ai-issue-actions">
                {issue.suggestions.slice(0, 3).map((s) => (
                  <button
                    key={s}
                    type="button"
                    className="button button-small button-outline"
                    onClick={() => onChange(acceptIssue(review, issue.id, s))}
                    data-testid="proofread-accept"
                  >
                    {s === '' ? t('aiProofread.delete') : s}
                  </button>
                ))}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onChange(ignoreIssue(review, issue.id))}
                  data-testid="proofread-ignore"
                >
                  {t('aiProofread.ignore')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
