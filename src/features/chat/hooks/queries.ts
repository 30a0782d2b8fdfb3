import { useQuery } from '@tanstack/react-query';
import { fetchC2cOrder } from '../../../../core/api/c2c';
import { fetchChatList, fetchCustomerUrl } from '../../../../core/api/chat';
import { need } from '../../../data/query';

export const chatKeys = {
  all: ['chat'] as const,
  support: ['chat', 'support'] as const,
  customerUrl: ['chat', 'customer-url'] as const,
  order: (id: number) => ['c2c', 'order', id] as const,
};

/** The user's support conversations, newest first (the open one, if any, is first). */
export const useSupportConversations = () =>
  useQuery({ queryKey: chatKeys.support, queryFn: async () => (await need(fetchChatList('support'))).conversations });

/** Where customer service lives (the app's own chat, or an outside page the operator set). */
export const useCustomerUrl = () =>
  useQuery({ queryKey: chatKeys.customerUrl, queryFn: () => need(fetchCustomerUrl()), staleTime: 60_000 });

/** A C2C order (for its chat: the conversation id, the other side's name, the order number). */
export const useChatOrder = (id: number | null) =>
  useQuery({ queryKey: chatKeys.order(id ?? 0), queryFn: () => need(fetchC2cOrder(id ?? 0)), enabled: id !== null });

export { recordId } from '../../../hooks/hooks';
