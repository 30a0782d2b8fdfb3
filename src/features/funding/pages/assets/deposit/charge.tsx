import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { checkDepositHash, fetchDepositCurrencies, submitDeposit } from '../../../../../../core/api/funding';
import { compareDecimalText, isDecimalText } from '../../../../../../core/decimal-text';
import { type Chain, type ChainCoin, isChainCoin } from '../../../../../../protocol/chains';
import {
  BANK_DEPOSIT_COIN,
  chargeRequest,
  type DepositRecord,
  isHashOnChain,
  isWholeAmount,
} from '../../../../../../protocol/funding';
import { formatBalance } from '../../../../../components/assets/format';
import { SelectField } from '../../../../../components/assets/SelectField';
import { Button } from '../../../../../components/Button';
import { Field } from '../../../../../components/Field';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { useSubmission } from '../../../../../data/submission';
import { ImageUploadField } from '../../../../../data/upload/ImageUploadField';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useForm } from '../../../../../hooks/useForm';
import { amountKeystrokes, wireAmount } from '../../../../../lib/amount-input';
import { errorText } from '../../../../../lib/i18n';
import { picks } from '../../../../../state/picks';
import { RecordsLink } from '../../../components/RecordsLink';
import { StateBadge } from '../../../components/StateBadge';
import '../../../funding.css';

const hashInput = (v: string) => v.replace(/\s/g, '').slice(0, 66);

/**
 * Report a deposit (assets/deposit/charge): crypto (coin, chain, whole amount, transaction hash, proof image) or a
 * bank transfer (`?method=bank`: the card it came from, amount, proof). It is then under review; the records show
 * when it is credited.
 */
