// The one tool page every tool uses: upload, the tool's option panel, the task, the result.
import { ErrorCode, toolCallPath, type LimitRefusal, type ToolDefinition } from '@quire/contracts';
import { type ComponentType, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { FromPdfConversions } from './FromPdfConversions';
import { useSession } from '../account/session';
import { UpgradeDialog } from '../account/UpgradeDialog';
import { CloudFilePicker } from '../cloud/CloudFilePicker';
import { ApiError, isAbort, messageFor } from '../api/client';
import { isPending, isReady } from '../files/fileList';
import { useFileList } from '../files/useFileList';
import { useT } from '../i18n/I18nProvider';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Icon } from '../ui/Icon';
import { ProgressBar } from '../ui/ProgressBar';
import { TASK_TOAST_MS, useToast } from '../ui/Toast';
import { ToolIcon } from '../ui/ToolIcon';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { useFileDrop } from '../ui/useFileDrop';
import { FileList } from './FileList';
import { UploadPrompt } from './UploadPrompt';
import { takeHandedOffFiles } from '../files/handOff';
import type { PanelParts } from './panels/types';
import { toolPageOf } from './toolPages';
import { Result } from './Result';
import { TaskRunError, useTaskRun } from './useTaskRun';
import { useBindOnSignIn } from './useBindOnSignIn';
import { keepRun, loadKeptRun } from './keptRun';
import { bindRun } from '../api/tasks';
import { useLeaveConfirm } from './useLeaveConfirm';

/** Failures after which the file list is cleared, as the product does (NEED_OCR's too). */
const CLEARS_FILES: readonly number[] = [ErrorCode.TaskFailed, ErrorCode.NoData, ErrorCode.NeedOcr];

/** What a tool shows below its upload zone, before a file is chosen: the PDF converter, which makes PDFs of any file, offers the other way too. */
const belowUpload: Partial<Record<string, ComponentType>> = { 'pdf-converter': FromPdfConversions };

