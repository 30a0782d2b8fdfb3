import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchWithdrawalCurrencies, fetchWithdrawInfo, submitWithdrawal } from '../../../../../../core/api/funding';
import { toDecimal, truncatedString } from '../../../../../../core/money';
import { type Chain, type ChainCoin, isChainCoin } from '../../../../../../protocol/chains';
import { withdrawRequest } from '../../../../../../protocol/funding';
import { amountProblem } from '../../../../../../protocol/wallet';
import { formatBalance } from '../../../../../components/assets/format';
import { SelectField } from '../../../../../components/assets/SelectField';
import { Button } from '../../../../../components/Button';
import { Field, PasswordField } from '../../../../../components/Field';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { useSubmission } from '../../../../../data/submission';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useForm } from '../../../../../hooks/useForm';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../../../lib/amount-input';
import { errorText } from '../../../../../lib/i18n';
import { picks } from '../../../../../state/picks';
import { toast } from '../../../../../state/toasts';
import { RecordsLink } from '../../../components/RecordsLink';
import '../../../funding.css';

const sixDigits = (v: string) => v.replace(/[^\d]/g, '').slice(0, 6);

/** One of SPEC 6's prerequisites that is missing: its SPEC 8 message and the page that fixes it. */
function Gate({ message, to, action, search }: { message: string; to: string; action: string; search?: object }) {
  return (
    <div className="note funding-gate" role="alert" data-testid="withdraw-gate">
      <Icon name="alert" size={18} />
      <div>
        <p>{message}</p>
        <Link to={to} search={search} className="btn btn-secondary funding-gate-action">
          {action}
        </Link>
      </div>
    </div>
  );
}

/**
 * Withdraw (assets/withdraw/index): coin and chain, a saved address (picker), amount with "all", fee, what arrives and
 * when, fund password and remark. SPEC 6's three prerequisites are shown as gates with a way to fix each. Amount plus
 * fee is frozen until the withdrawal is reviewed.
 */
