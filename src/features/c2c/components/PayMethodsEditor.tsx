import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { C2C_PAY_TYPES, type C2cPayMethod, type C2cPayType } from '../../../../protocol/c2c';
import { SelectField } from '../../../components/assets/SelectField';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';

/** A payment method being edited, with a key of its own (its type may change while editing). */
export interface DraftMethod extends C2cPayMethod {
  key: number;
}

/**
 * The payment methods of an ad with the details buyers pay to (recipient, account, an optional note): one per type,
 * at least one; added and removed in place.
 */
export function PayMethodsEditor({
  methods,
  onChange,
  error,
  nextKey,
}: {
  methods: readonly DraftMethod[];
  onChange: (methods: DraftMethod[]) => void;
  error: string | undefined;
  nextKey: () => number;
}): ReactElement {
  const { t } = useTranslation();
  const unused = C2C_PAY_TYPES.filter((type) => !methods.some((m) => m.type === type));
  const update = (key: number, patch: Partial<C2cPayMethod>) =>
    onChange(methods.map((m) => (m.key === key ? { ...m, ...patch } : m)));
  return (
    <fieldset className="c2c-methods" aria-describedby={error ? 'c2c-methods-msg' : undefined}>
      <legend className="c2c-section-title">{t('c2c.adEdit.payMethods')}</legend>
      <p className="c2c-muted-text">{t('c2c.adEdit.payMethodsNote')}</p>
      {methods.map((m, i) => (
        <div key={m.key} className="card c2c-section c2c-method" data-testid={`c2c-method-${i}`}>
          <SelectField<C2cPayType>
            label={t('c2c.adEdit.methodType')}
            value={m.type}
            options={C2C_PAY_TYPES.filter((type) => type === m.type || unused.includes(type)).map((type) => ({
              value: type,
              label: t(`c2c.payType.${type}`),
            }))}
            onValue={(type) => update(m.key, { type })}
            testId={`c2c-method-type-${i}`}
          />
          <Field
            label={t('c2c.payInfo.name')}
            value={m.name}
            onValue={(name) => update(m.key, { name })}
            maxLength={64}
            autoComplete="off"
            data-testid={`c2c-method-name-${i}`}
          />
          <Field
            label={t(`c2c.payInfo.account.${m.type}`)}
            value={m.account}
            onValue={(account) => update(m.key, { account })}
            maxLength={128}
            autoComplete="off"
            data-testid={`c2c-method-account-${i}`}
          />
          <Field
            label={t('c2c.payInfo.noteOptional')}
            value={m.note}
            onValue={(note) => update(m.key, { note })}
            maxLength={200}
            autoComplete="off"
          />
          {methods.length > 1 ? (
            <Button variant="ghost" onClick={() => onChange(methods.filter((x) => x.key !== m.key))}>
              {t('c2c.adEdit.removeMethod')}
            </Button>
          ) : null}
        </div>
      ))}
      {unused.length > 0 ? (
        <Button
          variant="secondary"
          onClick={() =>
            onChange([...methods, { key: nextKey(), type: unused[0] ?? 'bank', name: '', account: '', note: '' }])
          }
          data-testid="c2c-add-method"
        >
          {t('c2c.adEdit.addMethod')}
        </Button>
      ) : null}
      {error ? (
        <p className="field-msg field-error" id="c2c-methods-msg" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
