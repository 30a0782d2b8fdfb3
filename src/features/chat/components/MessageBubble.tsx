import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../../../../protocol/chat';
import type { PendingMessage } from '../../../../streams/chat/conversation';
import { formatDateTime } from '../../../lib/format';
import { errorText } from '../../../lib/i18n';
import { ChatImage } from './ChatImage';

const timeOf = (at: number, lang: string) =>
  new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(new Date(at));

/** A server notice (order paid, released, ...), in the reader's language; its key comes from the server. */
function SystemNotice({ message }: { message: ChatMessage }): ReactElement {
  const { t, i18n } = useTranslation();
  const key = `chat.system.${(message.text ?? '').replaceAll('.', '_')}`;
  const text = i18n.exists(key) ? t(key as 'chat.system.unknown') : t('chat.system.unknown');
  return (
    <div className="chat-system">
      <span>{text}</span>
      <time dateTime={new Date(message.at).toISOString()}>{formatDateTime(message.at, i18n.language)}</time>
    </div>
  );
}

/** One message: ours on the right; theirs (or support's) on the left with the author; text is text, never HTML. */
export function MessageBubble({ message, read }: { message: ChatMessage; read: boolean }): ReactElement {
  const { t, i18n } = useTranslation();
  if (message.kind === 'event') return <SystemNotice message={message} />;
  const own = message.from === 'self';
  const author = own ? t('chat.message.you') : message.from === 'support' ? t('chat.message.support') : message.author;
  return (
    <div className={own ? 'chat-row chat-row-own' : 'chat-row'}>
      <div className={own ? 'chat-bubble chat-bubble-own' : 'chat-bubble'}>
        {!own && <span className="chat-author">{author}</span>}
        {message.kind === 'image' && message.image_id !== null ? (
          <ChatImage id={message.image_id} alt={t('chat.message.imageAlt', { name: author })} />
        ) : (
          <p className="chat-text">{message.text}</p>
        )}
        <span className="chat-meta">
          <time dateTime={new Date(message.at).toISOString()}>{timeOf(message.at, i18n.language)}</time>
          {own && read && <span className="chat-read">{t('chat.message.read')}</span>}
        </span>
      </div>
    </div>
  );
}

/** A message on its way, or refused: it stays with "send again" and "delete". */
export function PendingBubble({
  pending,
  onRetry,
  onDiscard,
}: {
  pending: PendingMessage;
  onRetry: () => void;
  onDiscard: () => void;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const failed = pending.state === 'failed';
  return (
    <div className="chat-row chat-row-own">
      <div className={failed ? 'chat-bubble chat-bubble-own chat-bubble-failed' : 'chat-bubble chat-bubble-own'}>
        {pending.imageId !== null ? (
          <ChatImage id={pending.imageId} alt={t('chat.message.you')} />
        ) : (
          <p className="chat-text">{pending.text}</p>
        )}
        <span className="chat-meta">
          {failed ? (
            <>
              <span className="chat-failed">
                {t('chat.message.failed')}
                {pending.error && i18n.exists(`errors:${pending.error}`) ? `: ${errorText(pending.error)}` : ''}
              </span>
              <button type="button" className="chat-link" onClick={onRetry}>
                {t('chat.message.retry')}
              </button>
              <button type="button" className="chat-link" onClick={onDiscard}>
                {t('chat.message.discard')}
              </button>
            </>
          ) : (
            <span>{t('chat.message.sending')}</span>
          )}
        </span>
      </div>
    </div>
  );
}
