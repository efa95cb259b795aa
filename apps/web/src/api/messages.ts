// The message centre's calls (/api/message/v1/, spec §7.5). A signed-in user's messages are the
// account's; a visitor's are those of the client signature this browser keeps in local storage and
// sends in a header, never in a URL.
import {
  CLIENT_SIGN_HEADER,
  MESSAGE_PAGE_SIZE,
  MESSAGE_PID,
  type messageList,
  type MessageItem,
  type MessageSendRequest,
  type SentMessage,
  type sentMessage,
  type sentMessageList,
  type TemplateType,
  type UnreadCounts,
  type unreadCounts,
} from '@quire/contracts';
import { getJson, postJson, readEnvelope, send, urlWithQuery, type Answer } from './client';

const BASE = '/api/message/v1/';
const ADMIN = '/api/account/v1/admin/messages';
const SIGN_KEY = 'quire.clientSign';

/** This browser's client signature: 32 random hex digits, made once. */
export function clientSignature(): string | undefined {
  try {
    const kept = localStorage.getItem(SIGN_KEY);
    if (kept && /^[0-9a-f]{32}$/.test(kept)) return kept;
    const made = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(SIGN_KEY, made);
    return made;
  } catch {
    return undefined; // No storage: a visitor has no messages here.
  }
}

function signed(init: RequestInit = {}): RequestInit {
  const sign = clientSignature();
  return sign ? { ...init, headers: { ...(init.headers as Record<string, string>), [CLIENT_SIGN_HEADER]: sign } } : init;
}

export async function fetchUnread(signal?: AbortSignal): Promise<UnreadCounts> {
  return readEnvelope<Answer<typeof unreadCounts>>(await send(`${BASE}unread-exist`, signed(signal ? { signal } : {})));
}

export interface MessageFilter {
  templateType?: TemplateType;
  unreadOnly?: boolean;
}

/** The newest messages (up to 999, the spec's page size), filtered by kind and read state. */
export async function fetchMessages(filter: MessageFilter, signal?: AbortSignal): Promise<MessageItem[]> {
  const url = urlWithQuery(BASE, 'list', {
    pid: MESSAGE_PID,
    template_type: filter.templateType,
    current: 1,
    page_size: MESSAGE_PAGE_SIZE,
    read_status: filter.unreadOnly ? 0 : undefined,
  });
  return (await readEnvelope<Answer<typeof messageList>>(await send(url, signed(signal ? { signal } : {})))).list;
}

/** Marks the messages read (or all of them); answers the unread counts after. */
export async function markMessagesRead(which: { all: true } | { ids: string[] }): Promise<UnreadCounts> {
  const body = 'all' in which ? { is_all: true } : { user_msg_ids: which.ids };
  const res = await send(
    `${BASE}update-unread`,
    signed({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  );
  return readEnvelope<Answer<typeof unreadCounts>>(res);
}

export const fetchSentMessages = async (): Promise<SentMessage[]> => (await getJson<Answer<typeof sentMessageList>>(ADMIN)).messages;

export const sendMessage = (message: MessageSendRequest): Promise<SentMessage> => postJson<Answer<typeof sentMessage>>(ADMIN, message);

export async function deleteMessage(messageId: string): Promise<void> {
  await readEnvelope<null>(await send(`${ADMIN}?${new URLSearchParams({ message_id: messageId })}`, { method: 'DELETE' }));
}
