import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../protocol/chat';
import { formatTime, ReviewImage } from './parts';

/** A conversation's messages as an operator reads them: who wrote, when, the text as text (never HTML). */
export function ChatLog({
  messages,
  peerRead,
  imagePath,
}: {
  messages: readonly ChatMessage[];
  peerRead: number;
  /** Where the console reads this conversation's photos (support's or an appeal's route). */
  imagePath: string;
}): ReactElement {
  const { t, i18n } = useTranslation();
  // An order event's key from the server, in the operator's language (dots become underscores in the table).
  const eventText = (key: string | null) => {
    const full = `console.support.events.${(key ?? '').replaceAll('.', '_')}`;
    return i18n.exists(full) ? t(full as 'console.support.events.unknown') : t('console.support.events.unknown');
  };
  if (messages.length === 0) return <p className="ops-muted">{t('console.support.noMessages')}</p>;
  return (
    <ol className="ops-chat" aria-live="polite">
      {messages.map((m) => (
        <li key={m.seq} className={`ops-msg ops-msg-${m.from}`}>
          <span className="ops-msg-author">
            {m.from === 'system' ? t('console.support.system') : m.author}
            {m.from === 'self' && m.seq <= peerRead ? ` · ${t('console.support.read')}` : ''}
          </span>
          {m.kind === 'image' && m.image_id !== null ? (
            <ReviewImage
              path={imagePath}
              search={{ conversation: String(m.conversation_id), id: String(m.image_id) }}
              alt={t('console.support.photo')}
            />
          ) : (
            <span className="ops-msg-text">{m.kind === 'event' ? eventText(m.text) : m.text}</span>
          )}
          <time className="ops-msg-time" dateTime={new Date(m.at).toISOString()}>
            {formatTime(m.at)}
          </time>
        </li>
      ))}
    </ol>
  );
}
