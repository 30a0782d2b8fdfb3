import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useEffect, useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { createAlert } from '../../../../core/api/alerts';
import { pollQuotes, pollStockQuotes } from '../../../../core/api/market';
import { ALERT_SIDES, type AlertSide } from '../../../../protocol/alerts';
import type { InstrumentKind } from '../../../../protocol/market';
import { Button } from '../../../components/Button';
import { ChoiceChips } from '../../../components/ChoiceChips';
import { Dialog } from '../../../components/Dialog';
import { Field } from '../../../components/Field';
import { need } from '../../../data/query';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../lib/amount-input';
import { formatPrice } from '../../../lib/format';
import { toast } from '../../../state/toasts';
import { conditionText } from '../format';
import { useInstrument } from '../instruments';
import { alertKeys, alertsQuery } from '../notice';

/** How often the sheet asks for the last price while it is open. */
const PRICE_POLL_MS = 2_000;

/**
 * The last price of `symbol`, asked for over HTTP while the sheet is open: a reference for choosing a level, and the
 * price field's first value. Not the live quote streams: the sheet would pull them out of the chunk the trading
 * pages share, and every one of those routes would pay for the seam.
 */
function useLastPrice(symbol: string, kind: InstrumentKind | undefined): string | undefined {
  const quotes = useQuery({
    queryKey: ['alerts', 'quotes', kind],
    queryFn: () => need(kind === 'stock' ? pollStockQuotes() : pollQuotes()),
    enabled: kind !== undefined,
    refetchInterval: PRICE_POLL_MS,
  });
  return quotes.data?.find((q) => q.symbol === symbol)?.last;
}

/**
 * Browsers ask for permission to notify only from a user's gesture: this runs inside the tap that sets the user's
 * first alert, and never asks again once the user has answered.
 */
function askToNotify(): void {
  if ('Notification' in window && Notification.permission === 'default') {
    void Notification.requestPermission().catch(() => undefined);
  }
}

/**
 * The sheet that sets a price alert on one instrument: the side and the price, which starts at the last price. Either
 * side of the current price is accepted (RULES "Price alerts": on the wrong side it fires on the next tick). A
 * refusal is shown under the price in the server's words.
 */
export function AlertSheet({ symbol, onClose }: { symbol: string; onClose: () => void }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const client = useQueryClient();
  const info = useInstrument(symbol);
  const last = useLastPrice(symbol, info?.kind);
  const alerts = useQuery(alertsQuery);
  const [side, setSide] = useState<AlertSide>('above');
  const [price, setPrice] = useState('');
  const [typed, setTyped] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const quote = info?.quote ?? 'USDT';

  // The price starts at the last one, until the user types their own.
  useEffect(() => {
    if (!typed && last !== undefined && info) setPrice(editableAmount(last, lang, info.price_scale));
  }, [typed, last, info, lang]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (alerts.data?.length === 0) askToNotify();
    setBusy(true);
    const result = await createAlert(symbol, side, wireAmount(price, lang));
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    void client.invalidateQueries({ queryKey: alertKeys.list });
    toast(t('alerts.sheet.set', { symbol, condition: conditionText(t, result.alert, lang) }), 'success');
    onClose();
  };

  // On the body: a list row that opens it (content-visibility, containment) would otherwise hold the fixed layer.
  return createPortal(
    <Dialog
      open
      title={t('alerts.sheet.title', { symbol: `${symbol}/${quote}` })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} busy={busy} data-testid="alert-submit">
            {t('alerts.sheet.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} className="alert-form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="alert-now">
          <span>{t('alerts.sheet.current')}</span>
          <strong data-testid="alert-last">
            {last !== undefined && info ? `${formatPrice(last, lang, info.price_scale)} ${quote}` : '–'}
          </strong>
        </p>
        <p className="field-label">{t('alerts.sheet.side')}</p>
        <ChoiceChips
          choices={ALERT_SIDES}
          value={side}
          onChange={setSide}
          label={t('alerts.sheet.side')}
          text={(s) => t(`alerts.side.${s}`)}
          testId={(s) => `alert-side-${s}`}
        />
        <Field
          label={t('alerts.sheet.price', { quote })}
          value={price}
          onValue={(v) => {
            setTyped(true);
            setError(undefined);
            setPrice(amountKeystrokes(v));
          }}
          error={error}
          inputMode="decimal"
          autoComplete="off"
          data-testid="alert-price"
        />
        <p className="note">{t('alerts.sheet.note')}</p>
      </form>
    </Dialog>,
    document.body,
  );
}
