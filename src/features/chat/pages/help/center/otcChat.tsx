import type { ReactElement } from 'react';
import { OrderChat } from '../../../components/OrderChat';

/** help/center/otcChat?id=<order>: the buyer's chat with the merchant of a C2C order. */
export default function OtcChatPage(): ReactElement {
  return <OrderChat />;
}
