import type { ReactElement, ReactNode } from 'react';
import { useConversation } from '../hooks/useConversation';
import { ChatHeader } from './ChatHeader';
import { ChatRoom } from './ChatRoom';
import '../chat.css';

/** A chat page: its own header over the conversation (or over `fallback` while there is none to show). */
export function ChatScreen({
  title,
  subtitle,
  right,
  conversationId,
  readOnly,
  fallback,
}: {
  title: string;
  subtitle?: string | undefined;
  right?: ReactNode;
  conversationId: number | null;
  readOnly?: boolean;
  fallback?: ReactNode;
}): ReactElement {
  const { feed, view } = useConversation(conversationId);
  return (
    <div className="page chat-page">
      <ChatHeader title={title} {...(subtitle ? { subtitle } : {})} right={right} />
      {conversationId !== null && feed && view ? (
        <ChatRoom feed={feed} view={view} readOnly={readOnly ?? false} />
      ) : (
        <main className="page-body">{fallback}</main>
      )}
    </div>
  );
}
