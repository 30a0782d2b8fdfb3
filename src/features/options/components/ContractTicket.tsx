import { useSelector } from '@xstate/react';
import { lazy, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionContractRef } from '../../../../machines/options/book.machine';
import type { OptionAccount, OptionCurrencyTerms, OptionDirection } from '../../../../protocol/options';
import { optionPayout, stakeUnits } from '../../../../protocol/rules/options';
import { fromUnits } from '../../../../protocol/rules/spot';
import { Announcement } from '../../../components/Announcement';
import { Field } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import { useQuote } from '../../../hooks/useQuote';
import { useServerNow } from '../../../hooks/useServerNow';
import { amountKeystrokes, wireAmount } from '../../../lib/amount-input';
import { errorText } from '../../../lib/i18n';
import { COUNTDOWN_MS, COUNTING } from '../countdown';
import { formatAmount } from '../format';
import { useContractActor } from '../hooks/useOptionLive';
import { draftOf, type TicketProblem, ticketProblem } from '../ticket';
import { ContractStatus, contractAnnouncement } from './ContractStatus';
import { PeriodChips } from './PeriodChips';

/** SPEC 8's prompt is rare (a refused real-account purchase): it loads when it is needed. */
const VerifyDialog = lazy(() => import('./VerifyDialog'));

/**
 * The option ticket: period chips with their payout ratios, the stake (minimum and the chosen book's available
 * balance shown), what a win would pay, and the up and down buttons the contract machine drives. Stale prices
 * disable both buttons.
 */
export function ContractTicket({
  symbol,
  book,
  terms,
  available,
  ticket,
}: {
  symbol: string;
  book: OptionAccount;
  terms: OptionCurrencyTerms;
  available: string | null;
  /** The book's ticket machine (machines/options/book.machine.ts). */
  ticket: OptionContractRef;
}): ReactElement {
  const { t, i18n } = useTranslation();
  // The countdown and the standing follow server time and the instrument's price: the ticket renders with them, and
  // with the clock only while its contract counts down.
  const counting = useSelector(ticket, (s) => COUNTING.some((phase) => s.matches({ contract: phase })));
  const now = useServerNow(counting, COUNTDOWN_MS);
  const { view, send } = useContractActor(ticket, now);
  const last = useQuote(symbol).quote?.last ?? null;
  const lang = i18n.language;
  const [seconds, setSeconds] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<TicketProblem | null>(null);
  const stake = wireAmount(typed, lang);
  const period = terms.periods.find((p) => p.seconds === seconds) ?? null;
  const minStake = period?.min_stake ?? terms.periods[0]?.min_stake ?? null;
  const units = stake === '' ? null : stakeUnits(stake, terms.scale);
  // What a win pays back under the published rule (stake × (1 + ratio), rounded down to the currency's unit).
  const winPays = period && units !== null && units > 0n ? optionPayout(units, period.ratio, 'won', terms.scale) : null;

  const buy = (direction: OptionDirection) => {
    const found = ticketProblem({ seconds, stake }, terms, available);
    setProblem(found);
    if (found) return;
    send({ type: 'SUBMIT', draft: draftOf({ seconds, stake }, symbol, direction, book, terms.currency) });
  };

  const problemText = (field: TicketProblem['field']) => {
    if (problem?.field === field) {
      return problem.key === 'optionStakeBelowMin' && problem.values
        ? t('options.ticket.belowMin', { min: formatAmount(problem.values.min ?? '', lang), currency: terms.currency })
        : errorText(problem.key);
    }
    if (view.error && view.phase === 'choosing' && view.errorField === field) return view.error;
    return undefined;
  };
  const disabled = !view.submitEnabled || view.busy;
  const periodError = problemText('seconds');

  return (
    <section
      className="option-ticket card"
      data-testid="ticket"
      data-phase={view.phase}
      aria-label={t('options.ticket.label')}
    >
      <PeriodChips
        periods={terms.periods}
        value={seconds}
        onChange={(s) => {
          setSeconds(s);
          setProblem(null);
        }}
      />
      {periodError ? (
        <p className="field-msg field-error" role="alert">
          {periodError}
        </p>
      ) : null}
      <Field
        label={t('options.ticket.stake', { currency: terms.currency })}
        value={typed}
        onValue={(v) => {
          setTyped(amountKeystrokes(v));
          setProblem(null);
        }}
        inputMode="decimal"
        autoComplete="off"
        error={problemText('stake')}
        data-testid="ticket-stake"
      />
      <div className="option-ticket-facts">
        <p data-testid="ticket-min">
          {t('options.ticket.min', {
            min: minStake ? formatAmount(minStake, lang) : '–',
            currency: terms.currency,
          })}
        </p>
        <p data-testid="ticket-available">
          {t(book === 'simulator' ? 'options.ticket.availablePractice' : 'options.ticket.available', {
            amount: available === null ? '–' : formatAmount(available, lang),
            currency: terms.currency,
          })}
        </p>
        <p data-testid="ticket-win">
          {t('options.ticket.winPays', {
            amount: winPays === null ? '–' : formatAmount(fromUnits(winPays, terms.scale), lang),
            currency: terms.currency,
          })}
        </p>
      </div>
      {view.blockedByStalePrices ? (
        <p className="note note-warn" role="status" data-testid="stale-blocked">
          <Icon name="clock" size={16} />
          {t('options.staleBlocked')}
        </p>
      ) : null}
      {view.error && view.phase === 'choosing' && !view.errorField ? (
        <p className="field-msg field-error" role="alert">
          {view.error}
        </p>
      ) : null}
      <div className="option-buttons bottom-action">
        <button
          type="button"
          className="option-buy is-up"
          disabled={disabled}
          aria-busy={view.busy || undefined}
          onClick={() => buy('up')}
          data-testid="buy-up"
        >
          <span aria-hidden="true">▲</span> {t('options.up')}
        </button>
        <button
          type="button"
          className="option-buy is-down"
          disabled={disabled}
          aria-busy={view.busy || undefined}
          onClick={() => buy('down')}
          data-testid="buy-down"
        >
          <span aria-hidden="true">▼</span> {t('options.down')}
        </button>
      </div>
      <ContractStatus view={view} last={last} onNew={() => send({ type: 'NEW_CONTRACT' })} />
      <Announcement text={contractAnnouncement(view, t, lang)} testId="contract-announcement" />
      {view.promptVerify ? (
        <Suspense fallback={null}>
          <VerifyDialog open onClose={() => send({ type: 'DISMISS' })} />
        </Suspense>
      ) : null}
    </section>
  );
}
