// The editor's read calls: what a page holds, as the server's PDF engine sees it.
import type { formFields, pageObjects, pageRuns, FormFields, PageObjects, PageRuns } from '@quire/contracts';
import { apiUrl, postJson, type Answer } from './client';

const fileBody = (fileId: string, password?: string) => ({ file_id: fileId, ...(password && { passwd: password }) });

/** The text runs of page `page` of the file as uploaded (a POST: the password stays out of the URL). */
export function fetchRuns(fileId: string, page: number, password?: string): Promise<PageRuns> {
  return postJson<Answer<typeof pageRuns>>(apiUrl('document/runs'), { ...fileBody(fileId, password), page });
}

/** The AcroForm fields of the file, each widget a row. */
export function fetchFormFields(fileId: string, password?: string): Promise<FormFields> {
  return postJson<Answer<typeof formFields>>(apiUrl('document/form-fields'), fileBody(fileId, password));
}

/** The images and annotations already on page `page` of the file as uploaded. */
export function fetchObjects(fileId: string, page: number, password?: string): Promise<PageObjects> {
  return postJson<Answer<typeof pageObjects>>(apiUrl('document/objects'), { ...fileBody(fileId, password), page });
}
