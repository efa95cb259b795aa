import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { pdfwrite, type PdfwriteSettings } from './ghostscript.js';
import { optionalStep } from './optional.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-gs-'));
const input = path.join(dir, 'in.pdf');
const settings: PdfwriteSettings = { imageDpi: 150, monoDpi: 300, jpegQFactor: 0.76, chromaSubsampling: true };
const limits = { timeoutMs: 30_000, memoryMb: 2048 };

beforeAll(async () => {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Hello', { x: 20, y: 100 });
  fs.writeFileSync(input, await doc.save());
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('pdfwrite', () => {
  it('writes a PDF and reports each page', async () => {
    const out = path.join(dir, 'ok%1.pdf');
    const seen: number[] = [];
    expect(await pdfwrite(input, out, settings, 1, limits, (p) => seen.push(p))).toEqual({ written: true });
    expect(fs.readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    expect(seen).toEqual([100]);
  });

  it('gives no candidate, and leaves nothing, when Ghostscript runs out of its own time', async () => {
    const out = path.join(dir, 'slow.pdf');
    expect(await pdfwrite(input, out, settings, 1, { ...limits, timeoutMs: 1 })).toEqual({
      written: false,
      why: 'Ghostscript ran out of its 0.001 s time limit',
    });
    expect(fs.existsSync(out)).toBe(false);
  });

  it("fails with 3125, leaving nothing, once the task's deadline has passed", async () => {
    const out = path.join(dir, 'late.pdf');
    await expect(pdfwrite(input, out, settings, 1, { ...limits, signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: ErrorCode.TaskFailed,
    });
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('optionalStep', () => {
  it('passes other errors on', async () => {
    await expect(optionalStep(limits, () => Promise.reject(new Error('boom')), null)).rejects.toThrow('boom');
  });
});
