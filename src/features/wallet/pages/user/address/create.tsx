import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendOwnCode } from '../../../../../../core/api/account';
import { addAddress, checkAddress } from '../../../../../../core/api/addresses';
import {
  CHAIN_COINS,
  CHAINS_BY_COIN,
  type Chain,
  type ChainCoin,
  isChainCoin,
} from '../../../../../../protocol/chains';
import { addAddressRequest } from '../../../../../../protocol/wallet-addresses';
import { useGoBack } from '../../../../../app/back';
import { Button } from '../../../../../components/Button';
import { Field, PasswordField } from '../../../../../components/Field';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { Segmented } from '../../../../../components/Segmented';
import { useFundPasswordSet } from '../../../../../data/fundPassword';
import { keys } from '../../../../../data/keys';
import { useCountdown, useQueryParam } from '../../../../../hooks/hooks';
import { useForm } from '../../../../../hooks/useForm';
import { errorText } from '../../../../../lib/i18n';
import { toast } from '../../../../../state/toasts';
import { FundPasswordNeeded } from '../../../components/FundPasswordNeeded';
import '../../../wallet.css';

const sixDigits = (v: string) => v.replace(/[^\d]/g, '').slice(0, 6);
/** Wait this long after the last keystroke before asking the server about the address. */
const CHECK_DELAY_MS = 350;

type Check = { state: 'idle' | 'checking' } | { state: 'done'; valid: boolean; saved: boolean };

/** The server's live verdict on the typed address (wallet/apv_address), debounced and cancelled when it changes. */
function useAddressCheck(coin: ChainCoin, chain: Chain, address: string): Check {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  useEffect(() => {
    const typed = address.trim();
    if (typed === '') {
      setCheck({ state: 'idle' });
      return;
    }
    setCheck({ state: 'checking' });
    const abort = new AbortController();
    const timer = setTimeout(() => {
      void checkAddress({ coin, chain, address: typed }, abort.signal).then((r) => {
        if (!abort.signal.aborted) setCheck(r ? { state: 'done', ...r } : { state: 'idle' });
      });
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [coin, chain, address]);
  return check;
}

/** New withdrawal address (SPEC 5): coin, network, address, optional label, fund password and an e-mail/SMS code. */
export default function CreateAddressPage(): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const fundSet = useFundPasswordSet();
  const wanted = useQueryParam('coin')?.toUpperCase() ?? '';
  const form = useForm(() => {
    const coin: ChainCoin = isChainCoin(wanted) ? wanted : 'USDT';
    return { coin, chain: CHAINS_BY_COIN[coin][0] as Chain, address: '', label: '', fund_password: '', code: '' };
  });
  const { coin, chain } = form.values;
  const client = useQueryClient();
  const check = useAddressCheck(coin, chain, form.values.address);
  const [sentTo, setSentTo] = useState('');
  const [sending, setSending] = useState(false);
  const [left, startCountdown] = useCountdown();

  const send = async () => {
    setSending(true);
    const r = await sendOwnCode('address');
    setSending(false);
    startCountdown(r.retryAfter);
    if (!r.sent) return;
    setSentTo(r.to);
    toast(t('form.codeSentTo', { to: r.to }), 'success');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const values = { ...form.values, address: form.values.address.trim() };
    if (!form.validate(addAddressRequest, values)) return;
    const r = await form.submitWith(() => addAddress(values));
    if (!r.ok) return;
    // The list and the pickers show it when next shown; the withdraw page's gate ("save an address first") too.
    void client.invalidateQueries({ queryKey: keys.addressLists });
    void client.invalidateQueries({ queryKey: keys.withdrawInfo() });
    toast(t('addresses.saved'), 'success');
    goBack();
  };

  if (!fundSet) {
    return (
      <Page title={t('addresses.createTitle')}>
        <FundPasswordNeeded />
      </Page>
    );
  }

  const addressError = form.errors.address;
  let addressHint = t(chain === 'ERC20' ? 'addresses.hintErc20' : 'addresses.hintOmni');
  let hintClass = '';
  if (check.state === 'checking') addressHint = t('addresses.checking');
  else if (check.state === 'done' && !check.valid) {
    addressHint = errorText('addressInvalid');
    hintClass = 'is-bad';
  } else if (check.state === 'done' && check.saved) {
    addressHint = errorText('addressExists');
    hintClass = 'is-bad';
  } else if (check.state === 'done') {
    addressHint = t('addresses.valid', { chain });
    hintClass = 'is-good';
  }

  return (
    <Page title={t('addresses.createTitle')}>
      <div className="note">
        <Icon name="alert" size={18} />
        <p>{t('addresses.networkWarning')}</p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <span className="field-label">{t('addresses.coin')}</span>
          <Segmented
            label={t('addresses.coin')}
            value={coin}
            options={CHAIN_COINS.map((c) => ({ value: c, label: c }))}
            onChange={(c) => {
              const chains = CHAINS_BY_COIN[c];
              form.patch({ coin: c, chain: chains.includes(chain) ? chain : (chains[0] as Chain) });
              form.setErrors({});
            }}
          />
        </div>
        <div className="field">
          <span className="field-label">{t('addresses.network')}</span>
          <Segmented
            label={t('addresses.network')}
            value={chain}
            options={CHAINS_BY_COIN[coin].map((c) => ({ value: c, label: c }))}
            onChange={(c) => form.set('chain', c)}
          />
          {form.errors.chain ? <p className="field-msg field-error">{form.errors.chain}</p> : null}
        </div>
        <Field
          label={t('addresses.address')}
          {...form.bind('address')}
          className={`wallet-address-field ${addressError ? '' : hintClass}`}
          hint={addressHint}
          placeholder={t(chain === 'ERC20' ? 'addresses.placeholderErc20' : 'addresses.placeholderOmni')}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
        />
        <Field
          label={t('addresses.label')}
          {...form.bind('label')}
          placeholder={t('addresses.labelPlaceholder')}
          maxLength={30}
          autoComplete="off"
        />
        <PasswordField
          label={t('addresses.fundPassword')}
          {...form.bind('fund_password', { map: sixDigits })}
          inputMode="numeric"
          autoComplete="off"
          placeholder={t('fund.placeholder')}
        />
        <Field
          label={t('form.code')}
          {...form.bind('code', { map: sixDigits })}
          hint={sentTo ? t('form.codeSentTo', { to: sentTo }) : t('fund.codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={t('form.codePlaceholder')}
          end={
            <button type="button" className="code-btn" onClick={send} disabled={left > 0 || sending}>
              {left > 0 ? t('form.resendIn', { seconds: left }) : t('form.sendCode')}
            </button>
          }
        />
        <Button type="submit" block busy={form.busy}>
          {t('addresses.save')}
        </Button>
      </form>
    </Page>
  );
}
