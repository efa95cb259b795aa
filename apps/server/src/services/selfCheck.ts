// The operator's self-check of the instance: each check makes a small sample, takes it as an upload
// of the operator (the upload's checks), runs it as a task (the queue, a worker, the engine under
// its limits, wherever the workers run) and reads the output back, then deletes what it made.
import fs from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { ErrorCode, QuireError, type SelfCheckId, type SelfCheckResult } from '@quire/contracts';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { AppContext } from '../context.js';
import { outputsOf, ownedTasks } from '../db/tasksRepo.js';
import type { TaskTable } from '../db/schema.js';
import { newId } from '../ids.js';
import type { Session } from './accounts.js';
import { acceptUpload, discardFile, ownedFile } from './files.js';
import { limitsOfRole } from './limits.js';
import { operatorOf } from './operators.js';
import { cancelTasks, createTask, discardTask } from './tasks.js';

/** Words drawn on the sample page, large enough for OCR to read back. */
const SAMPLE_WORDS = 'QUIRE SELF CHECK';
/** How long a check waits for its task: a cold LibreOffice or OCR on a busy instance takes a while. */
const TASK_WAIT_MS = 120_000;
const POLL_MS = 200;

type Sample = 'pdf' | 'rtf' | 'png';

interface CheckPlan {
  /** The samples uploaded (two PDFs to merge). */
  samples: Sample[];
  tool: string;
  params(fileIds: string[]): Record<string, unknown>;
  /** Checks the output's name and bytes; answers what was verified, or throws why not. */
  verify(name: string, bytes: Buffer): Promise<string>;
}

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((b, i) => bytes[i] === b);

async function pdfPages(bytes: Buffer): Promise<number> {
  if (!startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) throw new Error('the output is not a PDF');
  return (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
}

const plans: Record<SelfCheckId, CheckPlan> = {
  merge: {
    samples: ['pdf', 'pdf'],
    tool: 'merge',
    params: (ids) => ({ file_ids: ids }),
    async verify(_name, bytes) {
      const pages = await pdfPages(bytes);
      if (pages !== 2) throw new Error(`the merged PDF has ${pages} pages, not 2`);
      return 'two one-page PDFs merged into one PDF of 2 pages';
    },
  },
  'pdf-to-jpg': {
    samples: ['pdf'],
    tool: 'convert',
    params: ([id]) => ({ file_id: id, output_format: 'jpg' }),
    async verify(name, bytes) {
      if (!name.endsWith('.jpg') || !startsWith(bytes, [0xff, 0xd8, 0xff])) throw new Error('the output is not a JPEG image');
      return `the page rendered as a JPEG image of ${bytes.length.toLocaleString('en-US')} bytes`;
    },
  },
  compress: {
    samples: ['pdf'],
    tool: 'compress',
    params: ([id]) => ({ file_id: id, level: 'medium' }),
    async verify(_name, bytes) {
      const pages = await pdfPages(bytes);
      if (pages !== 1) throw new Error(`the compressed PDF has ${pages} pages, not 1`);
      return `a 1-page PDF of ${bytes.length.toLocaleString('en-US')} bytes`;
    },
  },
  'pdf-to-word': {
    samples: ['pdf'],
    tool: 'convert',
    params: ([id]) => ({ file_id: id, output_format: 'docx' }),
    async verify(name, bytes) {
      if (!name.endsWith('.docx') || !startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) throw new Error('the output is not a Word document');
      return `a Word document of ${bytes.length.toLocaleString('en-US')} bytes`;
    },
  },
  'office-to-pdf': {
    samples: ['rtf'],
    tool: 'convert',
    params: ([id]) => ({ file_id: id, output_format: 'pdf' }),
    async verify(_name, bytes) {
      const pages = await pdfPages(bytes);
      if (pages < 1) throw new Error('the PDF has no page');
      return `an RTF document converted to a PDF of ${pages} page${pages === 1 ? '' : 's'}`;
    },
  },
  ocr: {
    samples: ['pdf'],
    tool: 'ocr',
    // The sample's words are drawn as text: force_ocr makes Tesseract read them from the page's image.
    params: (ids) => ({ file_ids: ids, force_ocr: true, output_format: 'txt' }),
    async verify(_name, bytes) {
      const text = bytes.toString('utf8').replace(/\s+/g, ' ').trim();
      if (!text.toUpperCase().includes(SAMPLE_WORDS)) throw new Error(`OCR read "${text.slice(0, 80)}", not "${SAMPLE_WORDS}"`);
      return `read "${SAMPLE_WORDS}" from the page's image`;
    },
  },
  'image-compress': {
    samples: ['png'],
    tool: 'images_process',
    params: ([id]) => ({ file_id: id, action: 'compress', level: 'medium' }),
    async verify(name, bytes) {
      if (!name.endsWith('.png') || !startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) throw new Error('the output is not a PNG image');
      return `a PNG image of ${bytes.length.toLocaleString('en-US')} bytes`;
    },
  },
};

async function samplePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText(SAMPLE_WORDS, { x: 60, y: 700, size: 40, font });
  page.drawText('A page made by Quire to check its engines.', { x: 60, y: 650, size: 14, font });
  return doc.save();
}

