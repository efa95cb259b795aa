// The upload list of a tool page with its side effects: upload, the document-info check,
// passwords. State changes all go through fileListReducer and so through the state machine.
import {
  ErrorCode,
  hasAcceptedExtension,
  IMAGE_MAX_BYTES,
  isImageFileName,
  type CloudFile,
  type FileInfo,
  type LimitRefusal,
  type ServerConfig,
  type ToolDefinition,
} from '@quire/contracts';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { cloudFileAsInput } from '../api/cloud';
import { ApiError, isAbort } from '../api/client';
import { getDocumentInfo, getServerConfig } from '../api/files';
import { uploadFile } from '../api/upload';
import { useT } from '../i18n/I18nProvider';
import { TASK_TOAST_MS, useToast } from '../ui/Toast';
import { fileListReducer, newFileItem, type FileItem } from './fileList';
import { filesRefusal, fileRefusal, pagesRefusal } from './planLimits';
import { useRefusalMessage } from './refusalMessage';
import { loadFileList, saveFileList } from './savedFiles';
import type { FileAction } from './fileStateMachine';

/** A file to add: its name and size for the checks, and how its upload (or its taking from the cloud) starts. */
interface FileSource {
  name: string;
  size: number;
  file?: File;
  start(uid: string): Promise<void>;
}

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

/** `onLimit`: a file passed a limit of the plan, in the page or on the server: the upgrade dialog opens. */
export function useFileList(tool: ToolDefinition, onLimit: (refusal: LimitRefusal) => void) {
  const t = useT();
  const toast = useToast();
  const refusalMessage = useRefusalMessage();
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

  /** The file is refused for a limit of the plan: its card says which, and the upgrade dialog opens. */
  const refuse = (uid: string, refusal: LimitRefusal) => {
    fire([uid], { type: 'goto', to: 'damaged' }, { error: refusalMessage(refusal) });
    onLimit(refusal);
  };
  /** A refusal of the server: one for a limit of the plan opens the upgrade dialog too. */
  const damage = (uid: string, e: unknown) => {
    if (e instanceof ApiError && e.upgrade) refuse(uid, e.upgrade);
    else fire([uid], { type: 'damage' }, { error: errorText(e) });
  };
  /** A document's pages, once known (at upload, or when its password opens it), against the plan's. */
  const pagesWithinPlan = (uid: string, config: ServerConfig, pages: number) => {
    const refusal = pagesRefusal(config, tool.id, pages);
    if (refusal) refuse(uid, refusal);
    return !refusal;
  };

  /** After upload: 3122 means a password is needed, 3124 a damaged file; otherwise it is ready. */
  const checkDocument = async (uid: string, info: FileInfo, config: ServerConfig) => {
    try {
      const doc = await getDocumentInfo(info.file_id);
      if (pagesWithinPlan(uid, config, doc.total_page)) fire([uid], { type: 'uploadSuccess' }, { info, pageCount: doc.total_page });
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.Encrypted) fire([uid], { type: 'encrypt' }, { info });
      else if (isDamaged(e)) damage(uid, e);
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
      await checkDocument(uid, info, config);
    } catch (e) {
      if (isAbort(e) || controller.signal.aborted) return;
      if (isDamaged(e)) {
        damage(uid, e);
      } else {
        fire([uid], { type: 'uploadError' }, { error: errorText(e) });
        toast(errorText(e));
      }
    } finally {
      if (uploads.current.get(uid) === controller) uploads.current.delete(uid);
    }
  };

  /**
   * Takes a tool file made of a cloud file (no bytes are sent again) and checks it as an upload is
   * checked; the item shows it as uploading meanwhile.
   */
  const startFromCloud = async (uid: string, cloudFileId: string) => {
    fire([uid], { type: 'upload' }, { uploadedBytes: 0 });
    try {
      const [config, info] = await Promise.all([getServerConfig(), cloudFileAsInput(cloudFileId)]);
      await checkDocument(uid, info, config);
    } catch (e) {
      if (isDamaged(e)) damage(uid, e);
      else {
        fire([uid], { type: 'uploadError' }, { error: errorText(e) });
        toast(errorText(e));
      }
    }
  };

  /**
   * Adds files, picked, dropped or chosen in the cloud, after the page's own checks (type, image
   * size, the plan's limits): single-upload tools keep only the newest file.
   */
  const addSources = async (sources: readonly FileSource[]) => {
    const config = await getServerConfig();
    const accepted: FileSource[] = [];
    for (const source of sources) {
      if (!hasAcceptedExtension(source.name, tool)) {
        toast(t('upload.wrongType', { name: source.name, types: tool.extFrom.map((e) => `.${e.toUpperCase()}`).join(', ') }));
      } else if (isImageFileName(source.name) && source.size > IMAGE_MAX_BYTES) {
        toast(t('upload.imageTooLarge'));
      } else {
        accepted.push(source);
      }
    }
    const chosen = tool.isSingleUpload ? accepted.slice(0, 1) : accepted;
    if (chosen.length === 0) return;
    if (chosen.length > RECOMMENDED_FILES_PER_UPLOAD) {
      toast(t('upload.manyFiles', { count: chosen.length, max: RECOMMENDED_FILES_PER_UPLOAD }), { durationMs: TASK_TOAST_MS });
    }
    // Files already on the page that its one task would take with the new ones.
    let count = tool.isSingleUpload ? 0 : items.filter((item) => item.state !== 'damaged').length;
    const planRefusals = chosen.map((source) => {
      const refusal = fileRefusal(config, tool.id, source.size) ?? filesRefusal(config, tool.id, count + 1);
      if (!refusal) count++;
      return refusal;
    });
    const firstRefusal = planRefusals.find((refusal) => refusal !== null);
    // A refused file does not take the place of the one a single-file page has: the dialog says why.
    if (tool.isSingleUpload && firstRefusal && items.length > 0) return onLimit(firstRefusal);
    if (tool.isSingleUpload) for (const uid of [...uploads.current.keys()]) cancelUpload(uid);

    const added = chosen.map((source) => newFileItem(crypto.randomUUID(), source.file ?? source));
    dispatch({ type: 'add', items: added, replace: tool.isSingleUpload });
    added.forEach((item, i) => {
      const refusal = planRefusals[i];
      // Every refused file's card says why; the dialog opens once, for the first.
      if (refusal) fire([item.uid], { type: 'goto', to: 'damaged' }, { error: refusalMessage(refusal) });
      else void chosen[i]!.start(item.uid);
    });
    if (firstRefusal) onLimit(firstRefusal);
  };

  /** Adds picked or dropped files, each uploaded. */
  const addFiles = (files: readonly File[]) =>
    addSources(files.map((file) => ({ name: file.name, size: file.size, file, start: (uid: string) => startUpload(uid, file) })));

  /** Adds files of the document cloud, which the server hands to the tool without an upload. */
  const addCloudFiles = (files: readonly CloudFile[]) =>
    addSources(files.map((f) => ({ name: f.name, size: f.size, start: (uid: string) => startFromCloud(uid, f.file_id) })));

  const submitPassword = async (item: FileItem, password: string) => {
    if (!item.info) return;
    dispatch({ type: 'patch', uid: item.uid, patch: { checkingPassword: true, passwordError: undefined } });
    try {
      const doc = await getDocumentInfo(item.info.file_id, password);
      // Only now are an encrypted document's pages known.
      if (!pagesWithinPlan(item.uid, await getServerConfig(), doc.total_page)) return;
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
    addCloudFiles,
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
