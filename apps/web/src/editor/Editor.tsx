// The editor's workspace for one opened file: toolbar, page thumbnails and the pages, over an
// edit session kept in the browser until it is saved.
import { type CloudFile, DEFAULT_FONT_FAMILY, ShareFileType } from '@quire/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { NavigationType, useBlocker } from 'react-router';
import { useSession } from '../account/session';
import { saveTaskOutput } from '../api/cloud';
import { ApiError, messageFor } from '../api/client';
import { fileDownloadUrl } from '../api/files';
import type { TaskOutputLink } from '../api/tasks';
import { cloudPath } from '../cloud/cloudModel';
import { useI18n } from '../i18n/I18nProvider';
import { splitLocalePrefix } from '../i18n/locales';
import { usePdfDocument } from '../pdf/pdfDocument';
import { ShareDialog } from '../share/ShareDialog';
import { SignatureChoice } from '../sign/SignatureChoice';
import type { SignatureImage } from '../sign/signatureImage';
import { useSignatureMaker } from '../sign/useSignatureMaker';
import { Icon } from '../ui/Icon';
import { TASK_TOAST_MS, useToast } from '../ui/Toast';
import { ToolButton, TOOL_LOOK, TOOLS } from './tools';
import { EditSession, sessionKey } from './editSession';
import { type EditOp, filledValues, layoutFrames, newBlankPage, newOpId, pageLayout, type TextStyle } from './editOps';
import { EditorPageView, type EditorMode, type EditorTool, type PendingImage, type ToolStyle } from './EditorPageView';
import { isDrawn, moved } from './OpView';
import type { OpenedFile } from './openFile';
import { PageStrip } from './PageStrip';
import { useFormWidgets } from './FormLayer';
import { NUDGE_PT } from './objectBox';
import { type PageFrame, pageFrames } from './pageCoordinates';
import { saveEdits } from './saveEdits';
import { ScrollRow } from './ScrollRow';
import { TextStyleBar } from './TextStyleBar';
import './editor.css';

const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
/** Export waits this long after the click, so the button's pressed state is seen first. */
const EXPORT_DELAY_MS = 20;

const storage = () => window.localStorage;

function readImage(file: File): Promise<PendingImage> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => {
      const dataUrl = String(reader.result);
      const img = new Image();
      img.onload = () => resolve({ dataUrl, aspect: img.naturalWidth / Math.max(1, img.naturalHeight) });
      img.onerror = () => reject(new Error('not an image'));
      img.src = dataUrl;
    };
    reader.readAsDataURL(file);
  });
}

