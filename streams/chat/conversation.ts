import { BehaviorSubject, type Observable, type Subscription } from 'rxjs';
import { fetchChatMessages } from '../../core/api/chat';
import { newRequestId } from '../../core/ids';
import {
  CHAT_READ_COMMAND,
  CHAT_SEND_COMMAND,
  CHAT_TOPIC,
  type ChatConversation,
  type ChatMessage,
  type ChatMessagesPage,
  type ChatTopicMessage,
  chatConversation,
  chatMessage,
  chatTopicMessage,
} from '../../protocol/chat';
import { type CommandOptions, type CommandResult, type PrivateTopicMessage, realtime } from '../socket';

/**
 * One conversation as a screen shows it: the messages by number, merged from three sources that may overlap or
 * arrive in any order: the newest page read at the start, the private `chat` topic (live), and catch-up reads after
 * the last number held whenever the topic's snapshot (after every reconnect) or a message shows a jump. Messages are
 * kept by `seq`, so a message seen twice is held once and the order is the server's, whatever the arrival order.
 *
 * Sending: each message gets a client id when it is written; the socket command carries it (and retries with it), so
 * the server posts it once. Until the answer arrives it shows as pending; a refused one stays, marked failed, and can
 * be sent again with the same id.
 */

export interface PendingMessage {
  clientId: string;
  text: string | null;
  imageId: number | null;
  state: 'sending' | 'failed';
  /** Why it failed: a key of the `errors` namespace, or the socket's own (`timeout`, `closed`). */
  error: string | null;
}

export interface ConversationView {
  conversation: ChatConversation | null;
  messages: readonly ChatMessage[];
  pending: readonly PendingMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  /** The first page could not be read (the screen offers a retry). */
  failed: boolean;
  loading: boolean;
}

/** What the feed needs: the socket (topic and commands) and the chat/messages call; fakes in tests. */
export interface ConversationSources {
  topic$: Observable<PrivateTopicMessage<ChatTopicMessage>>;
  command<T>(name: string, args: unknown, options?: CommandOptions<T>): Promise<CommandResult<T>>;
  fetchPage(
    id: number,
    page: { afterSeq?: number; beforeSeq?: number; limit?: number },
  ): Promise<ChatMessagesPage | false>;
  newId(): string;
}

export const CHAT_FIRST_PAGE = 30;

export class ConversationFeed {
  private readonly bySeq = new Map<number, ChatMessage>();
  private readonly state: BehaviorSubject<ConversationView>;
  private readonly topicSubscription: Subscription;
  private catchingUp: Promise<void> | null = null;
  /** A catch-up was asked while one ran: run once more after it. */
  private catchUpAgain = false;
  private closed = false;

  constructor(
    readonly id: number,
    private readonly sources: ConversationSources,
  ) {
    this.state = new BehaviorSubject<ConversationView>({
      conversation: null,
      messages: [],
      pending: [],
      hasOlder: false,
      loadingOlder: false,
      failed: false,
      loading: true,
    });
    this.topicSubscription = sources.topic$.subscribe((message) => this.onTopic(message.data));
    void this.loadFirst();
  }

  get view$(): Observable<ConversationView> {
    return this.state.asObservable();
  }

  get view(): ConversationView {
    return this.state.value;
  }

  /** The number of the newest message held (0: none). */
  get lastSeq(): number {
    let last = 0;
    for (const seq of this.bySeq.keys()) if (seq > last) last = seq;
    return last;
  }

  private get firstSeq(): number | null {
    let first: number | null = null;
    for (const seq of this.bySeq.keys()) if (first === null || seq < first) first = seq;
    return first;
  }

  async loadFirst(): Promise<void> {
    this.patch({ loading: true, failed: false });
    const page = await this.sources.fetchPage(this.id, { limit: CHAT_FIRST_PAGE });
    if (this.closed) return;
    if (page === false) {
      this.patch({ loading: false, failed: this.bySeq.size === 0 });
      return;
    }
    this.take(page.messages);
    this.patch({ loading: false, conversation: this.newerConversation(page.conversation), hasOlder: page.has_older });
    // Messages may have come between the page's read and now, or before it with a gap: catch up from the newest held.
    if (page.conversation.last_seq > this.lastSeq) this.catchUp();
  }

  /** Reads the page before the oldest message held (scrolling back). */
  async loadOlder(): Promise<void> {
    const first = this.firstSeq;
    if (first === null || first <= 1 || this.view.loadingOlder) return;
    this.patch({ loadingOlder: true });
    const page = await this.sources.fetchPage(this.id, { beforeSeq: first, limit: CHAT_FIRST_PAGE });
    if (this.closed) return;
    if (page === false) return this.patch({ loadingOlder: false });
    this.take(page.messages);
    this.patch({ loadingOlder: false, hasOlder: page.has_older });
  }

  /** Sends a text; resolves when the server answered (the message is then in `messages`) or refused it. */
  sendText(text: string): Promise<void> {
    return this.send({ clientId: this.sources.newId(), text, imageId: null, state: 'sending', error: null });
  }

  /** Sends an uploaded image (an upload id of the user's). */
  sendImage(imageId: number): Promise<void> {
    return this.send({ clientId: this.sources.newId(), text: null, imageId, state: 'sending', error: null });
  }

  /** Sends a failed message again, with its first client id (the server never posts it twice). */
  retry(clientId: string): Promise<void> {
    const pending = this.view.pending.find((p) => p.clientId === clientId);
    if (pending?.state !== 'failed') return Promise.resolve();
    return this.send({ ...pending, state: 'sending', error: null });
  }

