// Saving the session: the server writes the operations into the PDF (document/content), and the
// output becomes a tool file that editing goes on from.
import type { EditRequest } from '@quire/contracts';
import { sleep } from '../api/sleep';
import { fetchTaskEntries, outputAsFile, outputLinks, pollTask, startTask, type TaskOutputLink } from '../api/tasks';
import type { EditOp } from './editOps';
import { editOperations, modeOf } from './editRequest';
import type { PageFrame } from './pageCoordinates';

export interface SavedEdit {
  /** The tool file of the saved PDF. */
  fileId: string;
  output: TaskOutputLink;
}

/** `frames`: every page of the file as uploaded. */
export async function saveEdits(
  file: { fileId: string; password?: string },
  ops: readonly EditOp[],
  frames: ReadonlyMap<number, PageFrame>,
): Promise<SavedEdit> {
  const operations = editOperations(ops, frames);
  const request: EditRequest = {
    file_id: file.fileId,
    ...(file.password && { passwd: file.password }),
    // A session may hold edits made in both modes: the request is an edit unless it only annotates.
    mode: modeOf(operations),
    operations,
  };
  const { task_id } = await startTask('document/content', request);
  const entries = await pollTask(
    { fetchEntries: () => fetchTaskEntries({ task_id }), sleep: (ms) => sleep(ms), now: () => Date.now() },
    () => {},
  );
  const [output] = outputLinks(entries);
  if (!output) throw new Error('the save made no file');
  return { fileId: (await outputAsFile(output)).file_id, output };
}
