import type { ReactElement } from 'react';
import { OrderChat } from '../../../components/OrderChat';

/**
 * help/center/newotcChat?id=<order>: the merchant's side of a C2C order's chat (the same conversation; the page the
 * merchant's incoming orders link to).
 */
export default function NewOtcChatPage(): ReactElement {
  return <OrderChat />;
}
