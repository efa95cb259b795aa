// /app/ai-detector: pasted text (250 characters at least) or a file's text scored for the likelihood
// that a machine wrote it; the scores open /app/ai-detector-result. Signed-in accounts only: the
// characters are charged to the plan's detector quota, shown here before and after.
import { AI_CONSTANTS, type DetectResult, type DetectorCharCheck, type LimitRefusal } from '@quire/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { UpgradeDialog } from '../../account/UpgradeDialog';
import { detectFile, detectText, detectorChars } from '../../api/aiDetect';
import { ApiError } from '../../api/client';
import { getServerConfig } from '../../api/files';
import { uploadFile } from '../../api/upload';
import { useI18n } from '../../i18n/I18nProvider';
import { FilePickButton } from '../../ui/FilePickButton';
import { useSizes } from '../../ui/useSizes';
import { Icon } from '../../ui/Icon';
import { ProgressBar } from '../../ui/ProgressBar';
import { Tabs } from '../../ui/Tabs';
import { useToast } from '../../ui/Toast';
import { DETECTOR_RESULT_PATH } from './AiDetectorResultPage';
import { AiPage } from '../AiPage';
import { AI_DOCUMENT_ACCEPT } from '../documentTypes';

/** The files whose text the detector reads (the server checks the type again). */

type Mode = 'text' | 'file';

export function AiDetectorPage() {
  const { t } = useI18n();
  return (
    <AiPage title={t('aiDetector.title')} intro={t('aiDetector.intro')} signInText={t('aiDetector.signIn')}>
      <Detector />
    </AiPage>
  );
}

function Detector() {
  const sizes = useSizes();
  const { t, locale, localePath } = useI18n();
  const toast = useToast();
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('text');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [chars, setChars] = useState<DetectorCharCheck>();
  const [refusal, setRefusal] = useState<LimitRefusal>();

  const refreshChars = useCallback(() => {
    detectorChars().then(setChars, () => setChars(undefined));
  }, []);
  useEffect(refreshChars, [refreshChars]);

  const length = [...text].length;
  const ready = !busy && (mode === 'text' ? length >= AI_CONSTANTS.minTextChars : !!file);

  /** The scores of the pasted text, or of the chosen file once uploaded. */
  const scores = async (): Promise<DetectResult> => {
    if (mode === 'text' || !file) return detectText(text);
    const config = await getServerConfig();
    const uploaded = await uploadFile(file, {
      chunkThreshold: config.chunk_threshold,
      onProgress: (done, total) => setProgress(done / total),
    });
    setProgress(undefined);
    return detectFile(uploaded.file_id);
  };

  const detect = async () => {
    setBusy(true);
    try {
      const result = await scores();
      void navigate(localePath(DETECTOR_RESULT_PATH), { state: { result, source: mode === 'file' ? (file?.name ?? '') : '' } });
    } catch (e) {
      setProgress(undefined);
      if (e instanceof ApiError && e.upgrade) setRefusal(e.upgrade);
      else toast(e instanceof Error ? e.message : String(e));
      // A file is deleted by the server once read, whatever the answer: it must be picked again.
      setFile(undefined);
      refreshChars();
    } finally {
      setBusy(false);
    }
  };

  const number = (n: number) => n.toLocaleString(locale);
  return (
    <section className="card ai-detector" data-testid="ai-detector">
      <Tabs<Mode>
        tabs={[
          { id: 'text', label: t('aiDetector.pasteText') },
          { id: 'file', label: t('aiDetector.uploadFile') },
        ]}
        current={mode}
        onChoose={setMode}
        testIdPrefix="detector-mode-"
      />
      {mode === 'text' ? (
        <div className="ai-text-input">
          <textarea
            className="ai-textarea"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-label={t('aiDetector.textLabel')}
            placeholder={t('aiDetector.placeholder', { count: AI_CONSTANTS.minTextChars })}
            data-testid="detector-text"
          />
          <p className={`ai-counter${length > 0 && length < AI_CONSTANTS.minTextChars ? ' short' : ''}`} data-testid="detector-count">
            {t('aiDetector.count', { count: number(length), min: number(AI_CONSTANTS.minTextChars) })}
          </p>
        </div>
      ) : (
        <div className="ai-file-input">
          <FilePickButton className="button button-outline" accept={AI_DOCUMENT_ACCEPT} testId="detector-file" onPick={setFile}>
            <Icon name="upload" size={18} />
            {file ? t('aiDetector.otherFile') : t('aiDetector.chooseFile')}
          </FilePickButton>
          {file && (
            <p className="ai-file-name" data-testid="detector-file-name">
              <Icon name="file" size={18} />
              {file.name} · {sizes.bytes(file.size)}
            </p>
          )}
          {progress !== undefined && (
            <ProgressBar percent={Math.round(progress * 100)} label={t('aiDetector.uploading')} testId="detector-upload" />
          )}
          <p className="ai-hint">{t('aiDetector.fileHint')}</p>
        </div>
      )}
      <div className="ai-actions">
        {chars && (
          <span className="ai-quota" data-testid="detector-remaining">
            {t('aiDetector.remaining', { left: number(Math.max(0, chars.total - chars.used)), total: number(chars.total) })}
          </span>
        )}
        <button type="button" className="button button-primary" disabled={!ready} onClick={() => void detect()} data-testid="detector-run">
          {busy ? t('aiDetector.checking') : t('aiDetector.detect')}
        </button>
      </div>
      {refusal && <UpgradeDialog refusal={refusal} onClose={() => setRefusal(undefined)} />}
    </section>
  );
}