export default function ChargePage(): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const bank = useQueryParam('method') === 'bank';
  const rawCoin = (useQueryParam('coin') ?? '').toUpperCase();
  const rawChain = (useQueryParam('chain') ?? '').toUpperCase();
  const client = useQueryClient();
  const currencies = useQuery({ queryKey: keys.depositCurrencies, queryFn: () => need(fetchDepositCurrencies()) });
  const data = currencies.data;
  const { bankCard } = useSnapshot(picks);
  const form = useForm({
    coin: (isChainCoin(rawCoin) ? rawCoin : 'USDT') as ChainCoin,
    chain: rawChain,
    amount: '',
    hash: '',
  });
  const [proof, setProof] = useState<number | null>(null);
  const [done, setDone] = useState<DepositRecord | null>(null);
  const [hashState, setHashState] = useState<'ok' | 'used' | null>(null);
  const submission = useSubmission();

  const { coin, amount, hash } = form.values;
  const info = data?.coins.find((c) => c.coin === (bank ? BANK_DEPOSIT_COIN : coin));
  const chains = info?.chains ?? [];
  const chain: Chain = (chains as string[]).includes(form.values.chain)
    ? (form.values.chain as Chain)
    : (chains[0] ?? 'ERC20');
  const minimum = bank ? data?.bank.min_deposit : info?.min_deposit;

  // The server's word on the hash once it is well formed: already used by a deposit?
  useEffect(() => {
    setHashState(null);
    if (bank || !isHashOnChain(chain, hash)) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      void checkDepositHash({ coin, chain, hash }, ctrl.signal).then((r) => {
        if (r) setHashState(r.used ? 'used' : 'ok');
      });
    }, 300);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [bank, coin, chain, hash]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = bank
      ? {
          method: 'bank' as const,
          bank_card_id: bankCard ? String(bankCard.id) : '',
          amount: wireAmount(amount, lang),
          proof: proof === null ? '' : String(proof),
        }
      : {
          method: 'crypto' as const,
          coin,
          chain,
          hash: hash.trim(),
          amount: wireAmount(amount, lang),
          proof: proof === null ? '' : String(proof),
        };
    const full = { ...body, request_id: submission.requestId(body) };
    if (!form.validate(chargeRequest, full)) return;
    if (!isWholeAmount(full.amount)) {
      form.setErrors({ amount: errorText('depositAmountInteger') });
      return;
    }
    if (
      minimum &&
      isDecimalText(full.amount) &&
      isDecimalText(minimum) &&
      compareDecimalText(full.amount, minimum) < 0
    ) {
      form.setErrors({ amount: errorText('depositBelowMin') });
      return;
    }
    const r = await form.submitWith(() => submitDeposit(full));
    if (!r.ok) return;
    submission.accepted();
    void client.invalidateQueries({ queryKey: keys.deposits });
    setDone(r.data);
  };

  const title = bank ? t('funding.charge.bankTitle') : t('funding.charge.title');
  if (done) {
    return (
      <Page title={title} right={<RecordsLink tab="deposits" />}>
        <div className="funding funding-done" role="status" data-testid="deposit-done">
          <span className="funding-done-icon" aria-hidden="true">
            <Icon name="check" size={28} />
          </span>
          <h2>{t('funding.charge.doneTitle')}</h2>
          <p>{t('funding.charge.doneText')}</p>
          <dl className="kv card">
            <dt>{t('funding.fields.amount')}</dt>
            <dd>
              {formatBalance(done.amount, lang, 0)} {done.coin}
            </dd>
            <dt>{t('funding.fields.state')}</dt>
            <dd>
              <StateBadge state={done.state} />
            </dd>
          </dl>
          <Link to="/pages/assets/withdraw/detail" search={{ tab: 'deposits' }} className="btn btn-primary btn-block">
            {t('funding.records.view')}
          </Link>
        </div>
      </Page>
    );
  }

  return (
    <Page title={title} right={<RecordsLink tab="deposits" />}>
      {!data ? (
        <LoadingOrFailed failed={loadFailed(currencies)} onRetry={() => void currencies.refetch()} />
      ) : (
        <form className="form funding" onSubmit={submit} noValidate>
          {bank ? (
            <Link
              to="/pages/assets/withdraw/bank/bank"
              className={`funding-pick card${form.errors.bank_card_id ? ' has-error' : ''}`}
              data-testid="deposit-card"
            >
              <span className="funding-pick-label">{t('funding.charge.card')}</span>
              <span className="funding-pick-value">
                {bankCard
                  ? t('funding.fields.cardLast4', { last4: bankCard.card_number.slice(-4) })
                  : t('funding.charge.chooseCard')}
              </span>
              <Icon name="chevron" size={16} />
              {form.errors.bank_card_id ? (
                <span className="field-msg field-error" role="alert">
                  {form.errors.bank_card_id}
                </span>
              ) : null}
            </Link>
          ) : (
            <>
              <SelectField
                label={t('funding.coin')}
                value={coin}
                options={data.coins.map((c) => ({ value: c.coin, label: c.coin }))}
                onValue={(v) => form.set('coin', v)}
                error={form.errors.coin}
                testId="charge-coin"
              />
              <SelectField
                label={t('funding.chain')}
                value={chain}
                options={chains.map((c) => ({ value: c, label: c }))}
                onValue={(v) => form.set('chain', v)}
                error={form.errors.chain}
                testId="charge-chain"
              />
            </>
          )}
          <Field
            label={t('funding.fields.amount')}
            {...form.bind('amount', { map: amountKeystrokes })}
            inputMode="numeric"
            autoComplete="off"
            placeholder={
              minimum ? t('funding.charge.amountPlaceholder', { min: formatBalance(minimum, lang, 0) }) : undefined
            }
            end={<span className="muted">{bank ? BANK_DEPOSIT_COIN : coin}</span>}
            data-testid="charge-amount"
          />
          {bank ? null : (
            <Field
              label={t('funding.fields.hash')}
              {...form.bind('hash', { map: hashInput })}
              autoComplete="off"
              spellCheck={false}
              placeholder={chain === 'ERC20' ? t('funding.charge.hashErc20') : t('funding.charge.hashOmni')}
              hint={
                hashState === 'used'
                  ? errorText('depositHashUsed')
                  : hashState === 'ok'
                    ? t('funding.charge.hashOk')
                    : undefined
              }
              data-testid="charge-hash"
            />
          )}
          <ImageUploadField
            label={t('funding.charge.proof')}
            hint={t('funding.charge.proofHint')}
            value={proof}
            onChange={(id) => {
              setProof(id);
              form.clear('proof');
            }}
            error={form.errors.proof}
          />
          <Button type="submit" block busy={form.busy} data-testid="charge-submit">
            {t('funding.charge.submit')}
          </Button>
          <p className="muted funding-footnote">
            {bank ? t('funding.charge.reviewNoteBank') : t('funding.charge.reviewNote')}
          </p>
        </form>
      )}
    </Page>
  );
}
