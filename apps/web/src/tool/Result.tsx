// The result of a run: downloads, how long the server keeps them (or Delete now), a preview of the
// first output, and another tool to continue with on it without downloading it.
import {
  hasAcceptedExtension,
  isImageFileName,
  ShareFileType,
  toolDefinitions,
  type ServerConfig,
  type ToolDefinition,
} from '@quire/contracts';
import { useEffect, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../account/session';
import { SaveToCloud } from '../cloud/SaveToCloud';
import { getServerConfig } from '../api/files';
import { bulkDownloadUrl, deleteOutputs, outputAsFile, type TaskOutputLink } from '../api/tasks';
import { startListWith } from '../files/savedFiles';
import { useI18n, useT } from '../i18n/I18nProvider';
import { usePdfDocument } from '../pdf/pdfDocument';
import { PageThumb } from '../pdf/PageThumb';
import { ShareDialog } from '../share/ShareDialog';
import { useToolTitle } from '../search/ToolSearch';
import { startDownload } from '../ui/download';
import { useSizes } from '../ui/useSizes';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { useToast } from '../ui/Toast';
import { OutputSaving } from './OutputSaving';
import type { RunState } from './useTaskRun';

interface ResultProps {
  tool: ToolDefinition;
  state: Extract<RunState, { phase: 'done' }>;
  onStartOver(): void;
}

/**
 * What a page showing outputs may do with them. A visitor's outputs leave the server once signed in
 * (the run is then bound to the account): until then no preview, and a download or another tool
 * asks for the sign-in first.
 */
export function useOutputAccess() {
  const session = useSession();
  const [config, setConfig] = useState<ServerConfig>();
  useEffect(() => {
    void getServerConfig().then(setConfig);
  }, []);
  const signInFirst = session.status !== 'signedIn' && config?.sign_in_to_download !== false;
  const whenSignedIn = async (action: () => unknown) => {
    if (!signInFirst || (await session.requireSignIn({ kind: 'download' }))) await action();
  };
  const downloadClick = (url: string, name?: string) => (e: MouseEvent) => {
    if (!signInFirst) return;
    e.preventDefault();
    void whenSignedIn(() => startDownload(url, name));
  };
  return { config, signInFirst, whenSignedIn, downloadClick };
}

/** Deletes a run's outputs from the server now; true once done. */
export function useDeleteNow(multiId: string | undefined) {
  const toast = useToast();
  const [deleted, setDeleted] = useState(false);
  const deleteNow = async () => {
    if (!multiId) return;
    try {
      await deleteOutputs(multiId);
      setDeleted(true);
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e));
    }
  };
  return { deleted, deleteNow };
}

/** How long results stay, and the button that deletes them now (or that they are gone). */
export function Retention({ hours, deleted, onDelete }: { hours: number | undefined; deleted: boolean; onDelete(): void }) {
  const t = useT();
  return deleted ? (
    <p className="result-retention" data-testid="retention">
      {t('result.deleted')}
    </p>
  ) : (
    <p className="result-retention" data-testid="retention">
      {hours !== undefined && t('result.kept', { hours })}{' '}
      <button type="button" className="link-button" data-testid="delete-now" onClick={onDelete}>
        {t('result.deleteNow')}
      </button>
    </p>
  );
}

