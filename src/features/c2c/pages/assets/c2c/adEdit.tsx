import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveC2cAd } from '../../../../../../core/api/c2c';
import { fetchAssets } from '../../../../../../core/api/wallet';
import { C2C_FIATS, type C2cFiat, type C2cOwnAd, c2cAdSaveRequest } from '../../../../../../protocol/c2c';
import { fiatCents } from '../../../../../../protocol/rules/c2c';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { SelectField } from '../../../../../components/assets/SelectField';
import { Button } from '../../../../../components/Button';
import { Field } from '../../../../../components/Field';
import { Page } from '../../../../../components/Page';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useForm } from '../../../../../hooks/useForm';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../../../lib/amount-input';
import { errorText } from '../../../../../lib/i18n';
import { toast } from '../../../../../state/toasts';
import { type DraftMethod, PayMethodsEditor } from '../../../components/PayMethodsEditor';
import { formatCoin } from '../../../format';
import { recordId, useC2cMerchant, useOwnC2cAds } from '../../../hooks/queries';
import { c2cKeys } from '../../../keys';
import '../../../c2c.css';

/**
 * A merchant's ad (assets/c2c/adEdit, an addition; `?id=` changes an open one): coin (from the merchant's spot
 * account, with what it holds) and fiat currency, price, the coins offered, the order limits and the payment methods
 * with their details. Amounts are typed in the user's own number format. The coins stay in the account until a buyer
 * orders; each order then holds its quantity in escrow.
 */
export default function C2cAdEditPage(): ReactElement {
  const { t } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const me = useC2cMerchant();
  const ads = useOwnC2cAds(me.merchant);
  const editing = id === null ? null : (ads.data?.find((a) => a.id === id) ?? null);
  const title = t(id === null ? 'c2c.adEdit.newTitle' : 'c2c.adEdit.editTitle');
  return (
    <Page title={title} className="c2c-page">
      {!me.query.data ? (
        <LoadingOrFailed failed={loadFailed(me.query)} onRetry={() => void me.query.refetch()} />
      ) : !me.merchant ? (
        <EmptyState icon="user" text={t('c2c.merchant.notMerchant')} />
      ) : id !== null && !ads.data ? (
        <LoadingOrFailed failed={loadFailed(ads)} onRetry={() => void ads.refetch()} />
      ) : id !== null && editing?.state !== 'open' ? (
        <EmptyState icon="alert" text={t('c2c.adEdit.notFound')} />
      ) : (
        <AdForm key={editing?.id ?? 'new'} ad={editing} />
      )}
    </Page>
  );
}

interface Values {
  coin: string;
  fiat: C2cFiat;
  price: string;
  amount: string;
  min_fiat: string;
  max_fiat: string;
  note: string;
}

