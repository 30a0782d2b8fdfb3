import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { ListGroup, ListItem } from '../../../../../components/List';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { formatDateTime } from '../../../../../lib/format';
import { ChatScreen } from '../../../components/ChatScreen';
import { recordId, useSupportConversations } from '../../../hooks/queries';
import '../../../chat.css';

/**
 * Earlier support conversations (help/center/chat2): the list, and one of them (?id=) to read again. An open one can
 * still be written to here; a closed one is history.
 */
export default function SupportHistoryPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const conversations = useSupportConversations();
  if (id !== null) {
    const one = conversations.data?.find((c) => c.id === id);
    return (
      <ChatScreen
        title={t('chat.supportTitle')}
        subtitle={one ? t(`chat.topics.${one.topic ?? 'other'}`) : undefined}
        conversationId={id}
      />
    );
  }
  return (
    <Page title={t('chat.historyTitle')}>
      {!conversations.data ? (
        <LoadingOrFailed failed={loadFailed(conversations)} onRetry={() => void conversations.refetch()} />
      ) : conversations.data.length === 0 ? (
        <EmptyState icon="mail" text={t('chat.noHistory')} />
      ) : (
        <PullToRefresh onRefresh={() => conversations.refetch()}>
          <ListGroup>
            {conversations.data.map((c) => (
              <ListItem
                key={c.id}
                icon="mail"
                to="/pages/help/center/chat2"
                search={{ id: c.id }}
                label={t(`chat.topics.${c.topic ?? 'other'}`)}
                sub={`${formatDateTime(c.updated_at, i18n.language)} · ${t(`chat.state.${c.state}`)}`}
                value={c.unread > 0 ? t('chat.unread', { count: c.unread }) : undefined}
              />
            ))}
          </ListGroup>
        </PullToRefresh>
      )}
    </Page>
  );
}
