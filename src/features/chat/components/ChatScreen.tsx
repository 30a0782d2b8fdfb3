import type { ReactElement, ReactNode } from 'react';
import { useConversation } from '../hooks/useConversation';
import { ChatHeader } from './ChatHeader';
import { ChatRoom } from './ChatRoom';
import '../chat.css';

/**
 * A chat page: its own header over the conversation (or over `fallback` while there is none to show). `focusComposer`:
 * the page was opened to write, so the message field takes the focus as soon as it shows.
 */
export function ChatScreen({
  title,
  subtitle,
  right,
  conversationId,
  readOnly,
  focusComposer,
  fallback,
}: {
  title: string;
  subtitle?: string | undefined;
  right?: ReactNode;
  conversationId: number | null;
  readOnly?: boolean;
  focusComposer?: boolean;
  fallback?: ReactNode;
}): ReactElement {
  const { feed, view } = useConversation(conversationId);
  return (
    <div className="page chat-page">
      <ChatHeader title={title} {...(subtitle ? { subtitle } : {})} right={right} />
      {conversationId !== null && feed && view ? (
        <ChatRoom feed={feed} view={view} readOnly={readOnly ?? false} focusComposer={focusComposer ?? false} />
      ) : (
        <main className="page-body">{fallback}</main>
      )}
    </div>
  );
}
