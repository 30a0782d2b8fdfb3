import { Link } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { type ContractView, standingAt } from '../../../../machines/options/contract.machine';
import { Button } from '../../../components/Button';
import { formatTickPrice } from '../format';
import { usePriceScale } from '../hooks/usePriceScale';
import { contractResultText, resultClass } from '../result';

/**
 * The ticket's own contract: its phase, the countdown on server time, how it stands now, then its result. Not a live
 * region: the countdown changes every second and the standing with every tick, and neither is to be read out; the
 * phase and the result (what it made or lost, not what it paid back) are announced through the ticket's Announcement
 * (contractAnnouncement).
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
  const result = view.settled ? contractResultText(contract, t, lang) : null;
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
            price: formatTickPrice(contract.entry.price, lang, priceScale),
            seq: contract.entry.seq,
          })}
        </p>
      ) : null}
      {standing ? (
        <p className={`option-standing is-${standing}`} data-testid="standing">
          {t(`options.standing.${standing}`)} · {t('options.standing.basis')}
        </p>
      ) : null}
      {result !== null ? (
        <p data-testid="status-result" className={resultClass(contract)}>
          {t('options.result.line', { result })}
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

/** What the ticket's live region says of its contract: the phase once it changes, the result once settled. */
export function contractAnnouncement(view: ContractView, t: TFunction, lang: string): string {
  const contract = view.contract;
  if (view.phase === 'choosing' || view.phase === 'verifying' || !contract) return '';
  const label = t(view.labelKey);
  const result = view.settled ? contractResultText(contract, t, lang) : null;
  return result === null ? label : `${label}. ${t('options.result.line', { result })}`;
}
