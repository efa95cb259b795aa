// The upload list of a tool page with its side effects: upload, the document-info check,
// passwords. State changes all go through fileListReducer and so through the state machine.
import { ErrorCode, hasAcceptedExtension, IMAGE_MAX_BYTES, isImageFileName, type FileInfo, type ToolDefinition } from '@quire/contracts';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError, isAbort } from '../api/client';
import { getDocumentInfo, getServerConfig } from '../api/files';
import { uploadFile } from '../api/upload';
import { useT } from '../i18n/I18nProvider';
import { formatBytes } from '../ui/format';
import { TASK_TOAST_MS, useToast } from '../ui/Toast';
import { fileListReducer, newFileItem, type FileItem } from './fileList';
import { loadFileList, saveFileList } from './savedFiles';
import type { FileAction } from './fileStateMachine';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** More files than this in one upload are taken, with a warning that fewer work better. */
export const RECOMMENDED_FILES_PER_UPLOAD = 20;

/**
 * The server's refusals of the file itself (damaged, empty, of no type it reads, over the size or
 * page limit): the file is marked damaged with the server's message, since another upload would not help.
 */
const refusals: readonly number[] = [
  ErrorCode.Damaged,
  ErrorCode.NotPdf,
  ErrorCode.Unreadable,
  ErrorCode.Empty,
  ErrorCode.UnsupportedType,
  ErrorCode.TooLarge,
  ErrorCode.TooManyPages,
];
const isDamaged = (e: unknown) => e instanceof ApiError && refusals.includes(e.code);

export function useFileList(tool: ToolDefinition) {
  const t = useT();
  const toast = useToast();
  const [items, dispatch] = useReducer(fileListReducer, tool.slug, loadFileList);
  useEffect(() => saveFileList(tool.slug, items), [tool.slug, items]);
  const uploads = useRef(new Map<string, AbortController>());

  const fire = useCallback(
    (uids: string[], action: FileAction, patch?: Partial<FileItem>) => dispatch({ type: 'fire', uids, action, ...(patch && { patch }) }),
    [],
  );

  const cancelUpload = (uid: string) => {
    uploads.current.get(uid)?.abort();
    uploads.current.delete(uid);
  };
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  /** After upload: 3122 means a password is needed, 3124 a damaged file; otherwise it is ready. */
  const checkDocument = async (uid: string, info: FileInfo) => {
    try {
      const doc = await getDocumentInfo(info.file_id);
      fire([uid], { type: 'uploadSuccess' }, { info, pageCount: doc.total_page });
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.Encrypted) fire([uid], { type: 'encrypt' }, { info });
      else if (isDamaged(e)) fire([uid], { type: 'damage' }, { error: errorText(e) });
      else {
        fire([uid], { type: 'uploadError' }, { error: errorText(e) });
        toast(errorText(e));
      }
    }
  };

  const startUpload = async (uid: string, file: File) => {
    const controller = new AbortController();
    uploads.current.set(uid, controller);
    fire([uid], { type: 'upload' }, { uploadedBytes: 0 });
    try {
      const config = await getServerConfig();
      const info = await uploadFile(file, {
        chunkThreshold: config.chunk_threshold,
        signal: controller.signal,
        onProgress: (done) => dispatch({ type: 'patch', uid, patch: { uploadedBytes: done } }),
      });
      await checkDocument(uid, info);
    } catch (e) {
      if (isAbort(e) || controller.signal.aborted) return;
      if (isDamaged(e)) {
        fire([uid], { type: 'damage' }, { error: errorText(e) });
      } else {
        fire([uid], { type: 'uploadError' }, { error: errorText(e) });
        toast(errorText(e));
      }
    } finally {
      if (uploads.current.get(uid) === controller) uploads.current.delete(uid);
    }
  };

  /** Adds picked or dropped files: single-upload tools keep only the newest file. */
  const addFiles = async (files: readonly File[]) => {
    const config = await getServerConfig();
    const accepted: File[] = [];
    for (const file of files) {
      if (!hasAcceptedExtension(file.name, tool)) {
        toast(t('upload.wrongType', { name: file.name, types: tool.extFrom.map((e) => `.${e.toUpperCase()}`).join(', ') }));
      } else if (isImageFileName(file.name) && file.size > IMAGE_MAX_BYTES) {
        toast(t('upload.imageTooLarge'));
      } else if (file.size > config.max_file_size) {
        toast(t('upload.tooLarge', { name: file.name, max: formatBytes(config.max_file_size) }));
      } else {
        accepted.push(file);
      }
    }
    const chosen = tool.isSingleUpload ? accepted.slice(0, 1) : accepted;
    if (chosen.length === 0) return;
    if (chosen.length > RECOMMENDED_FILES_PER_UPLOAD) {
      toast(t('upload.manyFiles', { count: chosen.length, max: RECOMMENDED_FILES_PER_UPLOAD }), { durationMs: TASK_TOAST_MS });
    }
    if (tool.isSingleUpload) for (const uid of [...uploads.current.keys()]) cancelUpload(uid);

    const added = chosen.map((file) => newFileItem(crypto.randomUUID(), file));
    dispatch({ type: 'add', items: added, replace: tool.isSingleUpload });
    added.forEach((item, i) => void startUpload(item.uid, chosen[i]!));
  };

  const submitPassword = async (item: FileItem, password: string) => {
    if (!item.info) return;
    dispatch({ type: 'patch', uid: item.uid, patch: { checkingPassword: true, passwordError: undefined } });
    try {
      const doc = await getDocumentInfo(item.info.file_id, password);
      // The server keeps the original upload and each task carries the password,
      // so a decrypted file is ready at once.
      fire([item.uid], { type: 'decrypt' }, { password, pageCount: doc.total_page, checkingPassword: false });
      fire([item.uid], { type: 'goto', to: 'ossSuccessful' });
    } catch (e) {
      const wrong = e instanceof ApiError && (e.code === ErrorCode.WrongPassword || e.code === ErrorCode.Encrypted);
      const passwordError = wrong ? t('file.wrongPassword') : errorText(e);
      dispatch({ type: 'patch', uid: item.uid, patch: { checkingPassword: false, passwordError } });
    }
  };

  /** A task found that the file needs a password, or that the one given was wrong: the file asks for it. */
  const askPassword = (uid: string, wrong: boolean) =>
    fire([uid], { type: 'goto', to: 'encrypted' }, { password: undefined, passwordError: wrong ? t('file.wrongPassword') : undefined });

  const retryUpload = (item: FileItem) => {
    if (!item.file) return;
    fire([item.uid], { type: 'localAdd' }, { error: undefined });
    void startUpload(item.uid, item.file);
  };

  const removeFile = (uid: string) => {
    cancelUpload(uid);
    dispatch({ type: 'remove', uid });
  };

  const clear = () => {
    for (const uid of [...uploads.current.keys()]) cancelUpload(uid);
    dispatch({ type: 'clear' });
    // At once, not after the next render: the page may be on its way out.
    saveFileList(tool.slug, []);
  };

  return {
    items,
    addFiles,
    submitPassword,
    askPassword,
    retryUpload,
    removeFile,
    clear,
    fire,
    move: (from: number, to: number) => dispatch({ type: 'move', from, to }),
  };
}

export type FileListController = ReturnType<typeof useFileList>;