export default function WithdrawPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const rawCoin = (useQueryParam('coin') ?? '').toUpperCase();
  const { address: picked } = useSnapshot(picks);
  const form = useForm({
    coin: (isChainCoin(rawCoin) ? rawCoin : (picked?.coin ?? 'USDT')) as ChainCoin,
    chain: (picked?.chain ?? 'ERC20') as string,
    amount: '',
    fund_password: '',
    remark: '',
  });
  const { coin, amount, fund_password, remark } = form.values;
  const client = useQueryClient();
  const currencies = useQuery({
    queryKey: keys.withdrawalCurrencies,
    queryFn: () => need(fetchWithdrawalCurrencies()),
  });
  // Each coin has its own limits and balance; the form stays while another coin's load (account events refresh it).
  const info = useQuery({
    queryKey: keys.withdrawInfo(coin),
    queryFn: () => need(fetchWithdrawInfo(coin)),
    placeholderData: keepPreviousData,
  });
  const submission = useSubmission();

  const data = info.data?.coin === coin ? info.data : null;
  const chains = data?.chains ?? [];
  const chain: Chain = (chains as string[]).includes(form.values.chain)
    ? (form.values.chain as Chain)
    : (chains[0] ?? 'ERC20');
  const address = picked && picked.coin === coin && picked.chain === chain ? picked : null;

  const fee = toDecimal(data?.withdraw_fee ?? '0');
  const exact = wireAmount(amount, lang);
  const typed = exact && !amountProblem(exact, data?.scale ?? 8) ? toDecimal(exact) : null;
  const total = typed && fee ? typed.plus(fee) : null;
  const fillAll = () => {
    if (!data) return;
    const available = toDecimal(data.available);
    const all = available && fee ? available.minus(fee) : null;
    form.set('amount', all?.gt(0) ? editableAmount(truncatedString(all, data.scale), lang, data.scale) : '0');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!data) return;
    const body = {
      coin,
      chain,
      address_id: address ? String(address.id) : '',
      amount: wireAmount(amount, lang),
      fund_password,
      remark: remark.trim(),
    };
    const full = { ...body, request_id: submission.requestId({ ...body, fund_password: '' }) };
    if (!address) {
      form.setErrors({ address_id: errorText(data.has_address ? 'addressNotFound' : 'withdrawAddressFirst') });
      return;
    }
    if (!form.validate(withdrawRequest, full)) return;
    const problem =
      amountProblem(full.amount, data.scale) ??
      (toDecimal(full.amount)?.lt(toDecimal(data.min_withdraw) ?? 0) ? 'withdrawBelowMin' : null) ??
      (total?.gt(toDecimal(data.available) ?? 0) ? 'insufficientBalance' : null);
    if (problem) {
      form.setErrors({ amount: errorText(problem) });
      return;
    }
    const r = await form.submitWith(() => submitWithdrawal(full));
    if (!r.ok) return;
    submission.accepted();
    // The amount is frozen: balances, limits and the records changed.
    void client.invalidateQueries({ queryKey: keys.assetLists });
    void client.invalidateQueries({ queryKey: keys.withdrawInfo() });
    void client.invalidateQueries({ queryKey: keys.withdrawals });
    toast(t('funding.withdraw.done'), 'success');
    void navigate({ to: '/pages/assets/withdraw/detail', search: { id: r.data.id } });
  };

  const coins = currencies.data?.map((c) => c.coin) ?? [coin];
  return (
    <Page title={t('funding.withdraw.title')} right={<RecordsLink tab="withdrawals" />}>
      {!info.data ? (
        <LoadingOrFailed failed={loadFailed(info)} onRetry={() => void info.refetch()} />
      ) : (
        <form className="form funding" onSubmit={submit} noValidate>
          {data && !data.has_address ? (
            <Gate
              message={errorText('withdrawAddressFirst')}
              to="/pages/user/address/create"
              search={{ coin }}
              action={t('funding.withdraw.gateAddress')}
            />
          ) : null}
          {data && !data.has_fund_password ? (
            <Gate
              message={errorText('fundPasswordNotSet')}
              to="/pages/settings/security/changePayPassword"
              action={t('funding.withdraw.gateFund')}
            />
          ) : null}
          {data && !data.verified ? (
            <Gate
              message={errorText('realNameFirst')}
              to="/pages/verification/index"
              action={t('funding.withdraw.gateVerify')}
            />
          ) : null}
          <div className="funding-row">
            <SelectField
              label={t('funding.coin')}
              value={coin}
              options={coins.map((c) => ({ value: c, label: c }))}
              onValue={(v) => {
                form.set('coin', v);
                form.clear('amount');
              }}
              testId="withdraw-coin"
            />
            <SelectField
              label={t('funding.chain')}
              value={chain}
              options={chains.map((c) => ({ value: c, label: c }))}
              onValue={(v) => form.set('chain', v)}
              error={form.errors.chain}
              testId="withdraw-chain"
            />
          </div>
          <Link
            to="/pages/user/address/address"
            search={{ coin }}
            className={`funding-pick card${form.errors.address_id ? ' has-error' : ''}`}
            data-testid="withdraw-address"
          >
            <span className="funding-pick-label">{t('funding.withdraw.address')}</span>
            <span className="funding-pick-value">
              {address ? <code>{address.address}</code> : t('funding.withdraw.chooseAddress')}
            </span>
            <Icon name="chevron" size={16} />
            {form.errors.address_id ? (
              <span className="field-msg field-error" role="alert">
                {form.errors.address_id}
              </span>
            ) : null}
          </Link>
          <Field
            label={t('funding.fields.amount')}
            {...form.bind('amount', { map: amountKeystrokes })}
            inputMode="decimal"
            autoComplete="off"
            placeholder={
              data ? t('funding.withdraw.minPlaceholder', { min: formatBalance(data.min_withdraw, lang) }) : undefined
            }
            hint={
              data
                ? t('funding.withdraw.available', { amount: formatBalance(data.available, lang, data.scale), coin })
                : undefined
            }
            end={
              <span className="transfer-amount-end">
                <span className="muted">{coin}</span>
                <button type="button" className="code-btn" onClick={fillAll} disabled={!data}>
                  {t('funding.withdraw.all')}
                </button>
              </span>
            }
            data-testid="withdraw-amount"
          />
          {data ? (
            <dl className="kv card funding-summary" data-testid="withdraw-summary">
              <dt>{t('funding.fields.fee')}</dt>
              <dd>
                {formatBalance(data.withdraw_fee, lang)} {coin}
              </dd>
              <dt>{t('funding.fields.received')}</dt>
              <dd>{typed ? `${formatBalance(truncatedString(typed, data.scale), lang)} ${coin}` : '–'}</dd>
              <dt>{t('funding.fields.total')}</dt>
              <dd>{total ? `${formatBalance(truncatedString(total, data.scale), lang)} ${coin}` : '–'}</dd>
              <dt>{t('funding.fields.arrival')}</dt>
              <dd>{t('funding.withdraw.arrival')}</dd>
              <dt>{t('funding.withdraw.requests')}</dt>
              <dd>{t('funding.withdraw.requestsLeft', { left: data.requests_left, max: data.requests_per_day })}</dd>
            </dl>
          ) : null}
          <PasswordField
            label={t('funding.withdraw.fundPassword')}
            {...form.bind('fund_password', { map: sixDigits })}
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('funding.withdraw.fundPlaceholder')}
            data-testid="withdraw-fund"
          />
          <Field
            label={t('funding.withdraw.remark')}
            {...form.bind('remark')}
            maxLength={100}
            autoComplete="off"
            data-testid="withdraw-remark"
          />
          <Button type="submit" block busy={form.busy} data-testid="withdraw-submit">
            {t('funding.withdraw.submit')}
          </Button>
          <p className="muted funding-footnote">{t('funding.withdraw.frozenNote')}</p>
        </form>
      )}
    </Page>
  );
}
