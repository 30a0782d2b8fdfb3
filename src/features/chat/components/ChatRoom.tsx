import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactElement, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../../../protocol/chat';
import type { ConversationFeed, ConversationView, PendingMessage } from '../../../../streams/chat/conversation';
import { LoadingOrFailed } from '../../../components/StateView';
import { Composer } from './Composer';
import { MessageBubble, PendingBubble } from './MessageBubble';

type Row =
  | { kind: 'start' }
  | { kind: 'older' }
  | { kind: 'message'; message: ChatMessage }
  | { kind: 'pending'; pending: PendingMessage };

/** How close to the bottom (px) still counts as "reading the newest": new messages then scroll into view. */
const NEAR_BOTTOM = 120;
/** How close to the top (px) loads the earlier page. */
const NEAR_TOP = 200;

/**
 * A conversation: the messages in a virtualised list (only what is on screen is in the page, so a long history scrolls
 * smoothly on a phone), earlier pages loaded when scrolling up (the reading position stays put), new messages scrolled
 * into view while the reader is at the bottom, read receipts sent for what was seen, and the composer (focused when it
 * shows, with `focusComposer`).
 */
export function ChatRoom({
  feed,
  view,
  readOnly = false,
  focusComposer = false,
}: {
  feed: ConversationFeed;
  view: ConversationView;
  readOnly?: boolean;
  focusComposer?: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const rows: Row[] = [
    view.hasOlder ? { kind: 'older' } : { kind: 'start' },
    ...view.messages.map((message): Row => ({ kind: 'message', message })),
    ...view.pending.map((pending): Row => ({ kind: 'pending', pending })),
  ];
  const keyOf = (row: Row) =>
    row.kind === 'message' ? `m${row.message.seq}` : row.kind === 'pending' ? `p${row.pending.clientId}` : row.kind;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 72,
    overscan: 8,
    getItemKey: (index) => {
      const row = rows[index];
      return row ? keyOf(row) : index;
    },
  });

  // The newest message read by the other side: the receipt shows under our last message up to it.
  const peerRead = view.conversation?.peer_read_seq ?? 0;
  let lastReadOwn = 0;
  for (const m of view.messages) if (m.from === 'self' && m.seq <= peerRead) lastReadOwn = m.seq;

  // Keep the reading position when an earlier page is put in front: scroll down by what was added above.
  const firstSeq = view.messages[0]?.seq ?? null;
  const previousFirst = useRef<number | null>(null);
  const previousCount = useRef(0);
  useLayoutEffect(() => {
    const before = previousFirst.current;
    previousFirst.current = firstSeq;
    const grownBy = view.messages.length - previousCount.current;
    previousCount.current = view.messages.length;
    if (before !== null && firstSeq !== null && firstSeq < before && grownBy > 0) {
      const added = view.messages.findIndex((m) => m.seq === before);
      if (added > 0) virtualizer.scrollToIndex(added + 1, { align: 'start' });
      return;
    }
    if (atBottom.current && rows.length > 0) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  });

  // Read receipts: what reached the screen while the page is visible and the reader is at the bottom.
  const lastSeq = view.messages.at(-1)?.seq ?? 0;
  const markRead = useCallback(() => {
    if (!readOnly && atBottom.current && document.visibilityState === 'visible') void feed.markRead();
  }, [feed, readOnly]);
  useEffect(() => {
    if (lastSeq > 0) markRead();
  }, [lastSeq, markRead]);
  useEffect(() => {
    document.addEventListener('visibilitychange', markRead);
    return () => document.removeEventListener('visibilitychange', markRead);
  }, [markRead]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const wasAtBottom = atBottom.current;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM;
    if (atBottom.current && !wasAtBottom) markRead();
    if (el.scrollTop < NEAR_TOP && view.hasOlder && !view.loadingOlder) void feed.loadOlder();
  };

  if (view.messages.length === 0 && (view.loading || view.failed)) {
    return (
      <div className="chat-room">
        <LoadingOrFailed failed={view.failed} onRetry={() => void feed.loadFirst()} />
      </div>
    );
  }
  const closed = view.conversation?.state === 'closed';
  return (
    <div className="chat-room">
      <div
        className="chat-scroll"
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-live="polite"
        aria-label={t('chat.list.newMessages')}
      >
        <div className="chat-list" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="chat-item"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row.kind === 'start' ? (
                  <p className="chat-start">
                    {view.messages.length === 0 && view.pending.length === 0
                      ? t('chat.list.empty')
                      : t('chat.list.start')}
                  </p>
                ) : row.kind === 'older' ? (
                  <button
                    type="button"
                    className="chat-older"
                    onClick={() => void feed.loadOlder()}
                    disabled={view.loadingOlder}
                  >
                    {view.loadingOlder ? t('chat.list.loadingOlder') : t('chat.list.loadOlder')}
                  </button>
                ) : row.kind === 'message' ? (
                  <MessageBubble message={row.message} read={row.message.seq === lastReadOwn} />
                ) : (
                  <PendingBubble
                    pending={row.pending}
                    onRetry={() => void feed.retry(row.pending.clientId)}
                    onDiscard={() => feed.discard(row.pending.clientId)}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {closed ? (
        <p className="chat-closed">{t('chat.closed')}</p>
      ) : readOnly ? null : (
        <Composer
          autoFocus={focusComposer}
          onText={(text) => {
            atBottom.current = true;
            void feed.sendText(text);
          }}
          onImage={(id) => {
            atBottom.current = true;
            void feed.sendImage(id);
          }}
        />
      )}
    </div>
  );
}
