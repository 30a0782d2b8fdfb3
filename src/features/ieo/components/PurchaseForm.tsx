import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyIeo } from '../../../../core/api/ieo';
import type { IeoProject } from '../../../../protocol/ieo';
import { toUnits } from '../../../../protocol/rules/spot';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { useSubmission } from '../../../data/submission';
import { useForm } from '../../../hooks/useForm';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../lib/amount-input';
import { formatUsdt } from '../../../lib/figures';
import { formatDateTime } from '../../../lib/format';
import { errorText } from '../../../lib/i18n';
import { toast } from '../../../state/toasts';
import { formatCoin, formatMoney } from '../format';
import { ieoKeys } from '../keys';
import { checkQuantity, fullCost } from '../terms';

/**
 * The subscription to an open project (publication/purchase): a quantity of the coin (at most 8 decimals, at most
 * the cap), what it would cost if all of it were allotted, and Subscribe. Nothing is charged now. One request id per
 * subscription, kept while the same one is retried, so a lost answer never subscribes twice.
 */
export function PurchaseForm({ project: p }: { project: IeoProject }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const client = useQueryClient();
  const submission = useSubmission();
  const form = useForm({ quantity: '' });
  const [refusal, setRefusal] = useState<string | null>(null);

  const exact = wireAmount(form.values.quantity, lang);
  // The preview follows every keystroke that is a quantity of the coin, even one above the cap.
  const typedUnits = /^\d+(\.\d+)?$/.test(exact) ? toUnits(exact, p.scale) : null;
  const previewUnits = typedUnits !== null && typedUnits > 0n ? typedUnits : null;
  const bound = form.bind('quantity', { map: amountKeystrokes });
  const quantityField = {
    ...bound,
    onValue: (v: string) => {
      bound.onValue(v);
      setRefusal(null);
    },
  };

  const fillCap = () => {
    form.set('quantity', editableAmount(p.user_cap, lang, p.scale));
    setRefusal(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setRefusal(null);
    const checked = checkQuantity(exact, p);
    if (!checked.ok) {
      form.setErrors({ quantity: errorText(checked.problem) });
      return;
    }
    const body = {
      project_id: String(p.id),
      quantity: exact.trim(),
      request_id: submission.requestId([p.id, exact.trim()]),
    };
    const r = await form.submitWith(applyIeo.bind(null, body));
    if (!r.ok) {
      // A quantity refusal shows under the field (submitWith put it there); the rest beside the button.
      if (r.field !== 'quantity') setRefusal(r.message);
      if (r.answered) void client.invalidateQueries({ queryKey: ieoKeys.detail(p.id) });
      return;
    }
    submission.accepted();
    void client.invalidateQueries({ queryKey: ieoKeys.all });
    toast(t('ieo.purchase.done'), 'success');
    void navigate({ to: '/pages/assets/ieo/orderDetail', search: { id: r.order.id } });
  };

  return (
    <form className="form ieo-form" onSubmit={submit} noValidate>
      <Field
        label={t('ieo.purchase.quantity', { coin: p.coin })}
        {...quantityField}
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('ieo.purchase.placeholder', { cap: formatCoin(p.user_cap, lang) })}
        hint={t('ieo.purchase.hint', { cap: formatCoin(p.user_cap, lang), coin: p.coin })}
        end={
          <span className="transfer-amount-end">
            <span className="muted">{p.coin}</span>
            <button type="button" className="code-btn" onClick={fillCap}>
              {t('ieo.purchase.max')}
            </button>
          </span>
        }
        data-testid="ieo-quantity"
      />
      <section className="card ieo-preview" aria-live="polite" data-testid="ieo-preview">
        <dl className="kv ieo-kv">
          <dt>{t('ieo.project.ieoPrice')}</dt>
          <dd>{formatMoney(p.ieo_price, lang)} USDT</dd>
          <dt>{t('ieo.purchase.cost')}</dt>
          <dd data-testid="ieo-cost">{previewUnits === null ? '–' : formatUsdt(fullCost(previewUnits, p), lang)}</dd>
        </dl>
        <p className="ieo-muted ieo-flat">{t('ieo.purchase.costNote', { time: formatDateTime(p.pay_until, lang) })}</p>
      </section>
      <div className="ieo-submit">
        {refusal ? (
          <p className="field-msg field-error ieo-refusal" role="alert" data-testid="ieo-refusal">
            {refusal}
          </p>
        ) : null}
        <Button type="submit" block busy={form.busy} data-testid="ieo-submit">
          {t('ieo.purchase.submit')}
        </Button>
      </div>
    </form>
  );
}
