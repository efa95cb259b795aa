// The uploads' parts and the tasks' polling, without zod: the page's shell imports them (ADR 0542).

export const UPLOAD_PART_SIZE = 512 * 1024;
export const UPLOAD_CHUNK_THRESHOLD = 512 * 1024;
export const UPLOAD_PARALLEL_PARTS = 12;
export const UPLOAD_PART_RETRIES = 15;
export const UPLOAD_RETRY_DELAY_MS = 2000;
export const HASH_CHUNK_SIZE = 2 * 1024 * 1024;

export const TASK_POLL_INTERVAL_MS = 2000;
export const TASK_POLL_TIMEOUT_MS = 120_000;
