// An anonymous visitor's editing session is one task of the day: each editor save runs on the file
// the save before made (output-as-file), and only the first counts. Any other task still counts,
// and another tool's output taken into the editor starts a session that counts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, type EditOperationInput } from '@quire/contracts';
import { Client, quireForTests } from './harness.js';
import { makePdf } from './fixtures.js';
import { text } from './editFixtures.js';

// One task a day; visitors may download, so output-as-file gives them the saved file.
const served = quireForTests('editor-session', { anonymousTasksPerDay: 1, anonymousDownloads: true });
const { dir } = served;
const visitor = () => new Client(served.quire.url);

let stamps = 0;
/** A line of text, each below the one before. */
const stamp = (words: string): EditOperationInput => ({
  op: 'addText',
  page: 1,
  rect: { x: 72, y: 72 + 40 * stamps++, width: 400, height: 30 },
  text: words,
});

/** Queues a save, waits for it, and takes its output as the file the next save edits. */
async function save(client: Client, fileId: string, words: string): Promise<string> {
  const created = await client.post('document/content', { file_id: fileId, operations: [stamp(words)] });
  expect(created.code, created.msg).toBe(0);
  const entry = await client.waitTask(created.data.task_id);
  expect(entry.status, entry.msg).toBe(0);
  const taken = await client.post('document/output-as-file', { task_id: entry.task_id });
  expect(taken.code, taken.msg).toBe(0);
  return taken.data.file_id as string;
}

describe('the editor and the daily allowance', () => {
  it('counts a visitor’s saves of one document once; the next other task is refused with 4016', async () => {
    const ada = visitor();
    const uploaded = await ada.uploadId(await makePdf(path.join(dir, 'one.pdf'), 1));
    let current = uploaded;
    for (const words of ['First save', 'Second save', 'Third save']) current = await save(ada, current, words);
    // Export after Save is one more save; every save is in the file it gives.
    const last = path.join(dir, 'saved.pdf');
    const exported = await ada.runTool('document/content', { file_id: current, operations: [stamp('Exported')] }, last);
    expect(exported.status, exported.msg).toBe(0);
    for (const words of ['First save', 'Second save', 'Third save', 'Exported']) expect(text(last)).toContain(words);

    const rotate = await ada.post('document/rotate', { file_id: current, angle: 90, pages: 'all' });
    expect(rotate.code).toBe(ErrorCode.DailyTaskLimit);
    // A save on a file the visitor uploaded starts another session, which counts.
    const fresh = await ada.post('document/content', { file_id: uploaded, operations: [stamp('Again')] });
    expect(fresh.code).toBe(ErrorCode.DailyTaskLimit);
  });

  it('counts a save on another tool’s output: the editor launders no tasks', async () => {
    const bo = visitor();
    const uploaded = await bo.uploadId(await makePdf(path.join(dir, 'two.pdf'), 1));
    const rotated = await bo.post('document/rotate', { file_id: uploaded, angle: 90, pages: 'all' });
    expect(rotated.code, rotated.msg).toBe(0);
    expect((await bo.waitTask(rotated.data.task_id)).status).toBe(0);
    const taken = await bo.post('document/output-as-file', { task_id: rotated.data.task_id });
    expect(taken.code, taken.msg).toBe(0);
    const edit = await bo.post('document/content', { file_id: taken.data.file_id, operations: [stamp('Free?')] });
    expect(edit.code).toBe(ErrorCode.DailyTaskLimit);
  });

  it('does not let one visitor continue another’s session', async () => {
    const cy = visitor();
    const saved = await save(cy, await cy.uploadId(await makePdf(path.join(dir, 'three.pdf'), 1)), 'Mine');
    // The saved file is Cy's: another visitor cannot name it (2405), let alone save on it for free.
    const stranger = visitor();
    expect((await stranger.post('document/content', { file_id: saved, operations: [stamp('Theirs')] })).code).toBe(ErrorCode.NoData);
  });
});
