import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Buy and sell from the chart: each opens the spot ticket for the coin with its side chosen
 * (trade/index?symbol=…&side=…). Pinned at the bottom, in reach while the page scrolls.
 */
export function TradeFromChart({ symbol }: { symbol: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="kline-trade bottom-action">
      {(['buy', 'sell'] as const).map((side) => (
        <Link
          key={side}
          to="/pages/trade/index"
          search={{ symbol, side }}
          className={`btn kline-${side}`}
          data-testid={`kline-${side}`}
        >
          {t(side === 'buy' ? 'kline.buyCoin' : 'kline.sellCoin', { symbol })}
        </Link>
      ))}
    </div>
  );
}
