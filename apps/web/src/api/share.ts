// Calls to the share service under /api/tools/v1/share/: a link, QR code or email for a file or a
// task's output, and the caller's own shares.
import { revokeShareRequest, shareAnswer, shareList, type ShareAnswer, type ShareEntry, type ShareRequest } from '@quire/contracts';
import { apiUrl, getJson, noData, postJson } from './client';

/** A share by link or email (`share_url` empty for an email). */
export const shareFile = (request: ShareRequest): Promise<ShareAnswer> => postJson(apiUrl('share/share-file'), request, shareAnswer);

/** A share by QR code: the link and its PNG data URLs. */
export const shareFileQrCode = (request: ShareRequest): Promise<ShareAnswer> =>
  postJson(apiUrl('share/share-file-qrcode'), request, shareAnswer);

export const listShares = async (): Promise<ShareEntry[]> => (await getJson(apiUrl('share/list'), shareList)).shares;

export const revokeShare = (shareId: string): Promise<null> =>
  postJson(apiUrl('share/revoke'), revokeShareRequest.parse({ share_id: shareId }), noData);