export function Result({ tool, state, onStartOver }: ResultProps) {
  const sizes = useSizes();
  const t = useT();
  const { user } = useSession();
  const { config, signInFirst, whenSignedIn, downloadClick } = useOutputAccess();
  const { deleted, deleteNow } = useDeleteNow(state.multiId);
  const [sharing, setSharing] = useState<TaskOutputLink>();
  const several = state.outputs.length > 1;
  const first = state.outputs[0];

  return (
    <section className="status-card result" data-testid="result">
      <span className="result-check">
        <Icon name="check" size={32} />
      </span>
      <h1>{several ? t('result.titleMany', { count: state.outputs.length }) : t('result.title')}</h1>
      {!deleted && first && !signInFirst && <OutputPreview output={first} />}
      {!deleted && several && (
        <a
          className="button button-primary button-xl"
          href={bulkDownloadUrl(state.multiId)}
          download
          data-testid="download-all"
          onClick={downloadClick(bulkDownloadUrl(state.multiId))}
        >
          <Icon name="download" /> {t('result.downloadAll')}
        </a>
      )}
      {!deleted && (
        <ul className="result-files">
          {state.outputs.map((out) => (
            <li key={out.url}>
              <Icon name="file" />
              {/* The name leads to the output's own page: view, save or share it there. */}
              <LocaleLink
                className="file-name result-file-link"
                to={`/app/download-file?${new URLSearchParams({ task_id: out.taskId, ...(out.index !== undefined && { index: String(out.index) }) })}`}
                title={t('result.moreOptions')}
                data-testid="download-page-link"
              >
                {out.name}
              </LocaleLink>
              <span className="file-meta">{sizes.bytes(out.size)}</span>
              <OutputSaving output={out} />
              {/* One group: short of room it moves below the name as a whole, rather than cut the name short. */}
              <span className="result-actions">
                {user && <SaveToCloud output={out} />}
                <button type="button" className="button button-outline" data-testid="share" onClick={() => setSharing(out)}>
                  <Icon name="share" size={18} /> {t('result.share')}
                </button>
                <a
                  className={several ? 'button button-ghost' : 'button button-primary'}
                  href={out.url}
                  download={out.name}
                  data-testid="download"
                  onClick={downloadClick(out.url, out.name)}
                >
                  <Icon name="download" size={18} /> {t('result.download')}
                </a>
              </span>
            </li>
          ))}
        </ul>
      )}
      {!deleted &&
        state.outputs.map(
          (out) =>
            out.note && (
              <p key={out.url} className="panel-note" data-testid="output-note">
                {several ? `${out.name}: ${out.note}` : out.note}
              </p>
            ),
        )}
      <Retention hours={config?.retention_hours} deleted={deleted} onDelete={() => void deleteNow()} />
      {!deleted && first && <ContinueWith output={first} current={tool} whenSignedIn={whenSignedIn} />}
      <button type="button" className="link-button" data-testid="start-over" onClick={onStartOver}>
        {t('result.startOver')}
      </button>
      {sharing && (
        <ShareDialog
          shareKey={sharing.taskId}
          fileType={ShareFileType.Task}
          {...(sharing.index !== undefined && { index: sharing.index })}
          fileName={sharing.name}
          onClose={() => setSharing(undefined)}
        />
      )}
    </section>
  );
}

/** The first page of a PDF output, or an image output itself. */
export function OutputPreview({
  output,
  size = 180,
  onPageCount,
}: {
  output: TaskOutputLink;
  size?: number;
  onPageCount?(pages: number): void;
}) {
  const isPdf = /\.pdf$/i.test(output.name);
  const pdf = usePdfDocument(isPdf ? output.url : undefined);
  useEffect(() => {
    if (pdf.doc) onPageCount?.(pdf.doc.numPages);
  }, [pdf.doc, onPageCount]);
  if (isImageFileName(output.name)) return <img className="result-preview" src={output.url} alt="" data-testid="result-preview" />;
  if (!isPdf || pdf.failed) return null;
  return (
    <div className="result-preview" data-testid="result-preview">
      <PageThumb doc={pdf.doc} pageNumber={1} size={size} />
    </div>
  );
}

/** Another tool that takes the output, started on it: the server registers the output as an upload. */
export function ContinueWith({
  output,
  current,
  whenSignedIn,
}: {
  output: TaskOutputLink;
  current: ToolDefinition;
  whenSignedIn(action: () => unknown): Promise<void>;
}) {
  const t = useT();
  const toast = useToast();
  const titleOf = useToolTitle();
  const navigate = useNavigate();
  const { localePath } = useI18n();
  const [busy, setBusy] = useState(false);
  const next = toolDefinitions.filter((d) => d.listed !== false && d.slug !== current.slug && hasAcceptedExtension(output.name, d));
  if (next.length === 0) return null;

  const start = async (slug: string) => {
    setBusy(true);
    try {
      startListWith(slug, await outputAsFile(output));
      void navigate(localePath(`/app/${slug}`));
    } catch (e) {
      setBusy(false);
      toast(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <label className="continue-with">
      <span>{t('result.continueWith')}</span>
      <select
        value=""
        disabled={busy}
        data-testid="continue-with"
        onChange={(e) => {
          const slug = e.target.value;
          if (slug) void whenSignedIn(() => start(slug));
        }}
      >
        <option value="">{t('result.chooseTool')}</option>
        {next.map((d) => (
          <option key={d.slug} value={d.slug}>
            {titleOf(d)}
          </option>
        ))}
      </select>
    </label>
  );
}
