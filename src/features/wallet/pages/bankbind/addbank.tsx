import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchBankCards, saveBankCard } from '../../../../../core/api/bank-cards';
import { cashSaveRequest } from '../../../../../protocol/bank-cards';
import { useGoBack } from '../../../../app/back';
import { Button } from '../../../../components/Button';
import { Field } from '../../../../components/Field';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { EmptyState, LoadingOrFailed } from '../../../../components/StateView';
import { keys } from '../../../../data/keys';
import { loadFailed, need } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { type TextField, useForm } from '../../../../hooks/useForm';
import { errorText } from '../../../../lib/i18n';
import { toast } from '../../../../state/toasts';
import '../../wallet.css';

const EMPTY = {
  name: '',
  bank_name: '',
  branch_name: '',
  branch_number: '',
  card_number: '',
  bank_address: '',
  swift_code: '',
  cardholder_name: '',
  bank_account: '',
  iban: '',
  payee_address: '',
  postal_code: '',
};
type Values = typeof EMPTY;
type Name = TextField<Values>;

/** Shown masked by the server, so an edit asks for them again in full. */
const MASKED: readonly Name[] = ['card_number', 'bank_account', 'iban'];

/** The form's sections; every field of SPEC 3 is required (SPEC 5). */
const SECTIONS: ReadonlyArray<{ title: 'holder' | 'bank' | 'account'; fields: readonly Name[] }> = [
  { title: 'holder', fields: ['name', 'cardholder_name', 'payee_address', 'postal_code'] },
  { title: 'bank', fields: ['bank_name', 'branch_name', 'branch_number', 'bank_address', 'swift_code'] },
  { title: 'account', fields: ['card_number', 'bank_account', 'iban'] },
];

const INPUT: Partial<Record<Name, { inputMode?: 'numeric'; autoComplete?: string; maxLength?: number }>> = {
  name: { autoComplete: 'name', maxLength: 100 },
  cardholder_name: { autoComplete: 'cc-name', maxLength: 100 },
  payee_address: { autoComplete: 'street-address', maxLength: 200 },
  postal_code: { autoComplete: 'postal-code', maxLength: 12 },
  bank_name: { maxLength: 100 },
  branch_name: { maxLength: 100 },
  branch_number: { maxLength: 20 },
  bank_address: { maxLength: 200 },
  swift_code: { maxLength: 20 },
  card_number: { inputMode: 'numeric', autoComplete: 'cc-number', maxLength: 40 },
  bank_account: { maxLength: 40 },
  iban: { maxLength: 50 },
};

/** Card numbers in groups of four as they are typed. */
const groupDigits = (v: string) =>
  v
    .replace(/[^\d]/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
/** IBANs in upper case, in groups of four. */
const groupIban = (v: string) =>
  v
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 34)
    .replace(/(.{4})(?=.)/g, '$1 ');

/** Bind a bank card, or edit one with `?id=`. */
export default function AddBankCardPage(): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const idParam = useQueryParam('id');
  const editId = idParam && /^\d+$/.test(idParam) ? Number(idParam) : null;
  const form = useForm<Values>(EMPTY);
  // Editing loads the user's cards and takes the one asked for; adding needs nothing.
  const client = useQueryClient();
  const cards = useQuery({
    queryKey: keys.bankCards,
    queryFn: () => need(fetchBankCards()),
    enabled: editId !== null,
  });
  const editing = editId === null ? null : (cards.data?.find((c) => c.id === editId) ?? null);
  const { patch } = form;

  useEffect(() => {
    if (!editing) return;
    patch({
      name: editing.name,
      bank_name: editing.bank_name,
      branch_name: editing.branch_name,
      branch_number: editing.branch_number,
      bank_address: editing.bank_address,
      swift_code: editing.swift_code,
      cardholder_name: editing.cardholder_name,
      payee_address: editing.payee_address,
      postal_code: editing.postal_code,
    });
  }, [editing, patch]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const values = editing ? { ...form.values, id: String(editing.id) } : form.values;
    if (!form.validate(cashSaveRequest, values)) {
      // A long form: take the user to the first field that needs attention.
      requestAnimationFrame(() => document.querySelector<HTMLInputElement>('.form [aria-invalid="true"]')?.focus());
      return;
    }
    const r = await form.submitWith(() => saveBankCard(values));
    if (!r.ok) return;
    void client.invalidateQueries({ queryKey: keys.bankCards });
    toast(t(editing ? 'bankCards.updated' : 'bankCards.saved'), 'success');
    goBack();
  };

  const title = editId === null ? t('bankCards.addTitle') : t('bankCards.editTitle');
  if (editId !== null && !cards.data) {
    return (
      <Page title={title}>
        <LoadingOrFailed failed={loadFailed(cards)} onRetry={() => void cards.refetch()} />
      </Page>
    );
  }
  if (editId !== null && !editing) {
    return (
      <Page title={title}>
        <EmptyState icon="card" title={errorText('bankCardNotFound')} />
      </Page>
    );
  }

  const hint = (name: Name): string | undefined => {
    if (editing && MASKED.includes(name)) return t('bankCards.reenter', { current: editing[name] });
    return name === 'swift_code' ? t('bankCards.swiftHint') : undefined;
  };
  const map = (name: Name) => (name === 'card_number' ? groupDigits : name === 'iban' ? groupIban : undefined);

  return (
    <Page title={title}>
      <div className="note note-info">
        <Icon name="info" size={18} />
        <p>{t('bankCards.lead')}</p>
      </div>
      <form className="form" onSubmit={submit} noValidate>
        {SECTIONS.map((section) => (
          <fieldset key={section.title} className="wallet-fieldset">
            <legend className="list-title">{t(`bankCards.section.${section.title}`)}</legend>
            {section.fields.map((name) => {
              const mapper = map(name);
              return (
                <Field
                  key={name}
                  label={t(`bankCards.field.${name}`)}
                  {...form.bind(name, mapper ? { map: mapper } : {})}
                  hint={hint(name)}
                  placeholder={t(`bankCards.placeholder.${name}`)}
                  autoCapitalize={name === 'swift_code' || name === 'iban' ? 'characters' : undefined}
                  spellCheck={false}
                  {...INPUT[name]}
                />
              );
            })}
          </fieldset>
        ))}
        <Button type="submit" block busy={form.busy}>
          {t('bankCards.save')}
        </Button>
      </form>
    </Page>
  );
}
