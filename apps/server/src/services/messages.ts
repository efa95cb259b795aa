// The message centre (spec §7.5): operators send messages and system notices to everyone, the
// accounts on a plan (as they are when they read) or one account; an account reads its own, a
// visitor those to everyone under the client signature its browser keeps. A user_msg_id names a
// message for one recipient: the message's id and a digest of it with the recipient, so a
// recipient can mark read only what is addressed to it (2405 otherwise) and no read mark is stored
// until it reads.
import { createHash } from 'node:crypto';
import {
  ErrorCode,
  MESSAGE_PID,
  QuireError,
  type MessageItem,
  type MessageList,
  type SentMessage,
  type TemplateType,
  type UnreadCounts,
  type messageListQuery,
  type messageSendRequest,
  type updateUnreadRequest,
} from '@quire/contracts';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { findAccount, findAccountByEmail } from '../db/accountsRepo.js';
import {
  addressedAmong,
  allMessages,
  deleteMessage,
  insertMessage,
  markRead,
  receivedPage,
  unreadByType,
  unreadIds,
  type Addressee,
  type ReceivedMessage,
} from '../db/messagesRepo.js';
import type { AccountTable, MessageTable } from '../db/schema.js';
import { newId } from '../ids.js';
import { accountOwner, type Identity, type Session } from './accounts.js';
import { operatorOf } from './operators.js';

export type { Addressee };

/** Who reads: the signed-in account, else the visitor of a client signature; nobody without either. */
export function addresseeOf(identity: Identity, clientSign: string | undefined): Addressee | undefined {
  if (identity.account) return { recipient: accountOwner(identity.account.id), account: identity.account };
  return clientSign === undefined ? undefined : { recipient: `sign:${clientSign}` };
}

const digest = (messageId: string, recipient: string) =>
  createHash('sha256').update(`${messageId}\n${recipient}`).digest('hex').slice(0, 24);
const userMsgId = (messageId: string, recipient: string) => `${messageId}.${digest(messageId, recipient)}`;

