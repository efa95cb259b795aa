import { isImageFileName } from '@quire/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { fileDownloadUrl } from '../api/files';
import { isReady, type FileItem } from '../files/fileList';
import type { FileListController } from '../files/useFileList';
import { useT } from '../i18n/I18nProvider';
import { PageThumb } from '../pdf/PageThumb';
import { useSizes } from '../ui/useSizes';
import { Icon } from '../ui/Icon';
import { ProgressBar } from '../ui/ProgressBar';
import { useDragReorder } from '../ui/useDragReorder';
import { useNearView } from '../ui/useNearView';
import { useFilePdf } from './panels/common';

interface FileListProps {
  files: FileListController;
  /** Cards that can be dragged into order (multi-file tools), or one row. */
  reorderable: boolean;
}

export function FileList({ files, reorderable }: FileListProps) {
  const reorder = useDragReorder(files.move, files.items.length);
  return (
    <>
      <ul className={reorderable ? 'file-cards' : 'file-rows'}>
        {files.items.map((item, index) => (
          <li
            key={item.uid}
            className={`file-item state-${item.state}`}
            data-testid="file-item"
            data-state={item.state}
            {...(reorderable && reorder.itemProps(index))}
          >
            {reorderable && <FilePreview item={item} />}
            <FileDetails item={item} files={files} />
          </li>
        ))}
      </ul>
      <p className="visually-hidden" aria-live="polite" data-testid="reorder-status">
        {reorder.status}
      </p>
    </>
  );
}

/**
 * The first page of a PDF or the picture of an image once the file is ready, a file icon before (and
 * for other documents). A PDF is opened only when its card comes near the viewport: a long list
 * fetches and parses nothing it does not show.
 */
function FilePreview({ item }: { item: FileItem }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearView(box);
  const image = isReady(item) && isImageFileName(item.name) ? item.info.file_id : undefined;
  const pdfFile = near && isReady(item) && /\.pdf$/i.test(item.name) ? item : undefined;
  const pdf = useFilePdf(pdfFile);
  const [imageFailed, setImageFailed] = useState(false);
  let preview = <Icon name={item.state === 'encrypted' ? 'lock' : 'file'} size={40} />;
  if (image && !imageFailed) preview = <img src={fileDownloadUrl(image)} alt="" loading="lazy" onError={() => setImageFailed(true)} />;
  else if (pdfFile && !pdf.failed) preview = <PageThumb doc={pdf.doc} pageNumber={1} size={120} />;
  return (
    <div ref={box} className="file-preview">
      {preview}
    </div>
  );
}

function FileDetails({ item, files }: { item: FileItem; files: FileListController }) {
  const sizes = useSizes();
  const t = useT();
  const size = item.info?.file_size ?? item.size;
  return (
    <div className="file-details">
      <div className="file-head">
        <span className="file-name" title={item.name}>
          {item.name}
        </span>
        <button
          type="button"
          className="icon-button file-remove"
          aria-label={t('file.remove', { name: item.name })}
          data-testid="remove-file"
          onClick={() => files.removeFile(item.uid)}
        >
          <Icon name="trash" size={16} />
        </button>
      </div>
      <span className="file-meta">
        {sizes.bytes(size)}
        {!!item.pageCount && ` · ${t('file.pages', { count: item.pageCount })}`}
        {isReady(item) && item.info.repaired && ` · ${t('file.repaired')}`}
      </span>
      <FileStatus item={item} files={files} />
    </div>
  );
}

function FileStatus({ item, files }: { item: FileItem; files: FileListController }) {
  const t = useT();
  switch (item.state) {
    case 'localAdded':
    case 'ossUploading': {
      // The bytes sent include the form around the file: never more than 100 %.
      const percent = Math.min(100, Math.floor((item.uploadedBytes / Math.max(item.size, 1)) * 100));
      return (
        <div className="file-status">
          <ProgressBar percent={percent} testId="upload-progress" label={t('file.uploading', { percent })} />
        </div>
      );
    }
    case 'encrypted':
      return <PasswordForm item={item} onSubmit={(password) => void files.submitPassword(item, password)} />;
    case 'damaged':
      return <p className="file-status status-error">{item.error ?? t('file.damaged')}</p>;
    case 'ossUploadFailed':
      return (
        <p className="file-status status-error">
          {item.error ?? t('file.uploadFailed')}{' '}
          <button type="button" className="link-button" data-testid="retry-upload" onClick={() => files.retryUpload(item)}>
            {t('file.retry')}
          </button>
        </p>
      );
    case 'taskingFailed':
      return <p className="file-status status-error">{t('file.taskFailed')}</p>;
    case 'tasking':
      return <p className="file-status">{t('file.processing')}</p>;
    default:
      return (
        <p className="file-status status-ok">
          <Icon name={item.password ? 'lock' : 'check'} size={14} /> {item.password ? t('file.unlocked') : t('file.ready')}
        </p>
      );
  }
}

function PasswordForm({ item, onSubmit }: { item: FileItem; onSubmit(password: string): void }) {
  const t = useT();
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password) onSubmit(password);
  };
  return (
    <form className="password-form" onSubmit={submit}>
      <p className="file-status">
        <Icon name="lock" size={14} /> {t('file.needsPassword')}
      </p>
      <div className="password-row">
        <input
          type="password"
          value={password}
          placeholder={t('file.passwordPlaceholder')}
          aria-label={t('file.passwordPlaceholder')}
          autoComplete="off"
          data-testid="password-input"
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="button button-small" disabled={!password || item.checkingPassword} data-testid="password-submit">
          {t('file.unlock')}
        </button>
      </div>
      {item.passwordError && (
        <p className="field-error" role="alert" data-testid="password-error">
          {item.passwordError}
        </p>
      )}
    </form>
  );
}
