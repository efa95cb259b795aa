// The plan's limits checked in the page as files are added, as the server will check them, so a
// file the plan refuses is never uploaded: each check answers the upgrade dialog to open.
import { MB, sizeUpgradeDialog, type LimitRefusal, type ServerConfig, type ToolId } from '@quire/contracts';

/** Tools whose one task takes every file of the page; the others make a task of each file. */
const oneTaskTools: readonly ToolId[] = ['merge', 'images_merge_pdf', 'ocr'];

/** The plan's refusal of a file of `size` bytes added to `tool`'s page: OCR not in the plan, else its size. */
export function fileRefusal(config: ServerConfig, tool: ToolId, size: number): LimitRefusal | null {
  const ocr = tool === 'ocr';
  if (ocr && !config.ocr.allowed) return { upgrade: 'OCRLimit', limit: 0 };
  const maxBytes = ocr ? Math.min(config.max_file_size, config.ocr.max_file_size) : config.max_file_size;
  return size > maxBytes ? { upgrade: sizeUpgradeDialog(config.plan), limit: maxBytes / MB } : null;
}

/** The plan's refusal of a document of `pages` pages, once they are known. */
export function pagesRefusal(config: ServerConfig, tool: ToolId, pages: number): LimitRefusal | null {
  const maxPages = tool === 'ocr' ? Math.min(config.max_pages, config.ocr.max_pages) : config.max_pages;
  return pages > maxPages ? { upgrade: 'normalPageLimit', limit: maxPages } : null;
}

/** The plan's refusal of the `count`th file of a page whose task takes them all. */
export function filesRefusal(config: ServerConfig, tool: ToolId, count: number): LimitRefusal | null {
  const max = config.max_files_per_task;
  return oneTaskTools.includes(tool) && max !== null && count > max ? { upgrade: 'notBatchFuncFilesLimit', limit: max } : null;
}
