import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/assets/EmptyState';
import { Icon } from '../../../components/Icon';
import { LoadingOrFailed } from '../../../components/StateView';
import { loadFailed } from '../../../data/query';
import { useQueryParam } from '../../../hooks/hooks';
import { recordId, useChatOrder } from '../hooks/queries';
import { ChatScreen } from './ChatScreen';

/**
 * A C2C order's chat between its buyer and its merchant (?id=<order id>): the other side's name in the header, the
 * order number under it, and a way back to the order. Only the order's two sides get its conversation.
 */
export function OrderChat(): ReactElement {
  const { t } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const order = useChatOrder(id);
  const o = order.data;
  const peer = o ? (o.role === 'buyer' ? o.merchant_nickname : o.buyer_nickname) : '';
  return (
    <ChatScreen
      title={o ? t('chat.orderWith', { name: peer }) : t('chat.orderTitle')}
      subtitle={o ? t('chat.orderSummary', { sn: o.sn }) : undefined}
      conversationId={o?.conversation_id ?? null}
      right={
        o ? (
          <Link
            to="/pages/assets/c2c/orderDetail"
            search={{ id: o.id }}
            className="icon-btn"
            aria-label={t('chat.orderSummary', { sn: o.sn })}
          >
            <Icon name="document" />
          </Link>
        ) : null
      }
      fallback={
        id === null || (o && o.conversation_id === null) ? (
          <EmptyState icon="alert" text={id === null ? t('chat.orderNotFound') : t('chat.noChat')} />
        ) : (
          <LoadingOrFailed failed={loadFailed(order)} onRetry={() => void order.refetch()} />
        )
      }
    />
  );
}
