import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAssets, transferBetweenAccounts } from '../../../../../../core/api/wallet';
import { compareDecimalText, isDecimalText } from '../../../../../../core/decimal-text';
import { fromUnits, toUnits } from '../../../../../../protocol/rules/spot';
import {
  ACCOUNT_TYPES,
  type AccountType,
  amountProblem,
  isAccountType,
  type TransferReceipt,
  transferRequest,
} from '../../../../../../protocol/wallet';
import { formatBalance, typeName } from '../../../../../components/assets/format';
import { SelectField } from '../../../../../components/assets/SelectField';
import { Button } from '../../../../../components/Button';
import { Field } from '../../../../../components/Field';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { keys } from '../../../../../data/keys';
import { need } from '../../../../../data/query';
import { useSubmission } from '../../../../../data/submission';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useForm } from '../../../../../hooks/useForm';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../../../lib/amount-input';
import { errorText } from '../../../../../lib/i18n';
import { toast } from '../../../../../state/toasts';
import { Amount } from '../../../components/Amount';
import '../../../wallet.css';
import { formatBalanceOf } from '../../../../../lib/figures';

/** How much of the available balance stays behind cross positions (exact, as text), or null when nothing does. */
function backedAmount(available: string, transferable: string, scale: number): string | null {
  const all = toUnits(available, scale);
  const free = toUnits(transferable, scale);
  return all === null || free === null || free >= all ? null : fromUnits(all - free, scale);
}

function RecordLink(): ReactElement {
  const { t } = useTranslation();
  return (
    <Link to="/pages/assets/transfer/record" className="icon-btn" aria-label={t('assets.transfer.recordTitle')}>
      <Icon name="clock" />
    </Link>
  );
}

/**
 * Transfer between account types (assets/transfer/index). Each submission gets one client request id, kept while
 * the same transfer is retried (a lost answer, a timeout) and replaced when anything in the form changes, so the
 * server applies it once however often it is sent.
 */
