// Sharing: a link, QR code or email share of the caller's file or task output, and opening one as
// another signed-in account. Who may share, and how much, the service decides from the plan (a
// visitor is told to sign in to share, by 3023); every other call is a signed-in account's (3001).
import {
  revokeShareRequest,
  shareAnswer,
  shareCodeQuery,
  shareDownload,
  sharedFile as sharedFileAnswer,
  shareList,
  shareRequest,
} from '@quire/contracts';
import { listShares, revokeShare, sendShared, shareDownload as makeShareDownload, sharedFile, shareFile } from '../services/shares.js';
import type { Call } from './calls.js';

const base = '/api/tools/v1/share/';

export function shareCalls(): Call[] {
  return [
    {
      method: 'POST',
      path: `${base}share-file`,
      summary:
        "Share a file (file_type 1) or a task's output (file_type 2) for share_days: a link's share_url, or (share_type 1) a mail to each recipient. " +
        "3023 for a visitor, a plan without sharing or a permanent share, or past the plan's shares in 24 hours; " +
        "41003 when the copy of a file or output (kept until the share ends) does not fit in the cloud's capacity",
      body: shareRequest,
      response: shareAnswer,
      handler: ({ body }, c) => shareFile(c.ctx, c.identity, body, false),
    },
    {
      method: 'POST',
      path: `${base}share-file-qrcode`,
      summary: 'Share as share-file does, by a link also answered as a QR code (a PNG data URL)',
      body: shareRequest,
      response: shareAnswer,
      handler: ({ body }, c) => shareFile(c.ctx, c.identity, body, true),
    },
    {
      method: 'GET',
      path: `${base}get-share-file`,
      summary: 'The shared file a share code opens: 3001 for a visitor, 11016 once expired or revoked',
      query: shareCodeQuery,
      response: sharedFileAnswer,
      session: 'account',
      handler: ({ query }, c) => sharedFile(c.ctx, query.share_code),
    },
    {
      method: 'GET',
      path: `${base}download-share-file`,
      summary: "Where the signed-in caller downloads a share's file (a path of this server)",
      query: shareCodeQuery,
      response: shareDownload,
      session: 'account',
      handler: ({ query }, c) => makeShareDownload(c.ctx, query.share_code),
    },
    {
      method: 'GET',
      path: `${base}file`,
      summary: "A share's file itself, for a signed-in caller (Range requests answered in part)",
      query: shareCodeQuery,
      sendsFile: true,
      session: 'account',
      handler: ({ query }, c) => sendShared(c.ctx, c.reply, query.share_code, c.req.headers.range),
    },
    {
      method: 'GET',
      path: `${base}list`,
      summary: "The caller's shares not revoked, newest first, with how often each was opened",
      response: shareList,
      session: 'account',
      handler: (_, c) => listShares(c.ctx, c.ownerId),
    },
    {
      method: 'POST',
      path: `${base}revoke`,
      summary: 'End a share at once: its link answers 11016; 2405 for an id that is not one of your shares',
      body: revokeShareRequest,
      session: 'account',
      handler: ({ body }, c) => revokeShare(c.ctx, c.ownerId, body.share_id),
    },
  ];
}
