import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { setPartnerBonus } from '../../../../core/api/referral';
import type { InviteInfo, PartnerInfo } from '../../../../protocol/referral';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { ListGroup, ListItem } from '../../../components/List';
import { useForm } from '../../../hooks/useForm';
import { amountKeystrokes } from '../../../lib/amount-input';
import { toast } from '../../../state/toasts';
import { checkBonus, keptRatio, percentText } from '../bonus';
import { usePercent } from '../hooks/usePercent';
import { promotionKeys } from '../keys';

/**
 * A partner's standing (SPEC 3: authorisation code and rebate ratio) and the bonus it passes to its invitees
 * (bonus/setBonus), typed as a percentage from 0 to the ratio and checked before it is sent; the server's refusal
 * shows under the field.
 */
export function PartnerCard({ info, partner }: { info: InviteInfo; partner: PartnerInfo }): ReactElement {
  const { t } = useTranslation();
  const percent = usePercent();
  const active = partner.status === 'active';
  return (
    <section className="card promo-partner" aria-labelledby="promo-partner-title" data-testid="promo-partner">
      <h2 id="promo-partner-title" className="promo-section-title">
        {t('promotion.partner.title')}
      </h2>
      <ListGroup>
        <ListItem
          label={t('promotion.partner.status')}
          value={
            <span className={active ? 'badge badge-ok' : 'badge badge-warn'}>
              {t(`promotion.partner.statuses.${partner.status}`)}
            </span>
          }
        />
        <ListItem
          label={t('promotion.partner.authCode')}
          value={<span data-testid="promo-auth-code">{partner.auth_code}</span>}
        />
        {active ? (
          <>
            <ListItem label={t('promotion.partner.ratio')} value={percent(partner.ratio)} />
            <ListItem
              label={t('promotion.partner.bonus')}
              value={<span data-testid="promo-bonus">{percent(partner.bonus)}</span>}
            />
            <ListItem label={t('promotion.partner.kept')} value={percent(keptRatio(partner.ratio, partner.bonus))} />
          </>
        ) : null}
      </ListGroup>
      {active ? (
        <BonusForm partner={partner} />
      ) : (
        <p className="promo-muted">{t('promotion.partner.revoked', { share: percent(info.share.default_ratio) })}</p>
      )}
    </section>
  );
}

function BonusForm({ partner }: { partner: PartnerInfo }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const percent = usePercent();
  const client = useQueryClient();
  const form = useForm({ bonus: percentText(partner.bonus, lang) });
  const max = percent(partner.ratio);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkBonus(form.values.bonus, lang, partner.ratio);
    if (!checked.ok) {
      const example = percentText('0.0250', lang);
      form.setErrors({ bonus: t(`promotion.partner.form.${checked.problem}`, { max, example }) });
      return;
    }
    const r = await form.submitWith(() => setPartnerBonus(checked.bonus));
    if (r.ok) {
      form.patch({ bonus: percentText(r.partner.bonus, lang) });
      toast(t('promotion.partner.form.saved'), 'success');
      await client.invalidateQueries({ queryKey: promotionKeys.info });
    } else if (!r.field) {
      form.setErrors({ bonus: r.message });
    }
  };

  return (
    <form className="promo-bonus-form" onSubmit={(e) => void submit(e)} noValidate>
      <Field
        label={t('promotion.partner.form.label')}
        {...form.bind('bonus', { map: amountKeystrokes })}
        hint={t('promotion.partner.form.hint', { max })}
        inputMode="decimal"
        autoComplete="off"
        data-testid="promo-bonus-input"
      />
      <Button type="submit" block busy={form.busy} data-testid="promo-bonus-submit">
        {t('promotion.partner.form.submit')}
      </Button>
    </form>
  );
}