  /** Drops a failed message the user gave up on. */
  discard(clientId: string): void {
    this.patch({ pending: this.view.pending.filter((p) => p.clientId !== clientId || p.state !== 'failed') });
  }

  /** Tells the server (and so the other side) that everything held has been read. */
  async markRead(): Promise<void> {
    const seq = this.lastSeq;
    const conversation = this.view.conversation;
    if (!conversation || seq <= conversation.read_seq) return;
    const result = await this.sources.command(
      CHAT_READ_COMMAND,
      { conversation_id: this.id, seq },
      { result: chatConversation, id: this.sources.newId() },
    );
    if (result.ok) this.patch({ conversation: this.newerConversation(result.data) });
  }

  close(): void {
    this.closed = true;
    this.topicSubscription.unsubscribe();
    this.state.complete();
  }

  private async send(pending: PendingMessage): Promise<void> {
    const others = this.view.pending.filter((p) => p.clientId !== pending.clientId);
    this.patch({ pending: [...others, pending] });
    const args =
      pending.imageId !== null
        ? { conversation_id: this.id, image_id: pending.imageId }
        : { conversation_id: this.id, text: pending.text };
    const result = await this.sources.command(CHAT_SEND_COMMAND, args, { result: chatMessage, id: pending.clientId });
    if (this.closed) return;
    if (result.ok) {
      this.take([result.data]);
      this.patch({ pending: this.view.pending.filter((p) => p.clientId !== pending.clientId) });
    } else {
      this.patch({
        pending: this.view.pending.map((p) =>
          p.clientId === pending.clientId ? { ...p, state: 'failed', error: result.error } : p,
        ),
      });
    }
  }

  private onTopic(data: ChatTopicMessage): void {
    if (data.kind === 'snapshot') {
      const mine = data.conversations.find((c) => c.id === this.id);
      if (!mine) return;
      this.patch({ conversation: this.newerConversation(mine) });
      if (mine.last_seq > this.lastSeq && !this.view.loading) this.catchUp();
      return;
    }
    if (data.kind === 'conversation') {
      if (data.conversation.id !== this.id) return;
      this.patch({ conversation: this.newerConversation(data.conversation) });
      if (data.conversation.last_seq > this.lastSeq && !this.view.loading) this.catchUp();
      return;
    }
    const message = data.message;
    if (message.conversation_id !== this.id) return;
    const jumped = this.bySeq.size > 0 && message.seq > this.lastSeq + 1;
    this.take([message]);
    if (jumped) this.catchUp();
  }

  /** Reads everything after the newest message held, page by page, one catch-up at a time. */
  private catchUp(): void {
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return;
    }
    this.catchingUp = (async () => {
      do {
        this.catchUpAgain = false;
        for (;;) {
          const after = this.contiguousEnd();
          const page = await this.sources.fetchPage(this.id, { afterSeq: after, limit: 100 });
          if (this.closed || page === false) return;
          this.take(page.messages);
          this.patch({ conversation: this.newerConversation(page.conversation) });
          if (page.messages.length < 100) break;
        }
      } while (this.catchUpAgain && !this.closed);
    })().finally(() => {
      this.catchingUp = null;
    });
  }

  /** The number up to which every message is held without a hole, counted from the oldest held. */
  private contiguousEnd(): number {
    const first = this.firstSeq;
    if (first === null) return 0;
    let seq = first;
    while (this.bySeq.has(seq + 1)) seq += 1;
    return seq;
  }

  private take(messages: readonly ChatMessage[]): void {
    let added = false;
    for (const message of messages) {
      if (message.conversation_id !== this.id || this.bySeq.has(message.seq)) continue;
      this.bySeq.set(message.seq, message);
      added = true;
    }
    if (!added) return;
    const sorted = [...this.bySeq.values()].sort((a, b) => a.seq - b.seq);
    // A message of ours that arrived through the topic before its answer is no longer pending.
    const arrived = new Set(sorted.flatMap((m) => (m.client_id ? [m.client_id] : [])));
    this.patch({ messages: sorted, pending: this.view.pending.filter((p) => !arrived.has(p.clientId)) });
  }

  /** The conversation with the most recent facts: a copy older than the held one (fewer messages) is late news. */
  private newerConversation(incoming: ChatConversation): ChatConversation {
    const held = this.view.conversation;
    if (!held) return incoming;
    if (incoming.last_seq < held.last_seq) return held;
    return {
      ...incoming,
      read_seq: Math.max(incoming.read_seq, held.read_seq),
      peer_read_seq: Math.max(incoming.peer_read_seq, held.peer_read_seq),
      unread: Math.max(0, incoming.last_seq - Math.max(incoming.read_seq, held.read_seq)),
      state: held.state === 'closed' ? 'closed' : incoming.state,
    };
  }

  private patch(change: Partial<ConversationView>): void {
    if (this.closed) return;
    this.state.next({ ...this.state.value, ...change });
  }
}

/** A conversation fed by the tab's socket and the chat calls; `close()` it when the screen leaves. */
export function openConversation(id: number): ConversationFeed {
  const socket = realtime();
  return new ConversationFeed(id, {
    topic$: socket.privateTopic(CHAT_TOPIC, chatTopicMessage),
    command: (name, args, options) => socket.command(name, args, options),
    fetchPage: (conversationId, page) => fetchChatMessages(conversationId, page),
    newId: newRequestId,
  });
}
