import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buyFinanceProduct } from '../../../../core/api/finance';
import { serverNow } from '../../../../core/clock';
import { type FinanceFamily, type FinanceProductInfo, financeBuyRequest } from '../../../../protocol/finance';
import { fromUnits, toUnits } from '../../../../protocol/rules/spot';
import { Button } from '../../../components/Button';
import { Checkbox } from '../../../components/Controls';
import { Field } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import { keys } from '../../../data/keys';
import { useSubmission } from '../../../data/submission';
import { translateErrors, useForm } from '../../../hooks/useForm';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../lib/amount-input';
import { errorText } from '../../../lib/i18n';
import { check } from '../../../lib/validation';
import { toast } from '../../../state/toasts';
import { formatAmount, formatUnits } from '../format';
import { financeKeys } from '../keys';
import { checkAmount, maxAmountUnits, unitsOf } from '../terms';
import { BuyPreview } from './BuyPreview';

/**
 * The purchase of one product (SPEC 5 "Finance buy"): amount (exact, at most the currency's decimals, between the
 * minimum and what the product can take now), the trust balance it is paid from, the live preview and the agreement.
 * One request id per purchase, kept while the same purchase is retried, so a lost answer never buys twice.
 */
export function BuyForm({ family, info }: { family: FinanceFamily; info: FinanceProductInfo }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const client = useQueryClient();
  const submission = useSubmission();
  const form = useForm({ amount: '', agree: false });
  const [refusal, setRefusal] = useState<string | null>(null);
  const { product, available } = info;
  const { scale, currency } = product;

  const exact = wireAmount(form.values.amount, lang);
  // The preview follows every keystroke that is a number of the currency, even one outside the limits.
  const typedUnits = /^\d+(\.\d+)?$/.test(exact) ? toUnits(exact, scale) : null;
  const availableUnits = unitsOf(available, scale);
  const short = availableUnits < unitsOf(product.min_amount, scale) || (typedUnits ?? 0n) > availableUnits;
  const largest = maxAmountUnits(product);
  const money = (v: string) => `${formatAmount(v, lang, scale, currency)} ${currency}`;

  const bound = form.bind('amount', { map: amountKeystrokes });
  // A refusal beside the button was about the amount sent: a new amount makes it old news.
  const amountField = {
    ...bound,
    onValue: (v: string) => {
      bound.onValue(v);
      setRefusal(null);
    },
  };

  const fillMax = () => {
    const most = availableUnits < largest ? availableUnits : largest;
    form.set('amount', editableAmount(fromUnits(most, scale), lang, scale));
    setRefusal(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setRefusal(null);
    const body = {
      product_id: String(product.id),
      amount: exact,
      agree: form.values.agree ? '1' : '',
      request_id: submission.requestId([family, product.id, exact]),
    };
    // The protocol's own checks first (the server's order), then the product's limits and the balance.
    const checked = check(financeBuyRequest, body);
    const shown = checked.ok ? {} : translateErrors(checked.errors);
    if (!shown.amount) {
      const amount = checkAmount(exact, product, available);
      if (!amount.ok) shown.amount = errorText(amount.problem);
    }
    if (shown.amount || shown.agree) {
      form.setErrors({ amount: shown.amount, agree: shown.agree });
      return;
    }
    // The checks above leave the server only refusals that depend on the moment (balance, reserve, sale stopped):
    // they are shown beside the button, whatever field they name.
    const r = await form.submitWith(async () => {
      const answer = await buyFinanceProduct(family, body);
      return answer.ok ? answer : { ...answer, field: undefined };
    });
    if (!r.ok) {
      // The same purchase sent again keeps its id (core/submission.ts); a refusal may mean the balance or the
      // capacity moved, so the product and the balance are fetched again.
      setRefusal(r.message);
      if (r.answered) void client.invalidateQueries({ queryKey: financeKeys.product(family, product.id) });
      return;
    }
    submission.accepted();
    // Capacity, the report, the order lists and the trust balance all changed.
    void client.invalidateQueries({ queryKey: financeKeys.all });
    void client.invalidateQueries({ queryKey: keys.assetLists });
    toast(t('finance.buy.done'), 'success');
    void navigate({ to: '/pages/finance/ordersPage', search: { family } });
  };

  return (
    <form className="form finance-form" onSubmit={submit} noValidate>
      <Field
        label={t('finance.buy.amount', { currency })}
        {...amountField}
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('finance.buy.amountPlaceholder', { min: formatAmount(product.min_amount, lang, scale) })}
        hint={t('finance.buy.limits', {
          min: formatAmount(product.min_amount, lang, scale),
          max: formatUnits(largest, lang, scale),
          currency,
        })}
        end={
          <span className="transfer-amount-end">
            <span className="muted">{currency}</span>
            <button type="button" className="code-btn" onClick={fillMax} disabled={product.sold_out}>
              {t('finance.buy.max')}
            </button>
          </span>
        }
        data-testid="finance-amount"
      />
      <p className="finance-available" data-testid="finance-available">
        {t('finance.buy.available', { amount: money(available) })}
      </p>
      {short ? (
        <div className="note finance-short" data-testid="finance-short">
          <Icon name="info" size={18} />
          <div>
            <p className="finance-flat">{t('finance.buy.short')}</p>
            <Link to="/pages/assets/transfer/index" search={{ to: 'trust', currency }} className="finance-link">
              {t('finance.buy.transfer')}
            </Link>
          </div>
        </div>
      ) : null}
      <BuyPreview product={product} units={typedUnits} now={serverNow()} />
      <Checkbox
        checked={form.values.agree}
        onChange={(v) => {
          form.set('agree', v);
          setRefusal(null);
        }}
        error={form.errors.agree}
      >
        {t('finance.buy.agree')}
      </Checkbox>
      <Link to="/pages/finance/rulePage" className="finance-link finance-agree-link">
        {t('finance.buy.readRules')}
      </Link>
      <div className="finance-submit">
        {refusal ? (
          <p className="field-msg field-error finance-refusal" role="alert" data-testid="finance-refusal">
            {refusal}
          </p>
        ) : null}
        <Button type="submit" block busy={form.busy} disabled={product.sold_out} data-testid="finance-submit">
          {product.sold_out ? t('finance.product.soldOut') : t('finance.buy.submit')}
        </Button>
      </div>
    </form>
  );
}
