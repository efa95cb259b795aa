// Where uploaded files and task outputs live. Local disk is the embedded default; the interface
// is what an S3-compatible provider would also implement.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface ByteRange {
  start: number;
  end: number;
}

/** Where the bytes a repaired upload arrived with are kept beside the repaired copy at `key`. */
export const asUploadedKey = (key: string) => `${key}.as-uploaded`;

export interface Storage {
  /** Moves a finished local file into storage under `key`. */
  putFile(key: string, localPath: string): Promise<void>;
  putStream(key: string, body: Readable): Promise<number>;
  /** Stores the bytes of `fromKey` under `toKey` too (replacing what was there), without reading them through the server. */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** A local path an engine can read; for local disk, the stored file itself. */
  localPath(key: string): Promise<string>;
  /** The stored bytes, or those from `range.start` to `range.end` (inclusive). */
  read(key: string, range?: ByteRange): Readable;
  size(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  /** Deletes every key under a prefix ("outputs/<task>/"). */
  deletePrefix(prefix: string): Promise<void>;
}

export class LocalStorage implements Storage {
  constructor(private readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`storage key escapes root: ${key}`);
    return full;
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const dest = this.resolve(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    try {
      await fsp.rename(localPath, dest);
    } catch {
      await fsp.copyFile(localPath, dest);
      await fsp.rm(localPath, { force: true });
    }
  }

  async putStream(key: string, body: Readable): Promise<number> {
    const dest = this.resolve(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    const tmp = `${dest}.part`;
    try {
      await pipeline(body, fs.createWriteStream(tmp));
      await fsp.rename(tmp, dest);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
    return (await fsp.stat(dest)).size;
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const dest = this.resolve(toKey);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    // A hard link costs no space, and stored files are never written in place: each key keeps its bytes.
    const tmp = `${dest}.part`;
    await fsp.rm(tmp, { force: true });
    try {
      await fsp.link(this.resolve(fromKey), tmp);
    } catch {
      await fsp.copyFile(this.resolve(fromKey), tmp);
    }
    await fsp.rename(tmp, dest);
  }

  async localPath(key: string): Promise<string> {
    return this.resolve(key);
  }

  read(key: string, range?: ByteRange): Readable {
    return fs.createReadStream(this.resolve(key), range);
  }

  async size(key: string): Promise<number> {
    return (await fsp.stat(this.resolve(key))).size;
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.resolve(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fsp.rm(this.resolve(prefix), { recursive: true, force: true });
  }
}