function AdForm({ ad }: { ad: C2cOwnAd | null }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const client = useQueryClient();
  const coins = useQuery({ queryKey: keys.assets('coin'), queryFn: () => need(fetchAssets('coin')) });
  const rows = coins.data?.accounts.find((a) => a.type === 'coin')?.rows ?? [];
  const keyRef = useRef(1);
  const nextKey = () => keyRef.current++;
  const form = useForm<Values>(() => ({
    coin: ad?.coin ?? '',
    fiat: ad?.fiat ?? 'EUR',
    price: ad ? editableAmount(ad.price, lang, 6) : '',
    amount: ad ? editableAmount(ad.amount, lang, ad.scale) : '',
    min_fiat: ad ? editableAmount(ad.min_fiat, lang, 2) : '',
    max_fiat: ad ? editableAmount(ad.max_fiat, lang, 2) : '',
    note: ad?.note ?? '',
  }));
  const [methods, setMethods] = useState<DraftMethod[]>(() =>
    ad
      ? ad.pay_methods.map((m) => ({ ...m, key: nextKey() }))
      : [{ key: nextKey(), type: 'sepa', name: '', account: '', note: '' }],
  );
  const [refusal, setRefusal] = useState<string | null>(null);
  const coin = form.values.coin || rows.find((r) => r.currency !== 'USDT')?.currency || '';
  const held = rows.find((r) => r.currency === coin);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setRefusal(null);
    const body = {
      ...(ad ? { id: String(ad.id) } : {}),
      coin,
      fiat: form.values.fiat,
      price: wireAmount(form.values.price, lang),
      amount: wireAmount(form.values.amount, lang),
      min_fiat: wireAmount(form.values.min_fiat, lang),
      max_fiat: wireAmount(form.values.max_fiat, lang),
      pay_methods: JSON.stringify(
        methods.map(({ type, name, account, note }) => ({
          type,
          name: name.trim(),
          account: account.trim(),
          note: note.trim(),
        })),
      ),
      note: form.values.note,
    };
    if (form.validate(c2cAdSaveRequest, body) === null) return;
    const incomplete = methods.some((m) => !m.name.trim() || !m.account.trim());
    if (methods.length === 0 || incomplete) {
      form.setErrors({
        pay_methods: errorText(methods.length === 0 ? 'c2cPayMethodsRequired' : 'c2cPayMethodInvalid'),
      });
      return;
    }
    const min = fiatCents(body.min_fiat);
    const max = fiatCents(body.max_fiat);
    if (min !== null && max !== null && min > max) {
      form.setErrors({ min_fiat: errorText('c2cLimitOrder') });
      return;
    }
    const r = await form.submitWith(() => saveC2cAd(body));
    if (!r.ok) {
      if (!r.field || !(r.field in body)) setRefusal(r.message);
      return;
    }
    void client.invalidateQueries({ queryKey: c2cKeys.all });
    toast(t(ad ? 'c2c.adEdit.saved' : 'c2c.adEdit.published'), 'success');
    void navigate({ to: '/pages/assets/c2c/merchant' });
  };

  const amount = (field: 'price' | 'amount' | 'min_fiat' | 'max_fiat') => form.bind(field, { map: amountKeystrokes });
  return (
    <form className="form c2c-form" onSubmit={submit} noValidate>
      {ad ? (
        <p className="c2c-muted-text" data-testid="c2c-ad-fixed">
          {t('c2c.adEdit.fixed', { coin: ad.coin, fiat: ad.fiat })}
        </p>
      ) : (
        <div className="c2c-filters">
          {rows.length > 0 ? (
            <SelectField
              label={t('c2c.adEdit.coin')}
              value={coin}
              options={rows.map((r) => ({ value: r.currency, label: r.currency }))}
              onValue={(v) => form.set('coin', v)}
              error={form.errors.coin}
              testId="c2c-ad-coin"
            />
          ) : (
            <Field label={t('c2c.adEdit.coin')} {...form.bind('coin', { map: (v) => v.toUpperCase() })} />
          )}
          <SelectField<C2cFiat>
            label={t('c2c.adEdit.fiat')}
            value={form.values.fiat}
            options={C2C_FIATS.map((f) => ({ value: f, label: f }))}
            onValue={(v) => form.set('fiat', v)}
            error={form.errors.fiat}
            testId="c2c-ad-fiat"
          />
        </div>
      )}
      <Field
        label={t('c2c.adEdit.price', { fiat: form.values.fiat, coin: coin || '…' })}
        {...amount('price')}
        inputMode="decimal"
        autoComplete="off"
        data-testid="c2c-ad-price"
      />
      <Field
        label={t('c2c.adEdit.amount', { coin: coin || '…' })}
        {...amount('amount')}
        inputMode="decimal"
        autoComplete="off"
        hint={held ? t('c2c.adEdit.held', { amount: formatCoin(held.available, lang, held.scale), coin }) : undefined}
        data-testid="c2c-ad-amount"
      />
      <div className="c2c-filters">
        <Field
          label={t('c2c.adEdit.minFiat', { fiat: form.values.fiat })}
          {...amount('min_fiat')}
          inputMode="decimal"
          autoComplete="off"
          data-testid="c2c-ad-min"
        />
        <Field
          label={t('c2c.adEdit.maxFiat', { fiat: form.values.fiat })}
          {...amount('max_fiat')}
          inputMode="decimal"
          autoComplete="off"
          data-testid="c2c-ad-max"
        />
      </div>
      <PayMethodsEditor
        methods={methods}
        onChange={(next) => {
          setMethods(next);
          form.clear('pay_methods');
        }}
        error={form.errors.pay_methods}
        nextKey={nextKey}
      />
      <Field label={t('c2c.adEdit.note')} {...form.bind('note')} maxLength={500} autoComplete="off" />
      <p className="c2c-muted-text">{t('c2c.adEdit.escrowNote')}</p>
      <div className="c2c-submit">
        {refusal ? (
          <p className="field-msg field-error c2c-refusal" role="alert" data-testid="c2c-refusal">
            {refusal}
          </p>
        ) : null}
        <Button type="submit" block busy={form.busy} data-testid="c2c-ad-save">
          {t(ad ? 'c2c.adEdit.save' : 'c2c.adEdit.publish')}
        </Button>
      </div>
    </form>
  );
}
