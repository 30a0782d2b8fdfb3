import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactElement, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { openSupportChat } from '../../../../../../core/api/chat';
import { type ChatConversation, SUPPORT_TOPICS, type SupportTopic } from '../../../../../../protocol/chat';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Button } from '../../../../../components/Button';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { ChatScreen } from '../../../components/ChatScreen';
import { chatKeys, useCustomerUrl, useSupportConversations } from '../../../hooks/queries';

/** The topic a link asks for (`?topic=`, from the help centre or an article), or "something else". */
const topicOf = (v: string | undefined): SupportTopic => SUPPORT_TOPICS.find((topic) => topic === v) ?? 'other';

/**
 * Customer service (help/center/chat: the help centre's "contact support", the menu's "contact us"): the user's open
 * support conversation, live, with the message field focused, so one tap from the help centre has the keyboard up.
 * Without an open one, one is opened on the way (chat/support/open, on the link's `?topic=`, else "something else";
 * the server keeps one open at a time, so coming again opens no second one); help/center/newchat still starts one on
 * a chosen topic. When the operator moved customer service to an outside page (set/get_customer_url), this page says
 * so and links there instead.
 */
export default function SupportChatPage(): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const topic = topicOf(useQueryParam('topic'));
  const conversations = useSupportConversations();
  const where = useCustomerUrl();
  const outside = where.data && !where.data.internal ? where.data : null;
  const open = conversations.data?.find((c) => c.state === 'open') ?? null;

  const start = useMutation({
    mutationFn: async (on: SupportTopic): Promise<ChatConversation> => {
      const r = await openSupportChat(on);
      if (!r.ok) throw new Error(r.message);
      return r.conversation;
    },
    // The list learns of it at once (the open one first, as the server lists them): the room opens on it.
    onSuccess: (conversation) =>
      client.setQueryData<ChatConversation[]>(chatKeys.support, (list) => [
        conversation,
        ...(list ?? []).filter((c) => c.id !== conversation.id),
      ]),
  });
  // Only once the list says there is no open one and customer service is known to be the app's own (a failed
  // look-up of where it lives counts as the app's own, as the fallback below reads it).
  const needsOne = conversations.isSuccess && open === null && !where.isPending && outside === null;
  const { isIdle, mutate } = start;
  useEffect(() => {
    if (needsOne && isIdle) mutate(topic);
  }, [needsOne, isIdle, mutate, topic]);

  const fallback = outside ? (
    <EmptyState icon="mail" text={t('chat.outside')}>
      <a className="btn btn-primary" href={outside.url} target="_blank" rel="noreferrer">
        <span className="btn-label">{t('chat.openOutside')}</span>
      </a>
    </EmptyState>
  ) : start.isError ? (
    <EmptyState icon="alert" text={start.error.message}>
      <Button onClick={() => mutate(topic)}>{t('common.retry')}</Button>
      <Link to="/pages/help/center/newchat" className="chat-link">
        {t('chat.startNew')}
      </Link>
    </EmptyState>
  ) : (
    <LoadingOrFailed failed={loadFailed(conversations)} onRetry={() => void conversations.refetch()} />
  );
  return (
    <ChatScreen
      title={t('chat.supportTitle')}
      subtitle={t('chat.supportSubtitle')}
      conversationId={open?.id ?? null}
      focusComposer
      right={
        <Link to="/pages/help/center/chat2" className="icon-btn" aria-label={t('chat.history')}>
          <span aria-hidden="true">⋯</span>
        </Link>
      }
      fallback={fallback}
    />
  );
}
