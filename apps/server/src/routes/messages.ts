// The message centre's calls (spec §7.5) under /api/message/v1/: an account's messages, or a
// visitor's by the client signature its browser sends in a header.
import {
  CLIENT_SIGN_HEADER,
  ErrorCode,
  QuireError,
  clientSign,
  messageList,
  messageListQuery,
  unreadCounts as unreadCountsAnswer,
  updateUnreadRequest,
} from '@quire/contracts';
import { type Addressee, addresseeOf, listMessages, unreadCounts, updateUnread } from '../services/messages.js';
import type { Call, CallContext } from './calls.js';

const base = '/api/message/v1/';
const visitors = `a visitor's by the client signature in the ${CLIENT_SIGN_HEADER} header (none without one)`;

/** The caller's addressee; 3100 for a client signature that is not 16 to 128 letters, digits, - or _. */
function addressee(c: CallContext): Addressee | undefined {
  const header = c.req.headers[CLIENT_SIGN_HEADER];
  if (header === undefined) return addresseeOf(c.identity, undefined);
  const sign = clientSign.safeParse(header);
  if (!sign.success) throw new QuireError(ErrorCode.InvalidParams, 'The client signature is 16 to 128 letters, digits, - or _.');
  return addresseeOf(c.identity, sign.data);
}

export function messageCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: `${base}unread-exist`,
      summary: `The unread messages and system notices: an account's, or ${visitors}`,
      response: unreadCountsAnswer,
      handler: (_, c) => unreadCounts(c.ctx, addressee(c)),
    },
    {
      method: 'GET',
      path: `${base}list`,
      summary: `A page of the messages (template_type 1) and system notices (2), newest first, at most 999; read_status 0 the unread, 1 the read: an account's, or ${visitors}`,
      query: messageListQuery,
      response: messageList,
      handler: ({ query }, c) => listMessages(c.ctx, addressee(c), query),
    },
    {
      method: 'POST',
      path: `${base}update-unread`,
      summary:
        'Mark messages read (user_msg_ids), or every one (is_all); answers the unread counts, 2405 for a message not addressed to the caller',
      body: updateUnreadRequest,
      response: unreadCountsAnswer,
      handler: ({ body }, c) => updateUnread(c.ctx, addressee(c), body),
    },
  ];
}
