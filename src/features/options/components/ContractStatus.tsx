import { Link } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { type ContractView, standingAt } from '../../../../machines/options/contract.machine';
import { Button } from '../../../components/Button';
import { formatPrice } from '../../../lib/format';
import { formatAmount } from '../format';
import { usePriceScale } from '../hooks/usePriceScale';

/**
 * The ticket's own contract: its phase, the countdown on server time, how it stands now, then its result. Not a live
 * region: the countdown changes every second and the standing with every tick, and neither is to be read out; the
 * phase and the result are announced through the ticket's Announcement (contractAnnouncement).
 */
export function ContractStatus({
  view,
  last,
  onNew,
}: {
  view: ContractView;
  last: string | null;
  onNew: () => void;
}): ReactElement | null {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const contract = view.contract;
  const priceScale = usePriceScale(contract?.symbol);
  if (view.phase === 'choosing' || view.phase === 'verifying' || !contract) return null;
  const standing = view.phase === 'running' ? standingAt(contract, last) : null;
  return (
    <div className="option-status" data-testid="contract-status" data-phase={view.phase}>
      <p className="option-status-label">{t(view.labelKey)}</p>
      {view.secondsLeft !== null ? (
        <p className="option-countdown" data-testid="countdown">
          {t('options.countdown', { seconds: view.secondsLeft })}
        </p>
      ) : null}
      {contract.entry ? (
        <p className="option-muted">
          {t('options.entryAt', {
            price: formatPrice(contract.entry.price, lang, priceScale),
            seq: contract.entry.seq,
          })}
        </p>
      ) : null}
      {standing ? (
        <p className={`option-standing is-${standing}`} data-testid="standing">
          {t(`options.standing.${standing}`)} · {t('options.standing.basis')}
        </p>
      ) : null}
      {view.settled && contract.payout !== null ? (
        <p data-testid="status-payout">
          {t('options.paidBack', { amount: formatAmount(contract.payout, lang), currency: contract.currency })}
        </p>
      ) : null}
      {view.settled ? (
        <div className="option-actions">
          <Link
            to="/pages/option/info"
            search={{ id: contract.id }}
            className="option-link"
            data-testid="status-details"
          >
            {t('options.details')}
          </Link>
          <Button variant="ghost" className="btn-small" onClick={onNew}>
            {t('options.newContract')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** What the ticket's live region says of its contract: the phase once it changes, the payout once settled. */
export function contractAnnouncement(view: ContractView, t: TFunction, lang: string): string {
  const contract = view.contract;
  if (view.phase === 'choosing' || view.phase === 'verifying' || !contract) return '';
  const label = t(view.labelKey);
  if (!view.settled || contract.payout === null) return label;
  const paid = t('options.paidBack', { amount: formatAmount(contract.payout, lang), currency: contract.currency });
  return `${label}. ${paid}`;
}
