import type { ReactElement } from 'react';
import { OptionTrade } from '../../components/OptionTrade';

/** option/detail, the Option tab: options on the real account (SPEC 2; verification needed to buy, SPEC 6). */
export default function OptionDetailPage(): ReactElement {
  return <OptionTrade book="real" />;
}
