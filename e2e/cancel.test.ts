// Cancelling a long task in the browser: the Cancel button of the progress view stops the task on
// the server (its engines end) and gives the file list back, the file kept for another run.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages } from '@quire/contracts';
import { startE2e, tmpDir, type E2e } from './browser.js';
import { makeScannedPdf, ocrPages } from '../apps/server/test/ocrFixtures.js';
import { processesBelow, until } from '../apps/server/test/serverProcess.js';

let e2e: E2e;
const dir = tmpDir('cancel');
const file = (name: string) => path.join(dir, name);
const PAGES = 40;

beforeAll(async () => {
  e2e = await startE2e();
  // Forty scanned pages, no text: recognising them all takes minutes.
  await makeScannedPdf(file('page.pdf'), [ocrPages[0]!]);
  execFileSync('qpdf', ['--empty', '--pages', ...Array<string>(PAGES).fill(file('page.pdf')), '--', file('scans.pdf')]);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The server's tasks, newest last. */
const tasks = () => e2e.quire.ctx.db.selectFrom('tasks').select(['id', 'state', 'error_code']).orderBy('created_at').execute();
const tesseractRunning = () => processesBelow(process.pid).some((p) => p.command.startsWith('tesseract '));

describe('Cancel in the browser', () => {
  it('stops a long OCR on the server and shows the file list again, the file kept', async () => {
    const page = await e2e.open('/app/OCR');
    await page.getByTestId('file-input').setInputFiles(file('scans.pdf'));
    const uploaded = page.locator('[data-testid="file-item"][data-state="ossSuccessful"]');
    await expect.poll(() => uploaded.count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('processing').waitFor();
    await until('Tesseract running', tesseractRunning);

    await page.getByTestId('cancel-task').click();
    await page.getByTestId('processing').waitFor({ state: 'detached' });
    expect(await uploaded.count()).toBe(1);
    expect(await page.getByTestId('run-tool').isEnabled()).toBe(true);
    // The server says the task was cancelled, and its engines are gone.
    const [task] = await tasks();
    await until('the task cancelled', async () => (await tasks())[0]?.state === 'failed');
    const answer = await page.request.get(`${e2e.quire.url}/api/tools/v1/get-task-result?task_id=${task!.id}`);
    expect(await answer.json()).toMatchObject({
      code: 0,
      data: [{ status: ErrorCode.Cancelled, msg: errorMessages[ErrorCode.Cancelled], is_done: true }],
    });
    await until('Tesseract stopped', () => !tesseractRunning(), 15_000);

    // The same file runs again with other options.
    await page.getByTestId('ocr-lang-deu').check();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('processing').waitFor();
    await until('a second task', async () => (await tasks()).length === 2);
    await page.getByTestId('cancel-task').click();
    await page.getByTestId('processing').waitFor({ state: 'detached' });
    await until('both cancelled', async () => (await tasks()).every((t) => t.error_code === ErrorCode.Cancelled));
    await page.context().close();
  });
});
