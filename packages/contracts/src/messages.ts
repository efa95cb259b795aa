// The message centre (spec §2, §3, §7.5): operators send messages and system notices to everyone, a
// plan or one account; each recipient (an account, or a visitor by the client signature the browser
// keeps) reads them under the bell and marks them read.
import { z } from 'zod';
import { email, plan } from './account.js';
import { siteLink } from './banners.js';
import { MESSAGE_PAGE_SIZE, MESSAGE_PID } from './messageRules.js';

/** A client signature: 16 to 128 letters, digits, `-` or `_` (the web app makes 32 hex digits). */
export const clientSign = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/);

/** 1: a message; 2: a system notice. */
export const templateType = z.union([z.literal(1), z.literal(2)]);
export type TemplateType = z.infer<typeof templateType>;

const seconds = z.number().int().min(0).describe('Epoch seconds');

/** One message as its recipient sees it; user_msg_id names it for this recipient only. */
export const messageItem = z.object({
  user_msg_id: z.string(),
  is_read: z.union([z.literal(0), z.literal(1)]),
  create_time: seconds,
  template_type: templateType,
  title: z.string(),
  remark: z.string(),
  icon_url: z.string(),
  site_url: z.string(),
  site_img: z.string(),
});
export type MessageItem = z.infer<typeof messageItem>;

/** GET /api/message/v1/unread-exist */
export const unreadCounts = z.object({
  total_unread_count: z.number().int().min(0),
  unread_msg_count: z.number().int().min(0),
  unread_system_count: z.number().int().min(0),
});
export type UnreadCounts = z.infer<typeof unreadCounts>;

/** GET /api/message/v1/list: newest first; read_status 0 the unread only, 1 the read only, absent both. */
export const messageListQuery = z.object({
  pid: z.coerce.number().int().default(MESSAGE_PID),
  template_type: z.coerce.number().pipe(templateType).optional(),
  current: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(MESSAGE_PAGE_SIZE).default(MESSAGE_PAGE_SIZE),
  read_status: z.coerce
    .number()
    .pipe(z.union([z.literal(0), z.literal(1)]))
    .optional(),
});
export const messageList = z.object({
  list: z.array(messageItem),
  /** How many match the filters, over every page. */
  total: z.number().int().min(0),
  current: z.number().int().min(1),
  page_size: z.number().int().min(1),
});
export type MessageList = z.infer<typeof messageList>;

/** POST /api/message/v1/update-unread: these messages read, or with is_all every one. */
export const updateUnreadRequest = z.object({
  is_all: z.boolean().default(false),
  user_msg_ids: z.array(z.string().min(1).max(128)).max(MESSAGE_PAGE_SIZE).default([]),
});

export const messageAudiences = ['everyone', 'plan', 'account'] as const;
export type MessageAudience = (typeof messageAudiences)[number];

/** An image: a path of the site or an http(s) address; empty for none. */
const optionalLink = siteLink.or(z.literal('')).default('');

/** POST /api/account/v1/admin/messages: to everyone, the accounts on a plan, or one account by its address. */
export const messageSendRequest = z
  .object({
    template_type: templateType,
    audience: z.enum(messageAudiences),
    plan: plan.optional(),
    email: email.optional(),
    title: z.string().trim().min(1).max(200),
    remark: z.string().trim().max(2000).default(''),
    site_url: optionalLink,
    site_img: optionalLink,
    icon_url: optionalLink,
  })
  .superRefine((m, issues) => {
    if (m.audience === 'plan' && !m.plan) issues.addIssue({ code: 'custom', path: ['plan'], message: 'Choose the plan to send to.' });
    if (m.audience === 'account' && !m.email)
      issues.addIssue({ code: 'custom', path: ['email'], message: 'Enter the address of the account to send to.' });
  });
export type MessageSendRequest = z.input<typeof messageSendRequest>;

/** A message as the operators' list shows it, with how many recipients have read it. */
export const sentMessage = z.object({
  message_id: z.string(),
  template_type: templateType,
  audience: z.enum(messageAudiences),
  /** The plan or the account's address, for those audiences; else empty. */
  audience_name: z.string(),
  title: z.string(),
  remark: z.string(),
  icon_url: z.string(),
  site_url: z.string(),
  site_img: z.string(),
  create_time: seconds,
  sender_email: z.string(),
  read_count: z.number().int().min(0),
});
export type SentMessage = z.infer<typeof sentMessage>;
export const sentMessageList = z.object({ messages: z.array(sentMessage) });
export const messageRef = z.object({ message_id: z.string().min(1).max(64) });
