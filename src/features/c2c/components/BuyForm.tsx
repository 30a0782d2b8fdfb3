import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addC2cOrder } from '../../../../core/api/c2c';
import { C2C_PAY_WINDOW_MS, type C2cAd, type C2cPayType } from '../../../../protocol/c2c';
import { fromUnits } from '../../../../protocol/rules/spot';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { Segmented } from '../../../components/Segmented';
import { useSubmission } from '../../../data/submission';
import { useForm } from '../../../hooks/useForm';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../lib/amount-input';
import { errorText } from '../../../lib/i18n';
import { toast } from '../../../state/toasts';
import { formatC2cPrice, formatCoin, formatFiat } from '../format';
import { c2cKeys } from '../keys';
import { checkFiat, checkQuantity, maxQuantity, type OrderCheck } from '../terms';

type Mode = 'fiat' | 'quantity';

/**
 * Ordering from an ad (assets/c2c/buy): what to spend in the ad's fiat currency, or how many coins, typed in the
 * user's own number format; the quantity and the exact total by the published rule (quantity × price rounded up to
 * the cent, what the server will charge); the payment method; and Buy. One request id per order, kept while the same
 * order is retried, so a lost answer never orders twice. `onOrderOpen`: the server refused because the user already has
 * an open order on this ad.
 */
