import type { ReactElement } from 'react';
import { formatChange } from '../../../lib/format';
import { changeClass, changeDirection } from '../live/change';

/** A 24 h change in percent, green when up and red when down (theme colours); signed, so not by colour alone. */
export function Change({ pct, lang, filled }: { pct: string; lang: string; filled?: boolean }): ReactElement {
  return <span className={changeClass(changeDirection(pct), filled)}>{formatChange(pct, lang)}</span>;
}
