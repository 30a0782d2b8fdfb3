import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../protocol/chat';
import { formatTime } from './parts';

/** A conversation's messages as an operator reads them: who wrote, when, the text as text (never HTML). */
export function ChatLog({ messages, peerRead }: { messages: readonly ChatMessage[]; peerRead: number }): ReactElement {
  const { t } = useTranslation();
  if (messages.length === 0) return <p className="ops-muted">{t('console.support.noMessages')}</p>;
  return (
    <ol className="ops-chat" aria-live="polite">
      {messages.map((m) => (
        <li key={m.seq} className={`ops-msg ops-msg-${m.from}`}>
          <span className="ops-msg-author">
            {m.from === 'system' ? t('console.support.system') : m.author}
            {m.from === 'self' && m.seq <= peerRead ? ` · ${t('console.support.read')}` : ''}
          </span>
          {m.kind === 'image' ? (
            <span className="ops-msg-text">{t('console.support.photo')}</span>
          ) : (
            <span className="ops-msg-text">
              {m.kind === 'event' ? t('console.support.event', { key: m.text }) : m.text}
            </span>
          )}
          <time className="ops-msg-time" dateTime={new Date(m.at).toISOString()}>
            {formatTime(m.at)}
          </time>
        </li>
      ))}
    </ol>
  );
}
