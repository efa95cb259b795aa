// Every tool, registered once: the API, the worker and the OpenAPI document all read this list.
import type { ToolId } from '@quire/contracts';
import type { Tool } from './tool.js';
import { merge } from './merge.js';
import { split } from './split.js';
import { extractPage } from './extractPage.js';
import { deletePage } from './deletePage.js';
import { rearrange } from './rearrange.js';
import { rotate } from './rotate.js';
import { cut } from './cut.js';
import { redaction } from './redaction.js';
import { replaceText } from './replaceText.js';
import { compress } from './compress.js';
import { encrypt } from './encrypt.js';
import { decode } from './decode.js';
import { convert } from './convert.js';
import { imagesMergePdf } from './imagesMergePdf.js';
import { extractImages } from './extractImages.js';
import { ocr } from './ocr.js';
import { imagesProcess } from './imagesProcess.js';
import { edit } from './edit.js';
import { sign } from './sign.js';
import { translatePdf } from './translatePdf.js';

export const tools: { [Id in ToolId]: Tool<Id> } = {
  merge,
  split,
  extract_page: extractPage,
  delete_page: deletePage,
  rearrange,
  rotate,
  cut,
  redaction,
  replacetext: replaceText,
  compress,
  encrypt,
  decode,
  convert,
  images_merge_pdf: imagesMergePdf,
  extract_images: extractImages,
  ocr,
  images_process: imagesProcess,
  edit,
  sign,
  translate_pdf: translatePdf,
};

export function toolById(id: string): Tool | undefined {
  return (tools as Record<string, Tool>)[id];
}
