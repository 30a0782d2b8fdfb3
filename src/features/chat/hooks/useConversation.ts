import { useEffect, useState, useSyncExternalStore } from 'react';
import { type ConversationFeed, type ConversationView, openConversation } from '../../../../streams/chat/conversation';
import { type ConnectionState, realtime } from '../../../../streams/socket';

/** One conversation's live view for as long as the screen shows it (null id: none). */
export function useConversation(id: number | null): { feed: ConversationFeed | null; view: ConversationView | null } {
  const [feed, setFeed] = useState<ConversationFeed | null>(null);
  const [view, setView] = useState<ConversationView | null>(null);
  useEffect(() => {
    if (id === null) return;
    const opened = openConversation(id);
    setFeed(opened);
    const subscription = opened.view$.subscribe(setView);
    return () => {
      subscription.unsubscribe();
      opened.close();
      setFeed(null);
      setView(null);
    };
  }, [id]);
  return { feed, view };
}

/** The tab socket's connection state, for the chat header. */
export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(
    (notify) => {
      const subscription = realtime().state$.subscribe(() => notify());
      return () => subscription.unsubscribe();
    },
    () => realtime().connectionState,
  );
}
