// /app/pdf-editor: opens the file the address names (a tool file, a share or a template) or
// one the visitor picks, asks for its password when it has one, then edits it.
import { type CloudFile, ErrorCode } from '@quire/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../account/session';
import { ApiError, messageFor } from '../api/client';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { FilePickButton } from '../ui/FilePickButton';
import { useFileDrop } from '../ui/useFileDrop';
import { Editor } from './Editor';
import type { EditorMode } from './EditorPageView';
import { type OpenedFile, openToolFile, uploadFrom, uploadPdf } from './openFile';
import './editor.css';
import { useDocumentTitle } from '../ui/useDocumentTitle';

type Opening =
  | { kind: 'empty' }
  | { kind: 'loading' }
  | { kind: 'password'; wrong: boolean }
  | { kind: 'failed'; message: string }
  | { kind: 'open'; file: OpenedFile };

const failure = (e: unknown): Opening => ({ kind: 'failed', message: e instanceof ApiError ? messageFor(e.code, e.message) : String(e) });

export function EditorPage() {
  const t = useT();
  const { status, requireSignIn } = useSession();
  const [query, setQuery] = useSearchParams();
  const mode: EditorMode = query.get('t') === 'edit' ? 'edit' : 'annotate';
  const fileId = query.get('file_id');
  const shareId = query.get('share_id');
  const templateId = query.get('template_id');
  const [password, setPassword] = useState<string | undefined>();
  const [opening, setOpening] = useState<Opening>({ kind: 'empty' });
  // Kept here: the editor starts afresh on each saved file, and the next Save replaces this copy.
  const [cloudCopy, setCloudCopy] = useState<CloudFile | null>(null);
  const title = mode === 'edit' ? t('editor.titleEdit') : t('editor.titleAnnotate');
  useDocumentTitle(title);

  /** Editing goes on from tool file `id`, the address keeping it across reloads. */
  const openFileId = useCallback(
    (id: string) =>
      setQuery((q) => {
        const next = new URLSearchParams({ file_id: id });
        const t = q.get('t');
        if (t) next.set('t', t);
        return next;
      }),
    [setQuery],
  );

  // A share or a template becomes a tool file of the caller first; a share asks to sign in.
  useEffect(() => {
    if (fileId || (!shareId && !templateId) || status === 'loading') return;
    let current = true;
    setOpening({ kind: 'loading' });
    void (async () => {
      if (shareId && status !== 'signedIn' && !(await requireSignIn({ kind: 'download' }))) {
        if (current) setOpening({ kind: 'empty' });
        return;
      }
      const id = await uploadFrom(shareId ? { shareCode: shareId } : { templateId: templateId! });
      if (current) openFileId(id);
    })().catch((e: unknown) => current && setOpening(failure(e)));
    return () => {
      current = false;
    };
  }, [fileId, shareId, templateId, status, requireSignIn, openFileId]);

  useEffect(() => {
    if (!fileId) return;
    let current = true;
    setOpening({ kind: 'loading' });
    openToolFile(fileId, password).then(
      (file) => current && setOpening({ kind: 'open', file }),
      (e: unknown) => {
        if (!current) return;
        const code = e instanceof ApiError ? e.code : 0;
        if (code === ErrorCode.Encrypted || code === ErrorCode.WrongPassword)
          setOpening({ kind: 'password', wrong: code === ErrorCode.WrongPassword });
        else setOpening(failure(e));
      },
    );
    return () => {
      current = false;
    };
  }, [fileId, password]);

  const pick = (files: File[]) => {
    const [file] = files;
    if (!file) return;
    setOpening({ kind: 'loading' });
    uploadPdf(file).then(openFileId, (e: unknown) => setOpening(failure(e)));
  };
  const drop = useFileDrop(pick);

  const setMode = (m: EditorMode) =>
    setQuery((q) => {
      const next = new URLSearchParams(q);
      next.set('t', m);
      return next;
    });

  if (opening.kind === 'open')
    return (
      <Editor
        key={opening.file.fileId}
        file={opening.file}
        mode={mode}
        onMode={setMode}
        onSaved={openFileId}
        cloudCopy={cloudCopy}
        onCloudCopy={setCloudCopy}
      />
    );

  return (
    <div className={`tool-page editor-start ${drop.active ? 'drop-active' : ''}`} {...drop.dropProps}>
      <section className="upload-hero" data-testid="dropzone">
        <Icon name={mode === 'edit' ? 'edit' : 'annotate'} size={56} />
        <h1>{title}</h1>
        <p>{t('editor.description')}</p>
        {opening.kind === 'loading' && (
          <span className="spinner" role="status" aria-label={t('editor.loading')} data-testid="editor-loading" />
        )}
        {opening.kind === 'failed' && (
          <p className="form-error" role="alert" data-testid="editor-error">
            {opening.message}
          </p>
        )}
        {opening.kind === 'password' && (
          <form
            className="editor-password"
            onSubmit={(e) => {
              e.preventDefault();
              setPassword(String(new FormData(e.currentTarget).get('password') ?? ''));
            }}
          >
            <label>
              {opening.wrong ? t('editor.wrongPassword') : t('editor.needsPassword')}
              <input name="password" type="password" autoComplete="off" data-testid="editor-password" required />
            </label>
            <button type="submit" className="button button-primary">
              {t('editor.open')}
            </button>
          </form>
        )}
        {(opening.kind === 'empty' || opening.kind === 'failed') && (
          <FilePickButton
            className="button button-primary button-xl"
            accept=".pdf,application/pdf"
            testId="file-input"
            onPick={(f) => pick([f])}
          >
            <Icon name="upload" /> {t('upload.selectFile')}
          </FilePickButton>
        )}
        {(opening.kind === 'empty' || opening.kind === 'failed') && <span className="upload-or">{t('upload.dropOne')}</span>}
      </section>
    </div>
  );
}
