// Streams whose data their filters cannot decode (a "JPEG" of four digits, a broken Flate run):
// qpdf copies such data as it is into every file it writes, so each output of the document would
// fail `qpdf --check` as the upload did. Each is replaced by what draws nothing: an image by one
// white (or, for a stencil mask, unpainted) pixel, any other stream by no data.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { type EngineLimits, qpdf, succeeded } from './qpdf.js';
import type { PdfValue } from './qpdfObjects.js';

/** More than this many broken streams is a file to refuse as damaged, not to patch. */
const MAX_REPLACED = 1000;
const DECODE_ERROR = /error decoding stream data for object (\d+) (\d+)/g;

/** The streams of `file` (unencrypted) that qpdf's check cannot decode, as references ("8 0 R"). */
export async function undecodableStreams(file: string, pages: number, limits: EngineLimits): Promise<string[]> {
  const res = await qpdf(['--check', file], limits, { job: 'rewrite', pages });
  if (!succeeded(res.exitCode)) return [];
  return [...new Set([...res.stderr.matchAll(DECODE_ERROR)].map((m) => `${m[1]} ${m[2]} R`))];
}

type Dict = Record<string, PdfValue>;

/** What stands in for an undecodable stream with dictionary `dict`: its new dictionary and data (base64). */
function standIn(dict: Dict): { dict: Dict; data: string } {
  if (dict['/Subtype'] === '/Image') {
    const base = { '/Type': '/XObject', '/Subtype': '/Image', '/Width': 1, '/Height': 1 };
    // A set bit is an unpainted stencil-mask pixel, and white in DeviceGray.
    return dict['/ImageMask'] === true
      ? { dict: { ...base, '/ImageMask': true, '/BitsPerComponent': 1 }, data: '/w==' }
      : { dict: { ...base, '/ColorSpace': '/DeviceGray', '/BitsPerComponent': 8 }, data: '/w==' };
  }
  const { '/Filter': _f, '/DecodeParms': _p, '/Length': _l, '/DL': _d, ...rest } = dict;
  return { dict: rest, data: '' };
}

/** `file` as `out` with each stream of `refs` replaced by one that draws nothing; 3124 for too many. */
export async function replaceStreams(file: string, refs: string[], out: string, workDir: string, limits: EngineLimits): Promise<void> {
  if (refs.length > MAX_REPLACED) throw new QuireError(ErrorCode.Damaged);
  const shown = await qpdf(['--json=2', '--json-key=qpdf', ...refs.map((r) => `--json-object=${r}`), file], limits, { job: 'inspect' });
  if (!succeeded(shown.exitCode)) throw new QuireError(ErrorCode.Damaged);
  const [header, objects] = (JSON.parse(shown.stdout) as { qpdf: [Record<string, PdfValue>, Record<string, { stream?: { dict: Dict } }>] })
    .qpdf;
  const patch = Object.fromEntries(refs.map((ref) => [`obj:${ref}`, { stream: standIn(objects[`obj:${ref}`]?.stream?.dict ?? {}) }]));
  const patchFile = path.join(workDir, `streams-${crypto.randomUUID()}.json`);
  await fs.writeFile(patchFile, JSON.stringify({ qpdf: [header, patch] }));
  try {
    const res = await qpdf([file, `--update-from-json=${patchFile}`, out], limits, { job: 'rewrite' });
    if (!succeeded(res.exitCode)) throw new QuireError(ErrorCode.Damaged);
  } finally {
    await fs.rm(patchFile, { force: true });
  }
}