export function ToolPage({ tool }: { tool: ToolDefinition }) {
  const t = useT();
  const toast = useToast();
  // The plan's limit a file or a task passed: the upgrade dialog is open for it.
  const [limit, setLimit] = useState<LimitRefusal | null>(null);
  const files = useFileList(tool, setLimit);
  const task = useTaskRun();
  const { requireSignIn, user, status } = useSession();
  const [pickingFromCloud, setPickingFromCloud] = useState(false);
  useBindOnSignIn(() => ({
    fileIds: files.items.flatMap((f) => (f.info ? [f.info.file_id] : [])),
    multiId: task.state.phase === 'done' ? task.state.multiId : undefined,
  }));
  const input = useRef<HTMLInputElement>(null);
  const drop = useFileDrop((dropped) => void files.addFiles(dropped));
  const { panel: Panel, texts } = toolPageOf(tool);
  const Below = belowUpload[tool.slug];
  const title = t(texts.title);
  useDocumentTitle(title);

  // Damaged and failed files are left out; the rest must be ready before the tool can run.
  const ready = files.items.filter(isReady);
  const waiting = files.items.some(isPending);

  // Files in the list and no result yet: leaving would lose them, so it asks first.
  const done = task.state.phase === 'done';
  const leaving = useLeaveConfirm(files.items.length > 0 && !done);
  // Once the work is done, going elsewhere leaves this page empty for the next visit.
  const onLeave = useRef<() => void>(undefined);
  onLeave.current = () => done && files.clear();
  useEffect(() => () => onLeave.current?.(), []);
  // Files chosen on a landing page come along.
  useEffect(() => {
    const handed = takeHandedOffFiles(`/app/${tool.slug}`);
    if (handed.length > 0) void files.addFiles(handed);
  }, [tool.slug, files.addFiles]);

  // A visitor's result outlives a reload until an account takes it (keptRun.ts).
  const resumed = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the session is known
  useEffect(() => {
    if (status === 'loading' || resumed.current) return;
    resumed.current = true;
    const kept = loadKeptRun(tool.slug);
    if (!kept || task.state.phase !== 'idle') return;
    void (async () => {
      // Signed in since (on another page): the run is made the account's first, as a sign-in here does.
      if (status === 'signedIn') await bindRun(kept);
      await task.resume(kept);
    })().catch((e: unknown) => {
      // Expired, failed or not this visitor's: nothing to show again.
      if (!isAbort(e)) keepRun(tool.slug, undefined);
    });
  }, [status]);
  const shownRun = task.state.phase === 'done' ? task.state.multiId : undefined;
  useEffect(() => {
    if (shownRun) keepRun(tool.slug, status === 'signedOut' ? shownRun : undefined);
  }, [shownRun, status, tool.slug]);

  const pickFiles = () => input.current?.click();
  const startOver = () => {
    task.reset();
    files.clear();
    keepRun(tool.slug, undefined);
  };

  const runTool = async (body: unknown) => {
    const uids = ready.map((f) => f.uid);
    // The machine has no event out of taskingFailed: another attempt starts again from ossSuccessful.
    const failedBefore = ready.filter((f) => f.state === 'taskingFailed').map((f) => f.uid);
    files.fire(failedBefore, { type: 'goto', to: 'ossSuccessful' });
    files.fire(uids, { type: 'task' });
    // A list of bodies is one call per file (compress), their tasks grouped in one multi_id.
    const bodies = (Array.isArray(body) ? body : [body]) as Record<string, unknown>[];
    try {
      await task.run(bodies.map((b) => ({ path: toolCallPath(tool, b), body: b })));
      files.fire(uids, { type: 'download' });
    } catch (e) {
      // A run stopped (cancelled, or the page left) gives its files back for another run.
      if (isAbort(e)) {
        files.fire(uids, { type: 'goto', to: 'ossSuccessful' });
        return;
      }
      // The day's allowance of a visitor is used up: nothing was made, and signed in it runs.
      if (e instanceof ApiError && e.code === ErrorCode.DailyTaskLimit) {
        files.fire(uids, { type: 'goto', to: 'ossSuccessful' });
        if (await requireSignIn({ kind: 'taskLimit', tasksPerDay: e.upgrade?.limit ?? 1 })) await runTool(body);
        return;
      }
      files.fire(uids, { type: 'taskError' });
      // Only the conversion finds out that a document needs a password (or that the one given is
      // wrong): its file asks for one, as a locked PDF does at upload.
      if (e instanceof TaskRunError && (e.code === ErrorCode.Encrypted || e.code === ErrorCode.WrongPassword)) {
        const fileId = (bodies[e.callIndex] as { file_id?: string } | undefined)?.file_id;
        const locked = ready.find((f) => f.info.file_id === fileId);
        if (locked) files.askPassword(locked.uid, e.code === ErrorCode.WrongPassword);
      }
      if (e instanceof ApiError && e.upgrade) setLimit(e.upgrade);
      else toast(e instanceof Error ? e.message : messageFor(ErrorCode.TaskFailed), { durationMs: TASK_TOAST_MS });
      // The task failed for no reason in the file (3125), its run is gone (2405), or this server has
      // no OCR (4018): the list starts afresh.
      if (e instanceof ApiError && CLEARS_FILES.includes(e.code)) files.clear();
    }
  };

  const layout = ({ pages, options, request }: PanelParts): ReactNode => {
    const enough = ready.length >= tool.minFiles;
    const canRun = request.ok && enough && !waiting && task.state.phase === 'idle';
    const hint = waiting ? t('tool.waitForFiles') : !enough ? t('tool.needFiles', { count: tool.minFiles }) : undefined;
    return (
      <div className="workspace">
        <div className="workspace-toolbar">
          <h1>{title}</h1>
          <div className="workspace-add">
            {user && (
              <button type="button" className="button button-ghost" data-testid="add-from-cloud" onClick={() => setPickingFromCloud(true)}>
                <Icon name="cloud" size={18} /> {t('upload.fromCloud')}
              </button>
            )}
            <button type="button" className="button button-ghost" data-testid="add-files" onClick={pickFiles}>
              <Icon name="plus" size={18} /> {tool.isSingleUpload ? t('upload.replace') : t('upload.addMore')}
            </button>
          </div>
        </div>
        <div className="workspace-files">
          <FileList files={files} reorderable={!tool.isSingleUpload} />
        </div>
        {pages && <div className="workspace-pages">{pages}</div>}
        <aside className="workspace-side">
          <h2>{t('tool.options')}</h2>
          <div className="panel-options">{options}</div>
          <div className="side-actions">
            {hint && <p className="panel-hint">{hint}</p>}
            <button
              type="button"
              className="button button-primary button-large"
              disabled={!canRun}
              data-testid="run-tool"
              onClick={() => request.ok && void runTool(request.body)}
            >
              {t(texts.action)}
              <Icon name="arrowRight" size={18} />
            </button>
          </div>
        </aside>
      </div>
    );
  };

  let content: ReactNode;
  if (task.state.phase === 'done') {
    content = <Result tool={tool} state={task.state} onStartOver={startOver} />;
  } else if (files.items.length === 0) {
    content = (
      <section className="upload-hero" data-testid="dropzone">
        <ToolIcon tool={tool} size={56} />
        <h1>{title}</h1>
        <p>{t(texts.description)}</p>
        <UploadPrompt tool={tool} onPick={pickFiles} />
        {user && (
          <button type="button" className="button button-outline" data-testid="hero-from-cloud" onClick={() => setPickingFromCloud(true)}>
            <Icon name="cloud" size={18} /> {t('upload.fromCloud')}
          </button>
        )}
        {Below && <Below />}
      </section>
    );
  } else {
    const first = ready[0];
    // A single-file tool starts its options afresh for each new file.
    const panelKey = `${tool.slug}:${tool.isSingleUpload ? (first?.uid ?? 'waiting') : 'list'}`;
    // The panel's code is fetched the first time its page shows it.
    content = (
      <Suspense fallback={null}>
        <Panel key={panelKey} files={ready} layout={layout} />
      </Suspense>
    );
  }

  return (
    <div className={`tool-page ${drop.active ? 'drop-active' : ''}`} {...drop.dropProps}>
      <input
        ref={input}
        type="file"
        hidden
        accept={[tool.acceptFormat, ...tool.extFrom.map((e) => `.${e}`)].join(',')}
        multiple={!tool.isSingleUpload}
        data-testid="file-input"
        onChange={(e) => {
          void files.addFiles([...(e.target.files ?? [])]);
          e.target.value = ''; // picking the same file again must fire change again
        }}
      />
      {content}
      {/* Over the workspace rather than instead of it, so the options survive a failed task. */}
      {task.state.phase === 'running' && (
        <Processing
          title={title}
          progress={task.state.progress}
          onCancel={() => void task.cancel().catch((e: unknown) => toast(e instanceof Error ? e.message : messageFor(ErrorCode.Generic)))}
        />
      )}
      {limit && <UpgradeDialog refusal={limit} onClose={() => setLimit(null)} />}
      {pickingFromCloud && (
        <CloudFilePicker
          takes={tool}
          onClose={() => setPickingFromCloud(false)}
          onPick={(picked) => {
            setPickingFromCloud(false);
            void files.addCloudFiles(picked);
          }}
        />
      )}
      {leaving && (
        <ConfirmDialog
          title={t('leave.title')}
          message={t('leave.message')}
          confirmLabel={t('leave.confirm')}
          cancelLabel={t('leave.stay')}
          onConfirm={() => {
            files.clear();
            leaving.proceed();
          }}
          onCancel={leaving.stay}
        />
      )}
    </div>
  );
}

function Processing({ title, progress, onCancel }: { title: string; progress: number; onCancel(): void }) {
  const t = useT();
  return (
    <div className="processing-overlay">
      <section className="status-card" data-testid="processing" role="status">
        <div className="spinner" aria-hidden="true" />
        <h1>{t('task.processing', { tool: title })}</h1>
        <ProgressBar percent={progress} label={`${progress}%`} testId="task-progress" />
        <button type="button" className="button button-outline" data-testid="cancel-task" onClick={onCancel}>
          {t('task.cancel')}
        </button>
      </section>
    </div>
  );
}
