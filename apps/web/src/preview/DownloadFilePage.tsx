// /app/download-file?task_id=&index=: one result of a tool, to download, open in the viewer, save
// to the document cloud, share, or continue with another tool; how long it stays, or delete it now.
import { ErrorCode, ShareFileType, toolDefinitions } from '@quire/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../account/session';
import { ApiError, isAbort } from '../api/client';
import { bindRun, fetchTaskEntries, outputLinks, type TaskOutputLink } from '../api/tasks';
import { SaveToCloud } from '../cloud/SaveToCloud';
import { useT } from '../i18n/I18nProvider';
import { ShareDialog } from '../share/ShareDialog';
import { ContinueWith, OutputPreview, Retention, useDeleteNow, useOutputAccess } from '../tool/Result';
import { useSizes } from '../ui/useSizes';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { sourceFromQuery, taskPreviewPath } from './viewerSource';
import './preview.css';

type Found =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'notFound' }
  | { state: 'failed'; message: string }
  | { state: 'found'; output: TaskOutputLink; multiId: string; tool: string };

/** The output the query names: `index` of a task with several, else its only one. */
function useTaskOutput(taskId: string | undefined, index: number | undefined): Found {
  const [found, setFound] = useState<Found>({ state: 'loading' });
  const session = useSession();
  useEffect(() => {
    if (!taskId || session.status === 'loading') return;
    const abort = new AbortController();
    fetchTaskEntries({ task_id: taskId }, abort.signal).then(
      (entries) => {
        const entry = entries.find((e) => e.task_id === taskId && e.is_done);
        const links = entry ? outputLinks([entry]) : [];
        const output = links.length > 1 ? links.find((l) => l.index === index) : links[0];
        setFound(entry && output ? { state: 'found', output, multiId: entry.multi_id, tool: entry.tool } : { state: 'notFound' });
      },
      (e: unknown) => {
        if (isAbort(e) || abort.signal.aborted) return;
        setFound(
          e instanceof ApiError && e.code === ErrorCode.NoData
            ? { state: 'notFound' }
            : { state: 'failed', message: e instanceof Error ? e.message : String(e) },
        );
      },
    );
    return () => abort.abort();
  }, [taskId, index, session.status]);
  return taskId ? found : { state: 'missing' };
}

export function DownloadFilePage() {
  const t = useT();
  const { search } = useLocation();
  const source = useMemo(() => sourceFromQuery(search), [search]);
  const task = source?.kind === 'task' ? source : undefined;
  const found = useTaskOutput(task?.taskId, task?.index);
  useDocumentTitle(found.state === 'found' ? found.output.name : t('result.title'));

  return (
    <section className="status-card result download-file" data-testid="download-file" data-state={found.state}>
      {found.state === 'loading' && <span className="spinner" aria-hidden="true" />}
      {found.state === 'missing' && <h1>{t('downloadPage.missing')}</h1>}
      {found.state === 'notFound' && <h1>{t('downloadPage.notFound')}</h1>}
      {found.state === 'failed' && <h1>{found.message}</h1>}
      {found.state === 'found' && <FoundOutput output={found.output} multiId={found.multiId} toolId={found.tool} />}
    </section>
  );
}

function FoundOutput({ output, multiId, toolId }: { output: TaskOutputLink; multiId: string; toolId: string }) {
  const t = useT();
  const sizes = useSizes();
  const { user, onSignIn } = useSession();
  const { config, signInFirst, whenSignedIn, downloadClick } = useOutputAccess();
  const { deleted, deleteNow } = useDeleteNow(multiId);
  const [pages, setPages] = useState<number>();
  const [sharing, setSharing] = useState(false);
  const onPageCount = useCallback((n: number) => setPages(n), []);
  const tool = toolDefinitions.find((d) => d.id === toolId);
  // A visitor's run becomes the account's when signing in here, as on the tool's page.
  useEffect(() => onSignIn(() => bindRun(multiId)), [onSignIn, multiId]);

  if (deleted) return <Retention hours={config?.retention_hours} deleted onDelete={() => undefined} />;
  return (
    <>
      <span className="result-check">
        <Icon name="check" size={32} />
      </span>
      <h1>{t('result.title')}</h1>
      {!signInFirst && <OutputPreview output={output} size={200} onPageCount={onPageCount} />}
      <div className="download-file-facts">
        <span className="file-name" data-testid="download-file-name">
          {output.name}
        </span>
        <span className="file-meta" data-testid="download-file-meta">
          {sizes.bytes(output.size)}
          {pages !== undefined && ` · ${t('downloadPage.pages', { count: pages })}`}
        </span>
      </div>
      <a
        className="button button-primary button-xl"
        href={output.url}
        download={output.name}
        data-testid="download"
        onClick={downloadClick(output.url, output.name)}
      >
        <Icon name="download" /> {t('result.download')}
      </a>
      <div className="button-row download-file-actions">
        {/\.pdf$/i.test(output.name) && (
          <LocaleLink className="button button-outline" to={taskPreviewPath(output.taskId, output.index)} data-testid="open-in-viewer">
            <Icon name="search" size={18} /> {t('downloadPage.open')}
          </LocaleLink>
        )}
        {user && <SaveToCloud output={output} labelled />}
        <button type="button" className="button button-outline" data-testid="share" onClick={() => setSharing(true)}>
          <Icon name="share" size={18} /> {t('result.share')}
        </button>
      </div>
      <Retention hours={config?.retention_hours} deleted={false} onDelete={() => void deleteNow()} />
      {tool && <ContinueWith output={output} current={tool} whenSignedIn={whenSignedIn} />}
      {sharing && (
        <ShareDialog
          shareKey={output.taskId}
          fileType={ShareFileType.Task}
          {...(output.index !== undefined && { index: output.index })}
          fileName={output.name}
          onClose={() => setSharing(false)}
        />
      )}
    </>
  );
}
