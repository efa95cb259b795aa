// The editor's read calls: what a page holds, as the server's PDF engine sees it.
import { formFields, pageObjects, pageRuns, type FormFields, type PageObjects, type PageRuns } from '@quire/contracts';
import { apiUrl, postJson } from './client';

const fileBody = (fileId: string, password?: string) => ({ file_id: fileId, ...(password && { passwd: password }) });

/** The text runs of page `page` of the file as uploaded (a POST: the password stays out of the URL). */
export function fetchRuns(fileId: string, page: number, password?: string): Promise<PageRuns> {
  return postJson(apiUrl('document/runs'), { ...fileBody(fileId, password), page }, pageRuns);
}

/** The AcroForm fields of the file, each widget a row. */
export function fetchFormFields(fileId: string, password?: string): Promise<FormFields> {
  return postJson(apiUrl('document/form-fields'), fileBody(fileId, password), formFields);
}

/** The images and annotations already on page `page` of the file as uploaded. */
export function fetchObjects(fileId: string, page: number, password?: string): Promise<PageObjects> {
  return postJson(apiUrl('document/objects'), { ...fileBody(fileId, password), page }, pageObjects);
}