function download(url: string, name: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

interface EditorProps {
  file: OpenedFile;
  mode: EditorMode;
  onMode(mode: EditorMode): void;
  /** The edits were saved into tool file `fileId`: editing goes on there. */
  onSaved(fileId: string): void;
  /** Where Save put the edited PDF in the account's cloud last: later saves replace it. */
  cloudCopy: CloudFile | null;
  onCloudCopy(copy: CloudFile): void;
}

export function Editor({ file, mode, onMode, onSaved, cloudCopy, onCloudCopy }: EditorProps) {
  const { t, localePath } = useI18n();
  const { user } = useSession();
  const toast = useToast();
  const session = useMemo(() => new EditSession<EditOp>(storage(), sessionKey(file.fileId, file.md5)), [file.fileId, file.md5]);
  const ops = useSyncExternalStore(
    useCallback((listener) => session.subscribe(listener), [session]),
    () => session.ops,
  );
  const { doc, failed } = usePdfDocument(file.bytes, file.password);
  const [tool, setTool] = useState<EditorTool>('select');
  const [style, setStyle] = useState<ToolStyle>({
    color: '#d93025',
    fill: null,
    lineWidth: 2,
    text: { font: DEFAULT_FONT_FAMILY, size: 12, color: '#000000', bold: false, italic: false },
  });
  const [pendingImage, setPendingImage] = useState<PendingImage | null>(null);
  // The signature tool makes its signature as Sign PDF does: drawn, typed or a picture, or one the account saved.
  const signWith = (image: SignatureImage) => setPendingImage({ dataUrl: image.png, aspect: image.width / image.height });
  const signatures = useSignatureMaker((signature) => signWith(signature.image));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [zoom, setZoom] = useState(1);
  const [saving, setSaving] = useState(false);
  const [sharing, setSharing] = useState<{ fileId: string } | null>(null);
  const [stripOpen, setStripOpen] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);
  const imageInput = useRef<HTMLInputElement>(null);

  const pages = useMemo(() => (doc ? pageLayout(ops, doc.numPages) : []), [ops, doc]);
  // Blank pages take the size of a page of the file: the view needs every page's frame.
  const [fileFrames, setFileFrames] = useState<ReadonlyMap<number, PageFrame>>(new Map());
  useEffect(() => {
    if (doc) void pageFrames(doc).then(setFileFrames);
  }, [doc]);
  const frames = useMemo(() => layoutFrames(pages, fileFrames), [pages, fileFrames]);
  const widgets = useFormWidgets(file);
  const values = useMemo(() => filledValues(ops), [ops]);
  const fill = useCallback(
    (name: string, value: string | boolean) => {
      const earlier = session.ops.find((op) => op.kind === 'fillField' && op.name === name);
      if (earlier) session.replace({ ...earlier, kind: 'fillField', name, value });
      else session.add({ id: newOpId(), kind: 'fillField', name, value });
    },
    [session],
  );
  const flattenOp = ops.find((op) => op.kind === 'flatten');

  const fitWidth = useCallback(async () => {
    if (!doc || !scroller.current) return;
    const first = await doc.getPage(pages[0]?.source ?? 1);
    const { width } = first.getViewport({ scale: 1, rotation: (first.rotate + (pages[0]?.rotation ?? 0)) % 360 });
    setZoom(Math.max(0.25, Math.min(3, (scroller.current.clientWidth - 32) / width)));
  }, [doc, pages]);

  // Opened at the width of the window, up to one and a half times the page's own size.
  const fitted = useRef(false);
  useEffect(() => {
    if (!doc || fitted.current || !scroller.current) return;
    fitted.current = true;
    void doc.getPage(1).then((p) => {
      const width = p.getViewport({ scale: 1 }).width;
      setZoom(Math.max(0.25, Math.min(1.5, (scroller.current!.clientWidth - 32) / width)));
    });
  }, [doc]);

  const add = useCallback((op: EditOp) => session.add(op), [session]);
  const replace = useCallback((op: EditOp) => session.replace(op), [session]);
  const remove = useCallback((id: string) => session.remove(id), [session]);

  /** The edits written into a new tool file (none: the file as it is); null when that failed, said in a toast. */
  const save = useCallback(async (): Promise<{ fileId: string; output?: TaskOutputLink } | null> => {
    if (!session.ops.length) return { fileId: file.fileId };
    if (!doc) return null;
    setSaving(true);
    try {
      const saved = await saveEdits(file, session.ops, await pageFrames(doc));
      session.discard();
      return saved;
    } catch (e) {
      toast(e instanceof ApiError ? messageFor(e.code, e.message) : t('editor.saveFailed'), { kind: 'warning', durationMs: TASK_TOAST_MS });
      return null;
    } finally {
      setSaving(false);
    }
  }, [file, session, doc, toast, t]);

  /** An account's Save keeps the PDF in its cloud: the first save adds it (numbered beside a file of its name), later ones replace it. */
  const keepInCloud = async (output: TaskOutputLink) => {
    try {
      const copy = cloudCopy
        ? await saveTaskOutput(output, cloudCopy.folder_id, 'replace', cloudCopy.name)
        : await saveTaskOutput(output, null, 'rename');
      onCloudCopy(copy);
      toast(t('editor.savedToCloud', { name: copy.name }), {
        kind: 'success',
        durationMs: TASK_TOAST_MS,
        link: { label: t('cloud.openFolder'), to: localePath(cloudPath(copy.folder_id)) },
      });
    } catch (e) {
      toast(e instanceof ApiError ? messageFor(e.code, e.message) : String(e), { kind: 'warning', durationMs: TASK_TOAST_MS });
    }
  };

  // Save: an account's PDF goes into its cloud; a visitor has none, so it is downloaded, and the toast says so.
  const saveAndGoOn = async () => {
    const saved = await save();
    if (!saved?.output) return;
    if (user) await keepInCloud(saved.output);
    else {
      download(fileDownloadUrl(saved.fileId), file.name);
      toast(t('editor.savedDownloaded', { name: file.name }), { kind: 'success', durationMs: TASK_TOAST_MS });
    }
    onSaved(saved.fileId);
  };

  const exportPdf = () => {
    setTimeout(() => {
      void save().then((saved) => {
        if (!saved) return;
        download(fileDownloadUrl(saved.fileId), file.name);
        if (saved.fileId !== file.fileId) onSaved(saved.fileId);
      });
    }, EXPORT_DELAY_MS);
  };

  const share = async () => {
    const saved = await save();
    if (!saved) return;
    setSharing({ fileId: saved.fileId });
    if (saved.fileId !== file.fileId) onSaved(saved.fileId);
  };

  // Leaving the editor for another page saves the edits first.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation, historyAction }) =>
      ops.length > 0 &&
      historyAction !== NavigationType.Pop &&
      splitLocalePrefix(currentLocation.pathname).rest !== splitLocalePrefix(nextLocation.pathname).rest,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void save().then((saved) => (saved ? blocker.proceed() : blocker.reset()));
  }, [blocker, save]);

  // Keyboard: undo and redo, Delete, arrows nudge, Escape lets go.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable)) return;
      // Keys in a dialog are the dialog's: Escape closing the cloud picker must not drop the signature tool.
      if (target?.closest('dialog')) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) session.redo();
        else session.undo();
        return;
      }
      if (mod && key === 'y') {
        e.preventDefault();
        session.redo();
        return;
      }
      if (e.key === 'Escape') {
        setSelectedId(null);
        setTool('select');
        return;
      }
      const selected = selectedId ? session.find(selectedId) : undefined;
      if (!selected) return;
      if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        session.remove(selected.id);
        setSelectedId(null);
        return;
      }
      const step = e.shiftKey ? 10 * NUDGE_PT : NUDGE_PT;
      const nudges: Record<string, [number, number]> = {
        ArrowLeft: [-step, 0],
        ArrowRight: [step, 0],
        ArrowUp: [0, step],
        ArrowDown: [0, -step],
      };
      const nudge = nudges[e.key];
      if (nudge && isDrawn(selected)) {
        e.preventDefault();
        session.replace(moved(selected, ...nudge));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [session, selectedId]);

  const chooseTool = (next: EditorTool) => {
    setSelectedId(null);
    setTool(next);
    if (next === 'image' && !pendingImage) imageInput.current?.click();
    if (next === 'signature' && !pendingImage && !signatures.saved.length) signatures.create();
  };

  const showPage = (source: number) =>
    scroller.current?.querySelector(`[data-page="${source}"]`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });

  const selected = selectedId ? session.find(selectedId) : undefined;
  // The style bar edits the text selected, or else the next text box's.
  const selectedText = selected?.kind === 'replaceText' || selected?.kind === 'textBox' ? selected : undefined;
  const textStyle = selectedText?.style ?? (tool === 'textBox' ? style.text : null);
  const setTextStyle = (next: TextStyle, continued: boolean) => {
    if (!selectedText) setStyle({ ...style, text: next });
    else if (continued) session.amend({ ...selectedText, style: next });
    else session.replace({ ...selectedText, style: next });
  };
  const zoomBy = (direction: 1 | -1) => {
    const next = direction > 0 ? ZOOM_STEPS.find((z) => z > zoom + 0.01) : [...ZOOM_STEPS].reverse().find((z) => z < zoom - 0.01);
    if (next) setZoom(next);
  };

  return (
    <div className="editor" data-testid="editor" data-mode={mode} data-ops={ops.length}>
      <div className="editor-toolbar" role="toolbar" aria-label={t('editor.tools')}>
        <div className="editor-modes" role="tablist">
          {(['annotate', 'edit'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={mode === m}
              className={`editor-mode ${mode === m ? 'active' : ''}`}
              data-testid={`mode-${m}`}
              onClick={() => {
                setTool('select');
                onMode(m);
              }}
            >
              {m === 'edit' ? t('editor.modeEdit') : t('editor.modeAnnotate')}
            </button>
          ))}
        </div>
        <ScrollRow className="editor-tools" testId="editor-tools">
          {TOOLS[mode].map((name) => (
            <ToolButton
              key={name}
              icon={TOOL_LOOK[name].icon}
              label={t(TOOL_LOOK[name].label)}
              testId={`tool-${name}`}
              pressed={tool === name}
              onClick={() => chooseTool(name)}
            />
          ))}
          <label className="tool-color" title={t('editor.color')}>
            <input
              type="color"
              aria-label={t('editor.color')}
              value={style.color}
              onChange={(e) => setStyle({ ...style, color: e.target.value })}
            />
          </label>
          {['rectangle', 'ellipse'].includes(tool) && (
            <label className="tool-fill">
              <input
                type="checkbox"
                checked={style.fill !== null}
                onChange={(e) => setStyle({ ...style, fill: e.target.checked ? '#ffe8a3' : null })}
              />{' '}
              {t('editor.fill')}
            </label>
          )}
        </ScrollRow>
        {textStyle && <TextStyleBar style={textStyle} onChange={setTextStyle} />}
        {widgets.length > 0 && (
          <label className="tool-fill" data-testid="flatten-form">
            <input
              type="checkbox"
              checked={Boolean(flattenOp)}
              onChange={() => (flattenOp ? session.remove(flattenOp.id) : session.add({ id: newOpId(), kind: 'flatten' }))}
            />{' '}
            {t('editor.flatten')}
          </label>
        )}
        <div className="editor-history">
          <ToolButton icon="undo" label={t('editor.undo')} testId="undo" disabled={!session.canUndo} onClick={() => session.undo()} />
          <ToolButton icon="redo" label={t('editor.redo')} testId="redo" disabled={!session.canRedo} onClick={() => session.redo()} />
          <ToolButton icon="zoomOut" label={t('editor.zoomOut')} onClick={() => zoomBy(-1)} />
          <span className="editor-zoom" data-testid="zoom">
            {Math.round(zoom * 100)}%
          </span>
          <ToolButton icon="zoomIn" label={t('editor.zoomIn')} onClick={() => zoomBy(1)} />
          <ToolButton icon="fitWidth" label={t('editor.fitWidth')} testId="fit-width" onClick={() => void fitWidth()} />
        </div>
        <div className="editor-actions">
          {selected && (
            <button
              type="button"
              className="button button-outline button-small"
              data-testid="delete-selected"
              onClick={() => {
                session.remove(selected.id);
                setSelectedId(null);
              }}
            >
              <Icon name="trash" size={16} /> {t('editor.delete')}
            </button>
          )}
          <button
            type="button"
            className="button button-outline button-small editor-share"
            disabled={!doc || saving}
            data-testid="editor-share"
            onClick={() => void share()}
          >
            <Icon name="share" size={16} /> {t('editor.share')}
          </button>
          <button
            type="button"
            className="button button-outline button-small"
            disabled={!doc || saving || !ops.length}
            title={user ? t('cloud.saveToCloud') : t('editor.saveDownloads')}
            data-testid="editor-save"
            onClick={() => void saveAndGoOn()}
          >
            <Icon name="save" size={16} /> {saving ? t('editor.saving') : t('editor.save')}
          </button>
          <button
            type="button"
            className="button button-primary button-small"
            disabled={!doc || saving}
            data-testid="editor-export"
            onClick={exportPdf}
          >
            <Icon name="download" size={16} /> {t('editor.export')}
          </button>
        </div>
      </div>
      <input
        ref={imageInput}
        type="file"
        hidden
        accept="image/png,image/jpeg"
        data-testid="editor-image-input"
        onChange={(e) => {
          const picked = e.target.files?.[0];
          e.target.value = '';
          if (picked)
            void readImage(picked).then(setPendingImage, () =>
              toast(t('editor.notAnImage'), { kind: 'warning', durationMs: TASK_TOAST_MS }),
            );
        }}
      />
      <div className={`editor-body ${stripOpen ? '' : 'strip-closed'}`}>
        {doc && (
          <aside className="editor-strip">
            <button type="button" className="editor-strip-toggle" aria-expanded={stripOpen} onClick={() => setStripOpen(!stripOpen)}>
              {t('editor.pages')}
            </button>
            {stripOpen && (
              <PageStrip
                doc={doc}
                pages={pages}
                onShow={showPage}
                onRotate={(page, degrees) => add({ id: newOpId(), kind: 'rotatePage', page, degrees })}
                onDelete={(page) => add({ id: newOpId(), kind: 'deletePage', page })}
                onMove={(page, before) => add({ id: newOpId(), kind: 'movePage', page, before })}
                onAddBlank={(after) => add({ id: newOpId(), kind: 'addPage', page: newBlankPage(session.ops, doc.numPages), after })}
                frames={frames}
              />
            )}
          </aside>
        )}
        <div className="editor-pages" ref={scroller} data-testid="editor-pages">
          {tool === 'signature' && (
            <div className="editor-hint editor-signatures" data-testid="editor-signatures">
              {signatures.saved.map((s) => (
                <SignatureChoice
                  key={s.key}
                  image={s.image}
                  className={pendingImage?.dataUrl === s.image.png ? 'active' : ''}
                  aria-pressed={pendingImage?.dataUrl === s.image.png}
                  data-testid="editor-saved-signature"
                  onClick={() => signWith(s.image)}
                />
              ))}
              <button type="button" className="link-button" data-testid="editor-create-signature" onClick={signatures.create}>
                {t('sign.create')}
              </button>
              {pendingImage && <span>{t('editor.placeImage')}</span>}
            </div>
          )}
          {tool === 'image' && (
            <p className="editor-hint">
              {pendingImage ? t('editor.placeImage') : t('editor.chooseImage')}{' '}
              <button type="button" className="link-button" onClick={() => imageInput.current?.click()}>
                {t('editor.otherImage')}
              </button>
            </p>
          )}
          {tool === 'editText' && <p className="editor-hint">{t('editor.editTextHint')}</p>}
          {failed && <p className="editor-hint error">{t('editor.cannotOpen')}</p>}
          {!doc && !failed && <span className="spinner" role="status" aria-label={t('editor.loading')} />}
          {doc &&
            pages.map((page) => (
              <EditorPageView
                key={page.source}
                doc={doc}
                file={file}
                source={page.source}
                blank={page.blank ? frames.get(page.source) : undefined}
                extraRotation={page.rotation}
                zoom={zoom}
                mode={mode}
                ops={ops.filter((op) => 'page' in op && op.page === page.source)}
                tool={tool}
                style={style}
                pendingImage={pendingImage}
                selectedId={selectedId}
                onSelect={setSelectedId}
                onAdd={add}
                onReplace={replace}
                onRemove={remove}
                fields={widgets.filter((w) => w.field.page === page.source)}
                values={values}
                onFill={fill}
              />
            ))}
        </div>
      </div>
      {signatures.dialog}
      {sharing && (
        <ShareDialog shareKey={sharing.fileId} fileType={ShareFileType.File} fileName={file.name} onClose={() => setSharing(null)} />
      )}
    </div>
  );
}
