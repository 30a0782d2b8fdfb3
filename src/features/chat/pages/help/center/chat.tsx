import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { ChatScreen } from '../../../components/ChatScreen';
import { useCustomerUrl, useSupportConversations } from '../../../hooks/queries';

/**
 * Customer service (help/center/chat, the menu's "contact us"): the user's open support conversation, live. Without
 * one: start a new one (help/center/newchat) or read earlier ones (help/center/chat2). When the operator moved customer
 * service to an outside page (set/get_customer_url), this page says so and links there.
 */
export default function SupportChatPage(): ReactElement {
  const { t } = useTranslation();
  const conversations = useSupportConversations();
  const where = useCustomerUrl();
  const open = conversations.data?.find((c) => c.state === 'open') ?? null;
  const fallback =
    where.data && !where.data.internal ? (
      <EmptyState icon="mail" text={t('chat.outside')}>
        <a className="btn btn-primary" href={where.data.url} target="_blank" rel="noreferrer">
          <span className="btn-label">{t('chat.openOutside')}</span>
        </a>
      </EmptyState>
    ) : !conversations.data ? (
      <LoadingOrFailed failed={loadFailed(conversations)} onRetry={() => void conversations.refetch()} />
    ) : (
      <EmptyState icon="mail" text={t('chat.noOpen')}>
        <Link to="/pages/help/center/newchat" className="btn btn-primary">
          <span className="btn-label">{t('chat.startNew')}</span>
        </Link>
        {conversations.data.length > 0 && (
          <Link to="/pages/help/center/chat2" className="chat-link">
            {t('chat.history')}
          </Link>
        )}
      </EmptyState>
    );
  return (
    <ChatScreen
      title={t('chat.supportTitle')}
      subtitle={t('chat.supportSubtitle')}
      conversationId={open?.id ?? null}
      right={
        <Link to="/pages/help/center/chat2" className="icon-btn" aria-label={t('chat.history')}>
          <span aria-hidden="true">⋯</span>
        </Link>
      }
      fallback={fallback}
    />
  );
}
