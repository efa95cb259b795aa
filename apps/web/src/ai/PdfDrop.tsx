// The AI pages' start: a PDF dropped or chosen, uploaded with its progress shown; a refusal of the
// plan opens its upgrade dialog, any other failure is said under the button.
import type { FileInfo, LimitRefusal } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { UpgradeDialog } from '../account/UpgradeDialog';
import { ApiError } from '../api/client';
import { getServerConfig } from '../api/files';
import { uploadFile } from '../api/upload';
import { useHandedOffFile } from '../files/handOff';
import { useI18n } from '../i18n/I18nProvider';
import { FilePickButton } from '../ui/FilePickButton';
import { Icon } from '../ui/Icon';
import { ProgressBar } from '../ui/ProgressBar';
import { useFileDrop } from '../ui/useFileDrop';
import { type AiPageDialogs, onAiPage } from './aiRefusal';

interface PdfDropProps {
  /** Called with the picked file and its upload; may go on (into the cloud) before the page moves on. */
  onUploaded(file: File, uploaded: FileInfo): Promise<void> | void;
  hint: string;
  testId: string;
  /** The page's own upgrade dialogs, which a file over the plan's size opens. */
  dialogs: AiPageDialogs;
}

export function PdfDrop({ onUploaded, hint, testId, dialogs }: PdfDropProps) {
  const { t } = useI18n();
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<string>();
  const [refusal, setRefusal] = useState<LimitRefusal>();

  const upload = async (file: File) => {
    setError(undefined);
    if (!/\.pdf$/i.test(file.name) && file.type !== 'application/pdf') return setError(t('aiPdf.pdfOnly'));
    setProgress(0);
    try {
      const config = await getServerConfig();
      const uploaded = await uploadFile(file, {
        chunkThreshold: config.chunk_threshold,
        onProgress: (done, total) => setProgress(total ? Math.round((done / total) * 100) : 0),
      });
      await onUploaded(file, uploaded);
    } catch (e) {
      if (e instanceof ApiError && e.upgrade) setRefusal(onAiPage(e.upgrade, dialogs));
      else setError(e instanceof Error ? e.message : String(e));
      setProgress(undefined);
    }
  };
  // A PDF chosen on a landing page is uploaded as if dropped here.
  const handed = useHandedOffFile();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page starts
  useEffect(() => {
    if (handed) void upload(handed);
  }, [handed]);
  const { active, dropProps } = useFileDrop((files) => {
    if (files[0] && progress === undefined) void upload(files[0]);
  });

  return (
    <section className={`card ai-pdf-drop ${active ? 'dropping' : ''}`} data-testid={`${testId}-start`} {...dropProps}>
      <Icon name="upload" size={40} />
      <p>{t('aiPdf.drop')}</p>
      {progress === undefined ? (
        <FilePickButton
          className="button button-primary"
          accept=".pdf,application/pdf"
          testId={`${testId}-file`}
          onPick={(f) => void upload(f)}
        >
          <Icon name="upload" size={18} />
          {t('aiPdf.choosePdf')}
        </FilePickButton>
      ) : (
        <ProgressBar percent={progress} label={t('aiPdf.uploading')} testId={`${testId}-upload-progress`} />
      )}
      <p className="ai-hint">{hint}</p>
      {error && (
        <p className="ai-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
      {refusal && <UpgradeDialog refusal={refusal} onClose={() => setRefusal(undefined)} />}
    </section>
  );
}
