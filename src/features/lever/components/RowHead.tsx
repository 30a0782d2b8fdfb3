import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverOrderView } from '../../../../machines/lever/order.machine';
import type { LeverPosition } from '../../../../protocol/lever';

/** A row's first line: side, leverage and instrument (side in its colour and in words), margin mode, status. */
export function RowHead({
  position,
  labelKey,
}: {
  position: LeverPosition;
  labelKey: LeverOrderView['labelKey'];
}): ReactElement {
  const { t } = useTranslation();
  const long = position.direction === 'long';
  return (
    <div className="lever-row-head">
      <span className={long ? 'lever-up' : 'lever-down'}>
        {t('lever.row.title', {
          side: t(long ? 'lever.row.long' : 'lever.row.short'),
          leverage: position.leverage,
          symbol: position.symbol,
        })}
      </span>
      <span className="lever-badges">
        <span className="lever-badge">
          {t(position.margin_mode === 'isolated' ? 'lever.ticket.isolated' : 'lever.ticket.cross')}
        </span>
        {position.reversed_from ? (
          // Opened by a reverse (RULES "Reverse"): so a refused one in the history says what it was.
          <span className="lever-badge" data-testid="row-reversed">
            {t('lever.row.reversedFrom')}
          </span>
        ) : null}
        <span className={`lever-badge is-${position.phase}`} data-testid="row-phase">
          {t(labelKey)}
        </span>
      </span>
    </div>
  );
}
