// Every object of a PDF as qpdf reads it (its JSON form, version 2), each stream's data written to
// a file of its own still compressed: the dictionaries can be judged before anything is inflated.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { type EngineLimits, passwordJob, qpdf } from './qpdf.js';

/** A PDF value as qpdf writes it in JSON: "3 0 R" for a reference, "/Name" for a name. */
export type PdfValue = string | number | boolean | null | PdfValue[] | { [key: string]: PdfValue };

export interface PdfObject {
  value?: PdfValue;
  /** datafile: the stream's data as stored (decrypted, not decoded). */
  stream?: { dict: Record<string, PdfValue>; datafile?: string };
}

/** Keyed by reference, "3 0 R"; the trailer under "trailer". */
export type PdfObjects = Map<string, PdfObject>;

/**
 * Dumps `file` into `dir` (which the caller removes). A dump over `maxJsonBytes` is refused
 * with 4012 rather than parsed: that many objects are themselves a bomb.
 */
export async function dumpObjects(
  file: string,
  password: string | undefined,
  dir: string,
  maxJsonBytes: number,
  limits: EngineLimits,
): Promise<PdfObjects> {
  const json = path.join(dir, 'objects.json');
  const args = ['--json-output=2', '--json-stream-data=file', `--json-stream-prefix=${path.join(dir, 's')}`, '--decode-level=none'];
  // A password goes in qpdf's job file, never on the command line every local user can see. Every
  // object is written out, as in a rewrite.
  const result = await qpdf([...args, file, json], limits, { job: 'rewrite', secrets: passwordJob(password) });
  // 0, or 3 for warnings (a repaired xref).
  if (result.exitCode !== 0 && result.exitCode !== 3) throw new QuireError(ErrorCode.Damaged);
  if ((await fs.stat(json)).size > maxJsonBytes) throw new QuireError(ErrorCode.TooLarge);
  const dump = JSON.parse(await fs.readFile(json, 'utf8')) as { qpdf: [unknown, Record<string, PdfObject>] };
  const objects: PdfObjects = new Map();
  for (const [key, object] of Object.entries(dump.qpdf[1])) objects.set(key.startsWith('obj:') ? key.slice(4) : key, object);
  return objects;
}
