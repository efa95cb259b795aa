// The share-document tool: one PDF uploaded, then shared by link, QR code or email right on the
// page. No task runs: the share names the uploaded file.
import { hasAcceptedExtension, ShareFileType, type FileInfo } from '@quire/contracts';
import { useRef, useState } from 'react';
import { isAbort } from '../api/client';
import { getServerConfig } from '../api/files';
import { uploadFile } from '../api/upload';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { ProgressBar } from '../ui/ProgressBar';
import { useToast } from '../ui/Toast';
import { appPages } from '../layout/navigation';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { useFileDrop } from '../ui/useFileDrop';
import { IconTile } from '../ui/ToolIcon';
import { SharePanel } from './ShareDialog';

const accepts = { extFrom: ['pdf'] };

type Upload = { phase: 'none' } | { phase: 'uploading'; name: string; percent: number } | { phase: 'ready'; file: FileInfo };

export function ShareDocumentPage() {
  const t = useT();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<Upload>({ phase: 'none' });
  const controller = useRef<AbortController>(undefined);
  useDocumentTitle(t('shareDocument.title'));

  const add = async (files: File[]) => {
    const file = files[0];
    if (!file) return;
    if (!hasAcceptedExtension(file.name, accepts)) {
      toast(t('upload.wrongType', { name: file.name, types: 'PDF' }));
      return;
    }
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setUpload({ phase: 'uploading', name: file.name, percent: 0 });
    try {
      const config = await getServerConfig();
      const info = await uploadFile(file, {
        chunkThreshold: config.chunk_threshold,
        signal: abort.signal,
        onProgress: (done, total) =>
          setUpload({ phase: 'uploading', name: file.name, percent: total ? Math.round((done / total) * 100) : 0 }),
      });
      setUpload({ phase: 'ready', file: { ...info, file_name: file.name } });
    } catch (e) {
      if (isAbort(e)) return;
      setUpload({ phase: 'none' });
      toast(e instanceof Error ? e.message : String(e));
    }
  };
  const drop = useFileDrop((files) => void add(files));
  const pick = () => input.current?.click();

  return (
    <div className={`tool-page share-document ${drop.active ? 'drop-active' : ''}`} {...drop.dropProps}>
      <input
        ref={input}
        type="file"
        hidden
        accept="application/pdf,.pdf"
        data-testid="file-input"
        onChange={(e) => {
          void add([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {upload.phase === 'ready' ? (
        <div className="share-document-work">
          <div className="workspace-toolbar">
            <h1>{t('shareDocument.title')}</h1>
            <button type="button" className="button button-ghost" data-testid="add-files" onClick={pick}>
              <Icon name="plus" size={18} /> {t('upload.replace')}
            </button>
          </div>
          <section className="card share-document-card">
            {/* Keyed by the file: another file starts the form afresh. */}
            <SharePanel
              key={upload.file.file_id}
              shareKey={upload.file.file_id}
              fileType={ShareFileType.File}
              fileName={upload.file.file_name}
              fileSize={upload.file.file_size}
            />
          </section>
        </div>
      ) : (
        <section className="upload-hero" data-testid="dropzone">
          <IconTile {...appPages['share-document'].look} size={56} />
          <h1>{t('shareDocument.title')}</h1>
          <p>{t('shareDocument.description')}</p>
          {upload.phase === 'uploading' ? (
            <div className="share-document-progress">
              <span className="file-name">{upload.name}</span>
              <ProgressBar percent={upload.percent} label={`${upload.percent}%`} testId="upload-progress" />
            </div>
          ) : (
            <>
              <button type="button" className="button button-primary button-xl" data-testid="select-files" onClick={pick}>
                <Icon name="upload" /> {t('upload.selectFile')}
              </button>
              <span className="upload-or">{t('upload.dropOne')}</span>
            </>
          )}
        </section>
      )}
    </div>
  );
}
