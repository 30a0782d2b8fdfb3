import type { ReactElement, ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useGoBack } from '../../../app/back';
import { Icon } from '../../../components/Icon';
import { useConnectionState } from '../hooks/useConversation';

/**
 * The chat pages' own navigation bar (SPEC 2: the chat pages use a custom one, newchat the default): back, the other
 * side's name and, under it, whether the live connection is up (messages written while it is down are kept and sent).
 */
export function ChatHeader({
  title,
  subtitle,
  right,
}: {
  title: string;
  subtitle?: string;
  right?: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const connection = useConnectionState();
  const brand = t('brand');
  useEffect(() => {
    document.title = `${title} · ${brand}`;
  }, [title, brand]);
  return (
    <header className="chat-header">
      <button type="button" className="icon-btn" onClick={goBack} aria-label={t('nav.back')}>
        <Icon name="back" />
      </button>
      <div className="chat-header-text">
        <h1 className="chat-header-title">{title}</h1>
        <p className={`chat-header-sub chat-conn-${connection}`} aria-live="polite">
          <span className="chat-conn-dot" aria-hidden="true" />
          {connection === 'connected' && subtitle ? subtitle : t(`chat.connection.${connection}`)}
        </p>
      </div>
      <div className="chat-header-right">{right}</div>
    </header>
  );
}
