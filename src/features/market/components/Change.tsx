import type { ReactElement } from 'react';
import { toDecimal } from '../../../../core/money';
import { formatChange } from '../../../lib/format';

/** A 24 h change in percent, green when up and red when down (theme colours). */
export function Change({ pct, lang, filled }: { pct: string; lang: string; filled?: boolean }): ReactElement {
  const d = toDecimal(pct);
  const dir = d?.gt(0) ? 'up' : d?.lt(0) ? 'down' : 'flat';
  return <span className={`change change-${dir}${filled ? ' change-filled' : ''}`}>{formatChange(pct, lang)}</span>;
}