export function BuyForm({ ad, onOrderOpen }: { ad: C2cAd; onOrderOpen?: () => void }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const client = useQueryClient();
  const submission = useSubmission();
  const [mode, setMode] = useState<Mode>('fiat');
  const [payType, setPayType] = useState<C2cPayType | null>(
    ad.pay_types.length === 1 ? (ad.pay_types[0] ?? null) : null,
  );
  const [payError, setPayError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm({ amount: '' });

  const exact = wireAmount(form.values.amount, lang);
  const check: OrderCheck = mode === 'fiat' ? checkFiat(exact, ad) : checkQuantity(exact, ad);
  // The preview follows every keystroke that reads as an amount, even one outside the limits.
  const figures = check.ok ? check : (check.figures ?? null);
  const bound = form.bind('amount', { map: amountKeystrokes });
  const amountField = {
    ...bound,
    onValue: (v: string) => {
      bound.onValue(v);
      setRefusal(null);
    },
  };

  const switchMode = (next: Mode) => {
    if (next === mode) return;
    // Keep what was typed meaningful: carry the figure over into the other unit.
    form.set(
      'amount',
      figures
        ? editableAmount(next === 'fiat' ? figures.amount : figures.quantity, lang, next === 'fiat' ? 2 : ad.scale)
        : '',
    );
    setMode(next);
    setRefusal(null);
  };

  const fillMax = () => {
    const most = maxQuantity(ad);
    if (mode === 'quantity') form.set('amount', editableAmount(fromUnits(most, ad.scale), lang, ad.scale));
    else {
      const c = checkQuantity(fromUnits(most, ad.scale), ad);
      if (c.ok) form.set('amount', editableAmount(c.amount, lang, 2));
    }
    setRefusal(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setRefusal(null);
    if (!check.ok) {
      form.setErrors({ amount: errorText(check.problem) });
      if (!payType) setPayError(errorText('c2cPayTypeInvalid'));
      return;
    }
    if (!payType) {
      setPayError(errorText('c2cPayTypeInvalid'));
      return;
    }
    const body = {
      ad_id: String(ad.id),
      quantity: check.quantity,
      pay_type: payType,
      request_id: submission.requestId([ad.id, check.quantity, payType]),
    };
    const r = await form.submitWith(async () => {
      const answer = await addC2cOrder(body);
      // A refusal of the quantity shows under the amount field.
      return answer.ok || answer.field !== 'quantity' ? answer : { ...answer, field: 'amount' };
    });
    if (!r.ok) {
      if (r.field !== 'amount') setRefusal(r.message);
      if (r.answered) void client.invalidateQueries({ queryKey: c2cKeys.ad(ad.id) });
      if (r.reason === 'c2cOrderOpen') onOrderOpen?.();
      return;
    }
    submission.accepted();
    void client.invalidateQueries({ queryKey: c2cKeys.all });
    toast(t('c2c.buy.done'), 'success');
    void navigate({ to: '/pages/assets/c2c/orderDetail', search: { id: r.order.id } });
  };

  const unit = mode === 'fiat' ? ad.fiat : ad.coin;
  return (
    <form className="form c2c-form" onSubmit={submit} noValidate>
      <Segmented<Mode>
        label={t('c2c.buy.mode')}
        value={mode}
        options={[
          { value: 'fiat', label: t('c2c.buy.byFiat', { fiat: ad.fiat }) },
          { value: 'quantity', label: t('c2c.buy.byQuantity', { coin: ad.coin }) },
        ]}
        onChange={switchMode}
      />
      <Field
        label={mode === 'fiat' ? t('c2c.buy.fiatAmount', { fiat: ad.fiat }) : t('c2c.buy.quantity', { coin: ad.coin })}
        {...amountField}
        inputMode="decimal"
        autoComplete="off"
        placeholder={
          mode === 'fiat'
            ? t('c2c.buy.fiatPlaceholder', { min: formatFiat(ad.min_fiat, lang), max: formatFiat(ad.max_fiat, lang) })
            : t('c2c.buy.quantityPlaceholder')
        }
        hint={t('c2c.buy.limits', {
          min: formatFiat(ad.min_fiat, lang),
          max: formatFiat(ad.max_fiat, lang),
          fiat: ad.fiat,
        })}
        end={
          <span className="transfer-amount-end">
            <span className="muted">{unit}</span>
            <button type="button" className="code-btn" onClick={fillMax} data-testid="c2c-max">
              {t('c2c.buy.max')}
            </button>
          </span>
        }
        data-testid="c2c-amount-input"
      />
      <section className="card c2c-preview" aria-live="polite" data-testid="c2c-preview">
        <dl className="kv c2c-kv">
          <dt>{t('c2c.ad.price')}</dt>
          <dd>
            {formatC2cPrice(ad.price, lang)} {ad.fiat}
          </dd>
          <dt>{t('c2c.buy.youGet')}</dt>
          <dd data-testid="c2c-get">{figures ? `${formatCoin(figures.quantity, lang, ad.scale)} ${ad.coin}` : '–'}</dd>
        </dl>
        <p className="c2c-total">
          <span className="c2c-figure-label">{t('c2c.buy.youPay')}</span>
          <span className="c2c-big" data-testid="c2c-total">
            {figures ? `${formatFiat(figures.amount, lang)} ${ad.fiat}` : '–'}
          </span>
        </p>
        <p className="c2c-muted-text c2c-flat">{t('c2c.buy.totalRule')}</p>
      </section>
      <fieldset className="c2c-paytype-choice" aria-describedby={payError ? 'c2c-paytype-msg' : undefined}>
        <legend className="field-label">{t('c2c.buy.payWith')}</legend>
        <ul className="list">
          {ad.pay_types.map((type) => (
            <li key={type}>
              <label className="list-item is-action">
                <span className="list-text">
                  <span className="list-label">{t(`c2c.payType.${type}`)}</span>
                </span>
                <input
                  type="radio"
                  className="radio"
                  name="c2c-pay-type"
                  value={type}
                  checked={payType === type}
                  onChange={() => {
                    setPayType(type);
                    setPayError(null);
                  }}
                  data-testid={`c2c-paytype-${type}`}
                />
              </label>
            </li>
          ))}
        </ul>
        {payError ? (
          <p className="field-msg field-error" id="c2c-paytype-msg" role="alert">
            {payError}
          </p>
        ) : null}
      </fieldset>
      <p className="c2c-window-note">{t('c2c.buy.windowNote', { minutes: C2C_PAY_WINDOW_MS / 60_000 })}</p>
      <div className="c2c-submit">
        {refusal ? (
          <p className="field-msg field-error c2c-refusal" role="alert" data-testid="c2c-refusal">
            {refusal}
          </p>
        ) : null}
        <Button type="submit" block busy={form.busy} data-testid="c2c-submit">
          {t('c2c.buy.submit', { coin: ad.coin })}
        </Button>
      </div>
    </form>
  );
}
