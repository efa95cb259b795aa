// Tables, as Kysely sees them. Times are epoch milliseconds; lists are JSON text so one schema
// serves SQLite and PostgreSQL alike.
export interface FileTable {
  id: string;
  owner_id: string;
  name: string;
  size: number;
  md5: string;
  storage_key: string;
  /** 0 until known (e.g. an encrypted file before its password is given) */
  total_page: number;
  page_w: number;
  page_h: number;
  encrypted: number;
  /** 1 when the upload was damaged and a repaired copy is what is stored */
  repaired: number;
  created_at: number;
  expires_at: number;
}

export interface UploadTable {
  id: string;
  owner_id: string;
  filename: string;
  size: number;
  md5: string;
  part_size: number;
  total_parts: number;
  created_at: number;
  expires_at: number;
}

export type TaskState = 'queued' | 'running' | 'done' | 'failed';

export interface TaskTable {
  id: string;
  multi_id: string;
  owner_id: string;
  tool: string;
  /** JSON: the validated call body */
  params: string;
  state: TaskState;
  progress: number;
  error_code: number;
  error_msg: string;
  attempts: number;
  /** JSON array of {index, name, size, key} */
  outputs: string;
  lease_until: number;
  created_at: number;
  /** When a worker last claimed it; 0 while it never ran. */
  started_at: number;
  finished_at: number;
  expires_at: number;
}

export interface Database {
  files: FileTable;
  uploads: UploadTable;
  tasks: TaskTable;
}
