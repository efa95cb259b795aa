// File upload: one multipart POST up to the chunk threshold; above it an
// md5-keyed upload policy, then 512 KB parts in parallel with retries, which lets a second
// attempt skip the parts the server already holds.
import {
  ErrorCode,
  HASH_CHUNK_SIZE,
  UPLOAD_PARALLEL_PARTS,
  UPLOAD_PART_RETRIES,
  UPLOAD_RETRY_DELAY_MS,
  type fileInfo,
  type uploadPartResult,
  type uploadPolicy,
  type FileInfo,
} from '@quire/contracts';
import { createMD5 } from 'hash-wasm';
import { ApiError, NETWORK_ERROR, apiUrl, readEnvelope, send, withPageLanguage, type FetchLike, type Answer } from './client';
import { sleep } from './sleep';

export interface UploadOptions {
  /** Files up to this size go in one request. */
  chunkThreshold: number;
  onProgress(bytesDone: number, bytesTotal: number): void;
  signal?: AbortSignal;
}

export interface UploadDeps {
  fetch: FetchLike;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const defaultDeps: UploadDeps = { fetch: (url, init) => fetch(url, init), sleep };

export function uploadFile(file: File, options: UploadOptions): Promise<FileInfo> {
  return file.size <= options.chunkThreshold ? uploadWhole(file, options) : uploadInParts(file, options);
}

/** One multipart POST, through XMLHttpRequest because fetch reports no upload progress. */
function uploadWhole(file: File, { onProgress, signal }: UploadOptions): Promise<FileInfo> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('file/stream'));
    for (const [name, value] of withPageLanguage()) xhr.setRequestHeader(name, value);
    xhr.timeout = 90_000;
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      const res = new Response(xhr.responseText, { status: xhr.status });
      readEnvelope<Answer<typeof fileInfo>>(res).then(resolve, reject);
    };
    xhr.onerror = () => reject(new ApiError(NETWORK_ERROR));
    xhr.ontimeout = () => reject(new ApiError(ErrorCode.Busy));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** The file's md5 in hex, read in 2 MB slices so a large file is never held whole. */
export async function md5OfBlob(blob: Blob, sliceSize = HASH_CHUNK_SIZE): Promise<string> {
  const md5 = await createMD5();
  md5.init();
  for (let offset = 0; offset < blob.size; offset += sliceSize) {
    md5.update(new Uint8Array(await blob.slice(offset, offset + sliceSize).arrayBuffer()));
  }
  return md5.digest('hex');
}

export interface PartPlan {
  partNumber: number;
  start: number;
  end: number;
}

/** The parts still to send: numbered from 1, skipping those the server already holds. */
export function planParts(fileSize: number, partSize: number, uploadedParts: readonly number[]): PartPlan[] {
  const have = new Set(uploadedParts);
  const parts: PartPlan[] = [];
  for (let n = 1, start = 0; start < fileSize; n++, start += partSize) {
    if (!have.has(n)) parts.push({ partNumber: n, start, end: Math.min(start + partSize, fileSize) });
  }
  return parts;
}

/** Failures worth another try: the network or the server, not a refused request. */
export function isTransient(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  const transient: number[] = [NETWORK_ERROR, ErrorCode.Generic, ErrorCode.Busy, ErrorCode.ServiceDown];
  return transient.includes(e.code);
}

/** Runs `attempt`, retrying transient failures `retries` times, `delayMs` apart. */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  { retries, delayMs, sleep: wait, signal }: { retries: number; delayMs: number; sleep: UploadDeps['sleep']; signal?: AbortSignal },
): Promise<T> {
  for (let failures = 0; ; failures++) {
    try {
      return await attempt();
    } catch (e) {
      if (failures >= retries || !isTransient(e) || signal?.aborted) throw e;
      await wait(delayMs, signal);
    }
  }
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure stops the rest. */
export async function runPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export async function uploadInParts(file: File, { onProgress, signal }: UploadOptions, deps: UploadDeps = defaultDeps): Promise<FileInfo> {
  const md5 = await md5OfBlob(file);
  signal?.throwIfAborted();
  const postJson = async <T>(path: string, body: unknown): Promise<T> => {
    const init: RequestInit = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    if (signal) init.signal = signal;
    return readEnvelope<T>(await send(apiUrl(path), init, deps.fetch));
  };

  const policy = await postJson<Answer<typeof uploadPolicy>>('file/upload-policy', {
    filename: file.name,
    file_size: file.size,
    md5_code: md5,
  });
  const parts = planParts(file.size, policy.part_size, policy.uploaded_parts);
  const pending = parts.reduce((sum, p) => sum + p.end - p.start, 0);
  let done = file.size - pending;
  onProgress(done, file.size);

  // Stop the other parts as soon as one has failed for good.
  const stop = new AbortController();
  const partSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const sendPart = async (part: PartPlan) => {
    const url = apiUrl('file/upload-part', { upload_id: policy.upload_id, part_number: part.partNumber });
    const init = {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: file.slice(part.start, part.end),
      signal: partSignal,
    };
    await readEnvelope<Answer<typeof uploadPartResult>>(await send(url, init, deps.fetch));
  };
  try {
    await runPool(parts, UPLOAD_PARALLEL_PARTS, async (part) => {
      await withRetry(() => sendPart(part), {
        retries: UPLOAD_PART_RETRIES,
        delayMs: UPLOAD_RETRY_DELAY_MS,
        sleep: deps.sleep,
        signal: partSignal,
      });
      done += part.end - part.start;
      onProgress(done, file.size);
    });
  } catch (e) {
    stop.abort();
    throw e;
  }
  return postJson<Answer<typeof fileInfo>>('file/upload-complete', { upload_id: policy.upload_id });
}
