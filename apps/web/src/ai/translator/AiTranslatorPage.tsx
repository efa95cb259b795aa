// /app/ai-translator: pasted text translated (streamed: a model's translation shows as it is written), or a PDF translated into a new PDF that keeps its
// layout (a task, followed as the tools' tasks are). Only the directions installed on the server are
// offered; a direction through a language between says so.
import type { LimitRefusal, TranslationLanguages } from '@quire/contracts';
import { useEffect, useMemo, useState } from 'react';
import { UpgradeDialog } from '../../account/UpgradeDialog';
import { TRANSLATE_FILE_CALL, TRANSLATE_TEXT_STREAM, translationPairs } from '../../api/aiLanguage';
import { ApiError } from '../../api/client';
import { getServerConfig } from '../../api/files';
import { uploadFile } from '../../api/upload';
import { useTaskRun } from '../../tool/useTaskRun';
import { useI18n } from '../../i18n/I18nProvider';
import { useHandedOffFile } from '../../files/handOff';
import { FilePickButton } from '../../ui/FilePickButton';
import { useSizes } from '../../ui/useSizes';
import { Icon } from '../../ui/Icon';
import { ProgressBar } from '../../ui/ProgressBar';
import { Tabs } from '../../ui/Tabs';
import { useToast } from '../../ui/Toast';
import { useCopyText } from '../../ui/useCopyText';
import { AiPage } from '../AiPage';
import { aiPageDialogs, onAiPage } from '../aiRefusal';
import { useAiStream } from '../useAiStream';
import { languageNamer } from '../languageNames';

type Mode = 'text' | 'file';

export function AiTranslatorPage() {
  const { t } = useI18n();
  return (
    <AiPage title={t('aiTranslator.title')} intro={t('aiTranslator.intro')} signInText={t('aiTranslator.signIn')}>
      <Translator />
    </AiPage>
  );
}

