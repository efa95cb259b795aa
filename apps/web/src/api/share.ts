// Calls to the share service under /api/tools/v1/share/: a link, QR code or email for a file or a
// task's output, and the caller's own shares.
import {
  revokeShareRequest,
  type shareAnswer,
  type shareList,
  type ShareAnswer,
  type ShareEntry,
  type ShareRequest,
} from '@quire/contracts';
import { apiUrl, getJson, postJson, type Answer } from './client';

/** A share by link or email (`share_url` empty for an email). */
export const shareFile = (request: ShareRequest): Promise<ShareAnswer> =>
  postJson<Answer<typeof shareAnswer>>(apiUrl('share/share-file'), request);

/** A share by QR code: the link and its PNG data URLs. */
export const shareFileQrCode = (request: ShareRequest): Promise<ShareAnswer> =>
  postJson<Answer<typeof shareAnswer>>(apiUrl('share/share-file-qrcode'), request);

export const listShares = async (): Promise<ShareEntry[]> => (await getJson<Answer<typeof shareList>>(apiUrl('share/list'))).shares;

export const revokeShare = (shareId: string): Promise<null> =>
  postJson<null>(apiUrl('share/revoke'), revokeShareRequest.parse({ share_id: shareId }));
