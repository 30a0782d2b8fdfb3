import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverAccount, LeverInstrument } from '../../../../protocol/lever';
import { formatPrice } from '../../../lib/format';
import { formatUsdt } from '../format';
import { type LeverTicket, ticketEstimate } from '../ticket';

/**
 * What confirming would hold, before it is confirmed: the margin and the open fee at the limit or last price under
 * the published rules (the only lever math on the main thread: one position, on input), an isolated position's
 * liquidation price, and the available balance of the book.
 */
export function TicketEstimate({
  ticket,
  instrument,
  quoteScale,
  last,
  available,
  book,
}: {
  ticket: LeverTicket;
  instrument: LeverInstrument;
  quoteScale: number;
  last: string | null;
  available: string;
  book: LeverAccount;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const estimate = ticketEstimate(ticket, instrument, quoteScale, last);
  const amount = (v: string | undefined) => (v === undefined ? t('lever.ticket.none') : formatUsdt(v, lang));
  return (
    <div className="lever-estimate" data-testid="ticket-estimate">
      <p className="lever-estimate-title">
        {t('lever.ticket.estimate')}
        {estimate ? (
          <span className="lever-muted">
            {' '}
            {t('lever.ticket.atPrice', {
              which: t(estimate.at === 'limit' ? 'lever.ticket.whichLimit' : 'lever.ticket.whichLast'),
              price: formatPrice(estimate.price, lang, instrument.price_scale),
            })}
          </span>
        ) : null}
      </p>
      <dl className="lever-facts-list">
        <div>
          <dt>{t('lever.ticket.margin')}</dt>
          <dd data-testid="estimate-margin">{amount(estimate?.margin)}</dd>
        </div>
        <div>
          <dt>{t('lever.ticket.fee')}</dt>
          <dd data-testid="estimate-fee">{amount(estimate?.fee)}</dd>
        </div>
        <div>
          <dt>{t('lever.ticket.total')}</dt>
          <dd data-testid="estimate-total">{amount(estimate?.total)}</dd>
        </div>
        {ticket.marginMode === 'isolated' ? (
          <div>
            <dt>{t('lever.ticket.liquidation')}</dt>
            <dd data-testid="estimate-liquidation">
              {estimate?.liquidationPrice
                ? formatPrice(estimate.liquidationPrice, lang, instrument.price_scale)
                : t('lever.ticket.none')}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t(book === 'simulator' ? 'lever.ticket.availablePractice' : 'lever.ticket.available')}</dt>
          <dd data-testid="ticket-available">{amount(available)}</dd>
        </div>
      </dl>
      {ticket.type === 'market' ? <p className="lever-muted">{t('lever.ticket.reserveNote')}</p> : null}
    </div>
  );
}