export default function TransferPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const qFrom = useQueryParam('from') ?? '';
  const qTo = useQueryParam('to') ?? '';
  const qCurrency = (useQueryParam('currency') ?? '').toUpperCase();
  const form = useForm(() => {
    const from: AccountType = isAccountType(qFrom) ? qFrom : 'coin';
    const to: AccountType = isAccountType(qTo) && qTo !== from ? qTo : from === 'contract' ? 'coin' : 'contract';
    return { currency: qCurrency || 'USDT', from, to, amount: '' };
  });
  const client = useQueryClient();
  const list = useQuery({ queryKey: keys.assets(), queryFn: () => need(fetchAssets()) }).data;
  const [receipt, setReceipt] = useState<TransferReceipt | null>(null);
  const submission = useSubmission();

  const { currency, from, to, amount } = form.values;
  const { patch } = form;
  // A currency from the link that the ledger does not keep falls back to USDT once the list is known.
  useEffect(() => {
    if (list && !list.accounts[0]?.rows.some((r) => r.currency === currency)) patch({ currency: 'USDT' });
  }, [list, currency, patch]);
  const rowOf = (type: AccountType) =>
    list?.accounts.find((a) => a.type === type)?.rows.find((r) => r.currency === currency);
  const fromRow = rowOf(from);
  const toRow = rowOf(to);
  // What may leave: out of the contract account the server keeps back what backs cross positions (RULES "Cross
  // margin"); everywhere else it is the available balance. The transfer itself is judged again at its own marks.
  const leaving = fromRow?.transferable ?? fromRow?.available;
  const backing = fromRow ? backedAmount(fromRow.available, fromRow.transferable, fromRow.scale) : null;
  const currencies = list?.accounts[0]?.rows.map((r) => r.currency) ?? [currency];
  const typeOptions = ACCOUNT_TYPES.map((v) => ({ value: v, label: t(typeName(v)) }));

  const pick = (side: 'from' | 'to', value: AccountType) => {
    const other = side === 'from' ? to : from;
    // Picking the other side's account swaps the two instead of making an impossible pair.
    form.patch(value === other ? { from: to, to: from } : { [side]: value });
    form.clear('from');
    form.clear('to');
    setReceipt(null);
  };
  const swap = () => {
    form.patch({ from: to, to: from });
    form.clear('amount');
    setReceipt(null);
  };
  const fillAll = () => {
    if (fromRow && leaving !== undefined) form.set('amount', editableAmount(leaving, lang, fromRow.scale));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const exact = wireAmount(amount, lang);
    const request_id = submission.requestId([currency, from, to, exact]);
    const body = { currency, from, to, amount: exact, request_id };
    if (!form.validate(transferRequest, body)) return;
    if (fromRow) {
      const exceeds =
        isDecimalText(body.amount) && isDecimalText(fromRow.available)
          ? compareDecimalText(body.amount, fromRow.available) > 0
          : false;
      const problem = amountProblem(body.amount, fromRow.scale) ?? (exceeds ? 'insufficientBalance' : null);
      if (problem) {
        form.setErrors({ amount: errorText(problem) });
        return;
      }
    }
    const r = await form.submitWith(() => transferBetweenAccounts(body));
    // A failure keeps the id: sending the same transfer again is a retry of this one.
    if (!r.ok) return;
    submission.accepted();
    setReceipt(r.data);
    form.patch({ amount: '' });
    toast(t('assets.transfer.success'), 'success');
    // Balances, both account lists and the histories changed.
    await client.invalidateQueries({ queryKey: keys.wallet });
  };

  return (
    <Page title={t('assets.transfer.title')} right={<RecordLink />}>
      <form className="form transfer-form" onSubmit={submit} noValidate>
        <div className="card transfer-route">
          <div className="transfer-sides">
            <SelectField
              label={t('assets.transfer.from')}
              value={from}
              options={typeOptions}
              onValue={(v) => pick('from', v)}
              error={form.errors.from}
              testId="transfer-from"
            />
            <SelectField
              label={t('assets.transfer.to')}
              value={to}
              options={typeOptions}
              onValue={(v) => pick('to', v)}
              error={form.errors.to}
              testId="transfer-to"
            />
          </div>
          <button
            type="button"
            className="transfer-swap"
            onClick={swap}
            aria-label={t('assets.transfer.swap')}
            data-testid="transfer-swap"
          >
            <Icon name="sort" size={20} />
          </button>
        </div>

        <SelectField
          label={t('assets.transfer.currency')}
          value={currency}
          options={currencies.map((c) => ({ value: c, label: c }))}
          onValue={(v) => {
            form.set('currency', v);
            form.clear('amount');
            setReceipt(null);
          }}
          error={form.errors.currency}
          testId="transfer-currency"
        />

        <Field
          label={t('assets.transfer.amount')}
          {...form.bind('amount', { map: amountKeystrokes })}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('assets.transfer.amountPlaceholder')}
          hint={
            fromRow && leaving !== undefined
              ? t('assets.transfer.available', {
                  amount: formatBalanceOf(leaving, currency, lang, fromRow.scale),
                  currency,
                })
              : undefined
          }
          end={
            <span className="transfer-amount-end">
              <span className="muted">{currency}</span>
              <button type="button" className="code-btn" onClick={fillAll} disabled={!fromRow}>
                {t('assets.transfer.all')}
              </button>
            </span>
          }
        />

        {fromRow && backing !== null ? (
          <p className="muted transfer-backing" data-testid="transfer-backing">
            {t('assets.transfer.backing', {
              amount: formatBalanceOf(backing, currency, lang, fromRow.scale),
              currency,
            })}
          </p>
        ) : null}

        {fromRow && toRow ? (
          <dl className="kv transfer-balances" data-testid="transfer-balances">
            <dt>{t(typeName(from))}</dt>
            <dd>
              <Amount text={`${formatBalanceOf(fromRow.available, currency, lang, fromRow.scale)} ${currency}`} />
            </dd>
            <dt>{t(typeName(to))}</dt>
            <dd>
              <Amount text={`${formatBalanceOf(toRow.available, currency, lang, toRow.scale)} ${currency}`} />
            </dd>
          </dl>
        ) : null}

        <Button type="submit" block busy={form.busy}>
          {t('assets.transfer.submit')}
        </Button>

        {receipt ? (
          <div className="note note-info transfer-done" role="status" data-testid="transfer-receipt">
            <Icon name="check" size={18} />
            <p>
              {t('assets.transfer.moved', {
                amount: formatBalance(receipt.amount, lang),
                currency: receipt.currency,
                from: t(typeName(receipt.from.type)),
                to: t(typeName(receipt.to.type)),
              })}
            </p>
          </div>
        ) : null}
        <p className="muted transfer-note">{t('assets.transfer.note')}</p>
      </form>
    </Page>
  );
}
