// @vitest-environment node
import { Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { ChatConversation, ChatMessage, ChatTopicMessage } from '../../protocol/chat';
import type { CommandResult, PrivateTopicMessage } from '../socket';
import { ConversationFeed } from './conversation';

// A conversation's messages merged from the first page, the live topic and catch-up reads: each once, in the server's
// order, whatever arrives twice, late or out of order; and sends that post once per client id.

const ID = 7;

/** A fake server holding the conversation: what chat/messages and chat.send would answer. */
function fakeServer() {
  const messages: ChatMessage[] = [];
  const byClient = new Map<string, ChatMessage>();
  const conversation = (): ChatConversation => ({
    id: ID,
    kind: 'order',
    topic: null,
    order_id: 1,
    peer: 'merchant',
    state: 'open',
    last_seq: messages.length,
    read_seq: 0,
    peer_read_seq: 0,
    unread: messages.length,
    last: messages.at(-1) ?? null,
    created_at: 1,
    updated_at: 1,
  });
  const post = (text: string, from: ChatMessage['from'] = 'peer', clientId: string | null = null): ChatMessage => {
    const message: ChatMessage = {
      conversation_id: ID,
      seq: messages.length + 1,
      from,
      author: from === 'self' ? 'me' : 'merchant',
      client_id: clientId,
      kind: 'text',
      text,
      image_id: null,
      at: 1000 + messages.length,
    };
    messages.push(message);
    return message;
  };
  const fetchPage = vi.fn(async (_id: number, page: { afterSeq?: number; beforeSeq?: number; limit?: number }) => {
    const limit = page.limit ?? 50;
    let slice: ChatMessage[];
    if (page.afterSeq !== undefined) slice = messages.filter((m) => m.seq > (page.afterSeq ?? 0)).slice(0, limit);
    else {
      const before = messages.filter((m) => page.beforeSeq === undefined || m.seq < page.beforeSeq);
      slice = before.slice(-limit);
    }
    return { conversation: conversation(), messages: slice, has_older: (slice[0]?.seq ?? 1) > 1 };
  });
  return { messages, byClient, conversation, post, fetchPage };
}

function setUp(
  options: {
    answer?: (name: string, args: unknown, id: string) => CommandResult<unknown>;
    /** What the server holds before the screen opens. */
    before?: (server: ReturnType<typeof fakeServer>) => void;
  } = {},
) {
  const server = fakeServer();
  options.before?.(server);
  const topic$ = new Subject<PrivateTopicMessage<ChatTopicMessage>>();
  let seq = 0;
  let ids = 0;
  const command = vi.fn(async (name: string, args: unknown, opts?: { id?: string }) => {
    const id = opts?.id ?? 'none';
    if (options.answer) return options.answer(name, args, id) as CommandResult<never>;
    const known = server.byClient.get(id);
    if (known) return { ok: true as const, data: known as never };
    const message = server.post((args as { text: string }).text, 'self', id);
    server.byClient.set(id, message);
    return { ok: true as const, data: message as never };
  });
  const feed = new ConversationFeed(ID, {
    topic$,
    command,
    fetchPage: server.fetchPage,
    newId: () => `client-${++ids}`,
  });
  const live = (data: ChatTopicMessage) => topic$.next({ kind: 'update', seq: ++seq, ts: 1, data });
  const snapshot = () => {
    seq = 0;
    topic$.next({
      kind: 'snapshot',
      seq: 0,
      ts: 1,
      data: { kind: 'snapshot', conversations: [server.conversation()] },
    });
  };
  return { server, feed, live, snapshot, command };
}

const texts = (feed: ConversationFeed) => feed.view.messages.map((m) => m.text);
const seqs = (feed: ConversationFeed) => feed.view.messages.map((m) => m.seq);

describe('ConversationFeed', () => {
  it('holds a message that came live and again in a catch-up read once, in the server order', async () => {
    const { server, feed, live } = setUp({ before: (s) => s.post('one') });
    await vi.waitFor(() => expect(feed.view.loading).toBe(false));
    expect(texts(feed)).toEqual(['one']);
    const two = server.post('two');
    const three = server.post('three');
    // Three arrives before two (the topic jumped): the feed reads what it misses, then two arrives late as well.
    live({ kind: 'message', message: three });
    await vi.waitFor(() => expect(seqs(feed)).toEqual([1, 2, 3]));
    live({ kind: 'message', message: two });
    live({ kind: 'message', message: three });
    expect(texts(feed)).toEqual(['one', 'two', 'three']);
  });

  it('catches up after a reconnect: the new snapshot shows a higher number than held', async () => {
    const { server, feed, snapshot } = setUp({ before: (s) => s.post('before') });
    await vi.waitFor(() => expect(feed.view.loading).toBe(false));
    // While the socket was down, 150 messages came (more than one catch-up page).
    for (let n = 1; n <= 150; n += 1) server.post(`missed ${n}`);
    snapshot();
    await vi.waitFor(() => expect(feed.view.messages).toHaveLength(151));
    expect(seqs(feed)).toEqual(Array.from({ length: 151 }, (_, i) => i + 1));
    expect(feed.view.conversation?.last_seq).toBe(151);
  });

  it('loads older pages on demand and knows when the history begins', async () => {
    const { feed } = setUp({
      before: (s) => {
        for (let n = 1; n <= 70; n += 1) s.post(`m${n}`);
      },
    });
    await vi.waitFor(() => expect(feed.view.loading).toBe(false));
    expect(seqs(feed)[0]).toBe(41);
    expect(feed.view.hasOlder).toBe(true);
    await feed.loadOlder();
    expect(seqs(feed)[0]).toBe(11);
    await feed.loadOlder();
    expect(seqs(feed)).toEqual(Array.from({ length: 70 }, (_, i) => i + 1));
    expect(feed.view.hasOlder).toBe(false);
  });

  it('shows a send as pending until the answer, and the answered message once even when the topic brings it too', async () => {
    const { server, feed, live } = setUp();
    await vi.waitFor(() => expect(feed.view.loading).toBe(false));
    const sending = feed.sendText('hello');
    expect(feed.view.pending).toMatchObject([{ clientId: 'client-1', text: 'hello', state: 'sending' }]);
    await sending;
    const posted = server.messages[0] as ChatMessage;
    live({ kind: 'message', message: posted });
    expect(feed.view.pending).toEqual([]);
    expect(feed.view.messages).toEqual([posted]);
  });

  it('keeps a refused send as failed and retries it with the same client id, which posts once', async () => {
    let refuse = true;
    const server = fakeServer();
    const posted = new Map<string, ChatMessage>();
    const { feed, command } = (() => {
      const s = setUp({
        answer: (_name, args, id) => {
          if (refuse) return { ok: false, error: 'timeout' };
          const message = posted.get(id) ?? server.post((args as { text: string }).text, 'self', id);
          posted.set(id, message);
          return { ok: true, data: message };
        },
      });
      return s;
    })();
    await vi.waitFor(() => expect(feed.view.loading).toBe(false));
    await feed.sendText('are you there?');
    expect(feed.view.pending).toMatchObject([{ clientId: 'client-1', state: 'failed', error: 'timeout' }]);
    refuse = false;
    await feed.retry('client-1');
    await feed.retry('client-1');
    expect(command.mock.calls.map((c) => (c[2] as { id: string }).id)).toEqual(['client-1', 'client-1']);
    expect(feed.view.pending).toEqual([]);
    expect(feed.view.messages.map((m) => m.text)).toEqual(['are you there?']);
    expect(server.messages).toHaveLength(1);
  });

  it('ignores other conversations and stops when closed', async () => {
    const { server, feed, live } = setUp();
    await vi.waitFor(() => expect(feed.view.loading).toBe(false));
    live({ kind: 'message', message: { ...server.post('elsewhere'), conversation_id: 99 } });
    expect(feed.view.messages).toEqual([]);
    feed.close();
    live({ kind: 'message', message: server.post('after close') });
    expect(feed.view.messages).toEqual([]);
  });
});