function Translator() {
  const sizes = useSizes();
  const { t, locale } = useI18n();
  const toast = useToast();
  // A PDF chosen on a landing page opens the document tab with it.
  const handed = useHandedOffFile();
  const [mode, setMode] = useState<Mode>(handed ? 'file' : 'text');
  const [offered, setOffered] = useState<TranslationLanguages>({ languages: [], pairs: [] });
  const [from, setFrom] = useState('en');
  const [to, setTo] = useState('es');
  const [source, setSource] = useState('');
  const stream = useAiStream();
  const [file, setFile] = useState<File | undefined>(handed);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<LimitRefusal>();
  const task = useTaskRun();
  const nameOf = useMemo(() => languageNamer(locale), [locale]);

  useEffect(() => {
    translationPairs().then(setOffered, () => undefined);
  }, []);

  const sources = [...new Set(offered.pairs.map((p) => p.from))];
  const targets = offered.pairs.filter((p) => p.from === from);
  const pair = targets.find((p) => p.to === to);
  const reversible = offered.pairs.some((p) => p.from === to && p.to === from);

  const chooseFrom = (next: string) => {
    setFrom(next);
    const nextTargets = offered.pairs.filter((p) => p.from === next);
    if (!nextTargets.some((p) => p.to === to)) setTo(nextTargets[0]?.to ?? '');
  };

  const failed = (e: unknown) => {
    if (e instanceof ApiError && e.upgrade) setRefusal(onAiPage(e.upgrade, aiPageDialogs));
    else toast(e instanceof Error ? e.message : String(e));
  };

  const translate = async () => {
    setBusy(true);
    try {
      if (mode === 'text') {
        const answer = await stream.start(TRANSLATE_TEXT_STREAM, { text: source, from, to });
        if (answer.error) failed(answer.error);
      } else if (file) {
        const config = await getServerConfig();
        const uploaded = await uploadFile(file, { chunkThreshold: config.chunk_threshold, onProgress: () => {} });
        await task.run([{ path: TRANSLATE_FILE_CALL, body: { file_id: uploaded.file_id, from, to } }]);
      }
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  };

  const copyText = useCopyText();
  const copy = () => copyText(stream.answer.text, { copied: t('aiProofread.copied'), refused: t('aiProofread.copyFailed') });

  const ready = !busy && !!pair && (mode === 'text' ? source.trim().length > 0 : !!file);
  const done = task.state.phase === 'done' ? task.state.outputs[0] : undefined;
  return (
    <section className="card ai-tool" data-testid="ai-translator">
      <Tabs<Mode>
        tabs={[
          { id: 'text', label: t('aiTranslator.text') },
          { id: 'file', label: t('aiTranslator.document') },
        ]}
        current={mode}
        onChoose={setMode}
        testIdPrefix="translate-mode-"
      />
      <div className="ai-languages">
        <label className="ai-select">
          <span>{t('aiTranslator.from')}</span>
          <select value={from} onChange={(e) => chooseFrom(e.target.value)} data-testid="translate-from">
            {sources.map((l) => (
              <option key={l} value={l}>
                {nameOf(l)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="icon-button ai-swap"
          aria-label={t('aiTranslator.swap')}
          title={t('aiTranslator.swap')}
          disabled={!reversible}
          onClick={() => {
            setFrom(to);
            setTo(from);
          }}
          data-testid="translate-swap"
        >
          <Icon name="reverse" size={18} />
        </button>
        <label className="ai-select">
          <span>{t('aiTranslator.to')}</span>
          <select value={to} onChange={(e) => setTo(e.target.value)} data-testid="translate-to">
            {targets.map((p) => (
              <option key={p.to} value={p.to}>
                {nameOf(p.to)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {pair && pair.via.length > 0 && (
        <p className="ai-hint" data-testid="translate-via">
          {t('aiTranslator.via', { languages: pair.via.map(nameOf).join(', ') })}
        </p>
      )}
      {mode === 'text' ? (
        <div className="ai-translate-panes">
          <textarea
            className="ai-textarea"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            aria-label={t('aiTranslator.sourceLabel')}
            placeholder={t('aiTranslator.placeholder')}
            data-testid="translate-source"
          />
          <div className="ai-translation" aria-live="polite">
            <p className="ai-translation-text" data-testid="translate-result" data-status={stream.answer.status}>
              {stream.answer.text}
            </p>
            {stream.answer.status === 'streaming' && (
              <button type="button" className="button button-small button-outline" onClick={stream.stop} data-testid="translate-stop">
                {t('chatPdf.stop')}
              </button>
            )}
            {stream.answer.status === 'done' && (
              <button type="button" className="button button-small button-outline" onClick={() => void copy()} data-testid="translate-copy">
                <Icon name="copy" size={16} />
                {t('aiProofread.copy')}
              </button>
            )}
          </div>
        </div>
      ) : (
        <div className="ai-file-input">
          <FilePickButton
            className="button button-outline"
            accept=".pdf,application/pdf"
            testId="translate-file"
            onPick={(f) => {
              setFile(f);
              task.reset();
            }}
          >
            <Icon name="upload" size={18} />
            {file ? t('aiDetector.otherFile') : t('aiTranslator.choosePdf')}
          </FilePickButton>
          {file && (
            <p className="ai-file-name" data-testid="translate-file-name">
              <Icon name="file" size={18} />
              {file.name} · {sizes.bytes(file.size)}
            </p>
          )}
          {task.state.phase === 'running' && (
            <ProgressBar percent={task.state.progress} label={t('aiTranslator.translating')} testId="translate-progress" />
          )}
          {done && (
            <a className="button button-primary" href={done.url} download={done.name} data-testid="translate-download">
              <Icon name="download" size={18} />
              {t('aiTranslator.downloadPdf', { name: done.name })}
            </a>
          )}
          <p className="ai-hint">{t('aiTranslator.documentHint')}</p>
        </div>
      )}
      <div className="ai-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!ready}
          onClick={() => void translate()}
          data-testid="translate-run"
        >
          {busy ? t('aiTranslator.translating') : t('aiTranslator.translate')}
        </button>
      </div>
      {refusal && <UpgradeDialog refusal={refusal} onClose={() => setRefusal(undefined)} />}
    </section>
  );
}
