// /preview: a file opened from a tool, a result, the document cloud or a share, outside the app's
// shell. A share needs an account: a visitor signs in first and the file opens after.
import { ErrorCode } from '@quire/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../account/session';
import { ApiError, isAbort } from '../api/client';
import { bindRun, fetchTaskEntries } from '../api/tasks';
import { fetchViewedFile, type ViewedFile } from '../api/viewerFiles';
import { useT } from '../i18n/I18nProvider';
import { Logo } from '../layout/MarketingLayout';
import { useSizes } from '../ui/useSizes';
import { Icon } from '../ui/Icon';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { PdfViewer, ShareExpiry } from './PdfViewer';
import { sourceFromQuery, type ViewerSource } from './viewerSource';
import './preview.css';

type Load =
  | { state: 'loading' }
  | { state: 'signIn' }
  | { state: 'loaded'; file: ViewedFile }
  | { state: 'expired' }
  | { state: 'notFound' }
  | { state: 'failed'; message: string };

/** How a failed load shows: the share's end and a missing file have pages of their own. */
function failureOf(e: unknown): Load {
  if (e instanceof ApiError && e.code === ErrorCode.ShareExpired) return { state: 'expired' };
  if (e instanceof ApiError && e.code === ErrorCode.NoData) return { state: 'notFound' };
  if (e instanceof ApiError && e.code === ErrorCode.NotLogin) return { state: 'signIn' };
  return { state: 'failed', message: e instanceof Error ? e.message : String(e) };
}

function useViewedFile(source: ViewerSource | null): Load {
  const session = useSession();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const needsAccount = source?.kind === 'share';
  const { status, requireSignIn, onSignIn } = session;
  // A visitor's result is released to an account: signing in here binds its run first, as the
  // tool's page would. The run is looked up while still the visitor's (the account cannot see it yet).
  const taskId = source?.kind === 'task' ? source.taskId : undefined;
  useEffect(() => {
    if (!taskId || status !== 'signedOut') return;
    const runOf = fetchTaskEntries({ task_id: taskId }).then(
      ([entry]) => entry?.multi_id,
      () => undefined,
    );
    return onSignIn(async () => {
      const multiId = await runOf;
      if (multiId) await bindRun(multiId);
    });
  }, [taskId, status, onSignIn]);
  useEffect(() => {
    if (!source || status === 'loading') return;
    if (needsAccount && status === 'signedOut') {
      setLoad({ state: 'signIn' });
      // The account's session follows the dialog: signed in, status changes and the file loads.
      void requireSignIn({ kind: 'sharedFile' });
      return;
    }
    const abort = new AbortController();
    setLoad({ state: 'loading' });
    fetchViewedFile(source, abort.signal).then(
      (file) => setLoad({ state: 'loaded', file }),
      (e: unknown) => {
        if (!isAbort(e) && !abort.signal.aborted) setLoad(failureOf(e));
      },
    );
    return () => abort.abort();
  }, [source, needsAccount, status, requireSignIn]);
  return source ? load : { state: 'notFound' };
}

export function PreviewPage() {
  const t = useT();
  const { search } = useLocation();
  const source = useMemo(() => sourceFromQuery(search), [search]);
  const load = useViewedFile(source);
  const session = useSession();
  const shared = source?.kind === 'share';
  useDocumentTitle(load.state === 'loaded' ? load.file.name : t('viewer.loading'));

  if (load.state === 'loaded' && load.file.isPdf) return <PdfViewer file={load.file} />;
  return (
    <div className="viewer viewer-message-page">
      <header className="viewer-bar">
        <Logo />
      </header>
      <main className="viewer-message" data-testid="viewer-state" data-state={load.state}>
        {load.state === 'loading' && (
          <>
            <span className="spinner" aria-hidden="true" />
            <p>{t('viewer.loading')}</p>
          </>
        )}
        {load.state === 'signIn' && (
          <>
            <Icon name="lock" size={40} />
            <h1>{shared ? t('account.reasonSharedFileTitle') : t('account.reasonDownloadTitle')}</h1>
            <p>{shared ? t('account.reasonSharedFileText') : t('account.reasonDownloadText')}</p>
            <button
              type="button"
              className="button button-primary"
              data-testid="viewer-sign-in"
              onClick={() => void session.requireSignIn(shared ? { kind: 'sharedFile' } : { kind: 'download' })}
            >
              {t('viewer.signIn')}
            </button>
          </>
        )}
        {load.state === 'expired' && (
          <>
            <Icon name="alert" size={40} />
            <h1>{t('viewer.expired')}</h1>
            <p>{t('viewer.expiredHint')}</p>
          </>
        )}
        {load.state === 'notFound' && (
          <>
            <Icon name="file" size={40} />
            <h1>{source ? t('viewer.notFound') : t('viewer.noSource')}</h1>
          </>
        )}
        {load.state === 'failed' && (
          <>
            <Icon name="alert" size={40} />
            <h1>{t('viewer.failed')}</h1>
            <p>{load.message}</p>
          </>
        )}
        {load.state === 'loaded' && <OtherFile file={load.file} />}
      </main>
    </div>
  );
}

/** A file the viewer cannot draw: its name, size and a download. */
function OtherFile({ file }: { file: ViewedFile }) {
  const sizes = useSizes();
  const t = useT();
  const href = useObjectUrl(file.bytes);
  return (
    <div className="viewer-other-file" data-testid="viewer-other-file">
      <Icon name="file" size={48} />
      <h1 className="file-name">{file.name}</h1>
      <p className="file-meta">{sizes.bytes(file.size)}</p>
      <ShareExpiry expiresAt={file.expiresAt} />
      <p>{t('viewer.notPdf')}</p>
      <a className="button button-primary" href={href} download={file.name} data-testid="viewer-download">
        <Icon name="download" size={18} /> {t('viewer.download')}
      </a>
    </div>
  );
}

/** An address of bytes in memory for a download link, released with the page. */
export function useObjectUrl(bytes: Blob): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(bytes);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [bytes]);
  return url;
}
