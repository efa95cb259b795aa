// The editor's read calls: what a page holds, as the server's PDF engine sees it.
import { pageRuns, type PageRuns } from '@quire/contracts';
import { apiUrl, postJson } from './client';

/** The text runs of page `page` of the file as uploaded (a POST: the password stays out of the URL). */
export function fetchRuns(fileId: string, page: number, password?: string): Promise<PageRuns> {
  return postJson(apiUrl('document/runs'), { file_id: fileId, page, ...(password && { passwd: password }) }, pageRuns);
}