/** A PNG of a colour gradient, written directly: no image engine runs in the API process. */
function samplePng(width = 320, height = 200): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) rows.set([(x * 255) / width, (y * 255) / height, 128], row + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sampleRtf = () => Buffer.from(`{\\rtf1\\ansi {\\b ${SAMPLE_WORDS}}\\par A document made by Quire to check LibreOffice.\\par}`);

async function makeSample(sample: Sample): Promise<Uint8Array> {
  if (sample === 'pdf') return samplePdf();
  return sample === 'png' ? samplePng() : sampleRtf();
}

async function waitForTask(ctx: AppContext, ownerId: string, taskId: string): Promise<TaskTable> {
  const deadline = Date.now() + TASK_WAIT_MS;
  for (;;) {
    const [task] = await ownedTasks(ctx.db, ownerId, { task_id: taskId }, Date.now());
    if (!task) throw new QuireError(ErrorCode.NoData);
    if (task.state === 'done' || task.state === 'failed') return task;
    if (Date.now() > deadline) throw new Error(`the task did not finish in ${TASK_WAIT_MS / 1000} s (state: ${task.state})`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Runs one check as the session's operator (3015 for another account); a failure is a result (ok:
 * false) with its reason. Premium's limits apply whatever the operator's own plan: OCR among them.
 */
export async function runSelfCheck(ctx: AppContext, ownerId: string, session: Session, check: SelfCheckId): Promise<SelfCheckResult> {
  operatorOf(session);
  const limits = limitsOfRole(ctx, 'premium');
  const plan = plans[check];
  const fileIds: string[] = [];
  let taskId: string | undefined;
  try {
    await fs.mkdir(ctx.tmpDir, { recursive: true });
    for (const [i, sample] of plan.samples.entries()) {
      const tmp = path.join(ctx.tmpDir, `${newId()}.selfcheck`);
      await fs.writeFile(tmp, await makeSample(sample));
      fileIds.push((await acceptUpload(ctx, ownerId, limits, `self-check-${i + 1}.${sample}`, tmp)).file_id);
    }
    taskId = (await createTask(ctx, ownerId, limits, plan.tool, plan.params(fileIds))).task_id;
    const task = await waitForTask(ctx, ownerId, taskId);
    const timing = { queued_ms: Math.max(0, task.started_at - task.created_at), run_ms: Math.max(0, task.finished_at - task.started_at) };
    if (task.state === 'failed') return { check, ok: false, ...timing, detail: `${task.error_code}: ${task.error_msg}` };
    const [output] = outputsOf(task);
    if (!output) return { check, ok: false, ...timing, detail: 'the task finished without an output' };
    try {
      return { check, ok: true, ...timing, detail: await plan.verify(output.name, await buffer(ctx.storage.read(output.key))) };
    } catch (e) {
      return { check, ok: false, ...timing, detail: e instanceof Error ? e.message : String(e) };
    }
  } catch (e) {
    return { check, ok: false, queued_ms: 0, run_ms: 0, detail: e instanceof Error ? e.message : String(e) };
  } finally {
    await removeMade(ctx, ownerId, taskId, fileIds);
  }
}

/** The check's task (stopped first if it still runs) and its samples, gone. */
async function removeMade(ctx: AppContext, ownerId: string, taskId: string | undefined, fileIds: string[]): Promise<void> {
  if (taskId) {
    await cancelTasks(ctx, ownerId, { task_id: taskId });
    await discardTask(ctx, taskId);
  }
  for (const id of fileIds) await discardFile(ctx, await ownedFile(ctx, ownerId, id));
}