/** The message a user_msg_id names, if it was made for this recipient. */
function messageIdFor(userMsg: string, recipient: string): string | undefined {
  const [messageId, check, ...rest] = userMsg.split('.');
  return messageId && check && rest.length === 0 && check === digest(messageId, recipient) ? messageId : undefined;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

const toItem = (m: ReceivedMessage, recipient: string): MessageItem => ({
  user_msg_id: userMsgId(m.id, recipient),
  is_read: m.read ? 1 : 0,
  create_time: seconds(m.created_at),
  template_type: m.template_type as TemplateType,
  title: m.title,
  remark: m.remark,
  icon_url: m.icon_url,
  site_url: m.site_url,
  site_img: m.site_img,
});

export async function unreadCounts(ctx: AppContext, to: Addressee | undefined): Promise<UnreadCounts> {
  const unread = to ? await unreadByType(ctx.db, to) : new Map<number, number>();
  const messages = unread.get(1) ?? 0;
  const system = unread.get(2) ?? 0;
  return { total_unread_count: messages + system, unread_msg_count: messages, unread_system_count: system };
}

/** A page of the recipient's messages, newest first; none for another product id. */
export async function listMessages(
  ctx: AppContext,
  to: Addressee | undefined,
  query: z.infer<typeof messageListQuery>,
): Promise<MessageList> {
  const empty = { list: [], total: 0, current: query.current, page_size: query.page_size };
  if (!to || query.pid !== MESSAGE_PID) return empty;
  const filter = {
    ...(query.template_type !== undefined && { templateType: query.template_type }),
    ...(query.read_status !== undefined && { read: query.read_status === 1 }),
  };
  const page = await receivedPage(ctx.db, to, filter, (query.current - 1) * query.page_size, query.page_size);
  return { ...empty, total: page.total, list: page.messages.map((m) => toItem(m, to.recipient)) };
}

/** Marks the named messages read, or every one with is_all; 2405 when one is not the caller's. */
export async function updateUnread(
  ctx: AppContext,
  to: Addressee | undefined,
  body: z.infer<typeof updateUnreadRequest>,
): Promise<UnreadCounts> {
  if (body.is_all) {
    if (to) await markRead(ctx.db, to.recipient, await unreadIds(ctx.db, to), Date.now());
    return unreadCounts(ctx, to);
  }
  if (body.user_msg_ids.length === 0) return unreadCounts(ctx, to);
  if (!to) throw new QuireError(ErrorCode.NoData);
  const ids = body.user_msg_ids.map((u) => messageIdFor(u, to.recipient));
  const addressed = await addressedAmong(
    ctx.db,
    to,
    ids.filter((id): id is string => id !== undefined),
  );
  if (!ids.every((id) => id !== undefined && addressed.has(id))) throw new QuireError(ErrorCode.NoData);
  await markRead(ctx.db, to.recipient, [...addressed], Date.now());
  return unreadCounts(ctx, to);
}

/** Who sends: an operator's account, or the command line (none). */
export type Sender = AccountTable | undefined;

/** Sends a message to its audience; 2405 for an account address that has none. */
export async function sendMessage(ctx: AppContext, sender: Sender, body: z.infer<typeof messageSendRequest>): Promise<SentMessage> {
  let account: AccountTable | undefined;
  if (body.audience === 'account') {
    account = await findAccountByEmail(ctx.db, body.email ?? '');
    if (!account) throw new QuireError(ErrorCode.NoData);
  }
  const message: MessageTable = {
    id: newId(),
    template_type: body.template_type,
    title: body.title,
    remark: body.remark,
    icon_url: body.icon_url,
    site_url: body.site_url,
    site_img: body.site_img,
    audience: body.audience,
    audience_plan: body.audience === 'plan' ? (body.plan ?? '') : '',
    audience_account: account?.id ?? '',
    sender_id: sender?.id ?? '',
    created_at: Date.now(),
  };
  await insertMessage(ctx.db, message);
  const to = account ? account.email : body.audience === 'plan' ? `the ${message.audience_plan} plan` : 'everyone';
  console.info(`${sender ? `Operator ${sender.email} (${sender.id})` : 'The command line'} sent the message ${message.id} to ${to}.`);
  return { ...sent(message, account?.email ?? '', sender?.email ?? ''), read_count: 0 };
}

function sent(m: MessageTable, accountEmail: string, senderEmail: string): Omit<SentMessage, 'read_count'> {
  return {
    message_id: m.id,
    template_type: m.template_type as TemplateType,
    audience: m.audience as SentMessage['audience'],
    audience_name: m.audience === 'plan' ? m.audience_plan : accountEmail,
    title: m.title,
    remark: m.remark,
    icon_url: m.icon_url,
    site_url: m.site_url,
    site_img: m.site_img,
    create_time: seconds(m.created_at),
    sender_email: senderEmail,
  };
}

/** Operators: a message sent from /admin. */
export const operatorSends = (ctx: AppContext, session: Session, body: z.infer<typeof messageSendRequest>) =>
  sendMessage(ctx, operatorOf(session), body);

/** Operators: every message, newest first, with how many have read it. */
export async function sentMessages(ctx: AppContext, session: Session): Promise<{ messages: SentMessage[] }> {
  operatorOf(session);
  const messages = await allMessages(ctx.db);
  const ids = new Set(messages.flatMap((m) => [m.sender_id, m.audience_account]).filter((id) => id !== ''));
  const emails = new Map<string, string>();
  for (const id of ids) {
    const account = await findAccount(ctx.db, id);
    if (account) emails.set(id, account.email);
  }
  return {
    messages: messages.map((m) => ({
      ...sent(m, emails.get(m.audience_account) ?? '', emails.get(m.sender_id) ?? ''),
      read_count: m.read_count,
    })),
  };
}

/** Operators: a message withdrawn with its read marks; 2405 for one that does not exist. */
export async function withdrawMessage(ctx: AppContext, session: Session, id: string): Promise<void> {
  const operator = operatorOf(session);
  if (!(await deleteMessage(ctx.db, id))) throw new QuireError(ErrorCode.NoData);
  console.info(`Operator ${operator.email} (${operator.id}) deleted the message ${id}.`);
}
