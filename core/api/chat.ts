import {
  type ChatConversation,
  type ChatKind,
  type ChatMessagesPage,
  chatCalls,
  type SupportTopic,
} from '../../protocol/chat';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(chatCalls);

/**
 * Chat (chat/*, set/get_customer_url). Reads show no global loading bar: the chat pages show their own states, and the
 * catch-up reads after a reconnect are quiet (a failed one is retried by the next reconnect or gap). Messages are sent
 * over the socket (streams/chat), not here.
 */
const read = { loading: false } as const;
const background = { quiet: true, loading: false } as const;

export function fetchChatList(
  kind?: ChatKind,
  opts: CallOptions = read,
): Promise<{ conversations: ChatConversation[] } | false> {
  return callApi('chat/list', kind ? { kind } : {}, opts);
}

export function fetchConversation(id: number, opts: CallOptions = read): Promise<ChatConversation | false> {
  return callApi('chat/info', { id: String(id) }, opts);
}

/** A page of messages: after `afterSeq` (catching up), before `beforeSeq` (scrolling back), or the newest. */
export function fetchChatMessages(
  id: number,
  page: { afterSeq?: number; beforeSeq?: number; limit?: number },
  opts: CallOptions = background,
): Promise<ChatMessagesPage | false> {
  return callApi(
    'chat/messages',
    {
      id: String(id),
      ...(page.afterSeq !== undefined ? { after_seq: String(page.afterSeq) } : {}),
      ...(page.beforeSeq !== undefined ? { before_seq: String(page.beforeSeq) } : {}),
      ...(page.limit !== undefined ? { limit: String(page.limit) } : {}),
    },
    opts,
  );
}

/** Starts a support conversation on a topic, or answers the open one. Quiet: the page shows the refusal. */
export async function openSupportChat(
  topic: SupportTopic,
): Promise<{ ok: true; conversation: ChatConversation } | { ok: false; message: string }> {
  const r = await callApiResult('chat/support/open', { topic }, { quiet: true });
  return r.ok ? { ok: true, conversation: r.data } : { ok: false, message: r.message };
}

/** Where customer service lives: the app's own chat page, or an outside address. */
export function fetchCustomerUrl(opts: CallOptions = read): Promise<{ url: string; internal: boolean } | false> {
  return callApi('set/get_customer_url', {}, opts);
}
