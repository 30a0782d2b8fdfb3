import { type ReactElement, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Poll } from '../../../../protocol/polls';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { formatDateTime } from '../../../lib/format';
import { leadingOptions } from '../format';
import type { Viewer, VoteOutcome } from '../hooks/usePolls';
import { OptionTally } from './OptionTally';

const STATUS_BADGE = { open: 'badge badge-ok', upcoming: 'badge badge-warn', closed: 'badge' } as const;

/**
 * One poll: its question, state and time, and every coin with its tally. A verified user who has not voted in an open
 * poll picks a coin and confirms (a vote is final); everyone else reads the tallies, with their own vote marked. A
 * closed poll is a result: the coins with the most votes are marked.
 */
export function PollCard({
  poll,
  viewer,
  busy,
  onVote,
}: {
  poll: Poll;
  viewer: Viewer;
  busy: boolean;
  onVote: (optionId: number) => Promise<{ outcome: VoteOutcome; message?: string }>;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const [picked, setPicked] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ kind: 'counted' | 'error'; text: string } | null>(null);
  const choosable = poll.status === 'open' && viewer === 'verified' && poll.my_option_id === null;
  const leading = poll.status === 'closed' ? leadingOptions(poll.options) : new Set<number>();
  const choice = poll.options.find((o) => o.id === picked);
  const lang = i18n.language;
  const when =
    poll.status === 'upcoming'
      ? t('vote.when.opens', { date: formatDateTime(poll.opens_at, lang) })
      : poll.status === 'open'
        ? t('vote.when.closes', { date: formatDateTime(poll.closes_at, lang) })
        : t('vote.when.closed', { date: formatDateTime(poll.closed_at ?? poll.closes_at, lang) });

  const confirm = async () => {
    if (!choice) return;
    setConfirming(false);
    const r = await onVote(choice.id);
    if (r.outcome === 'counted') setMessage({ kind: 'counted', text: t('vote.counted', { name: choice.name }) });
    else if (r.outcome === 'refused') setMessage({ kind: 'error', text: r.message ?? '' });
  };
  const tally = (o: Poll['options'][number]) => (
    <OptionTally option={o} total={poll.total_votes} mine={poll.my_option_id === o.id} leading={leading.has(o.id)} />
  );

  return (
    <article className="card vote-poll" aria-labelledby={headingId} data-testid="vote-poll" data-status={poll.status}>
      <header className="vote-poll-head">
        <h3 id={headingId} className="vote-question">
          {t(`vote.question.${poll.kind}`)}
        </h3>
        <span className={STATUS_BADGE[poll.status]}>{t(`vote.status.${poll.status}`)}</span>
      </header>
      <p className="vote-muted">
        {when} · <span data-testid="vote-total">{t('vote.votes', { count: poll.total_votes })}</span>
      </p>
      {choosable ? (
        <fieldset className="vote-options">
          <legend className="visually-hidden">{t('vote.choose')}</legend>
          {poll.options.map((o) => (
            <label
              key={o.id}
              className={picked === o.id ? 'vote-option is-choosable is-picked' : 'vote-option is-choosable'}
            >
              <input
                type="radio"
                className="radio"
                name={`poll-${poll.id}`}
                value={o.id}
                checked={picked === o.id}
                onChange={() => {
                  setPicked(o.id);
                  setMessage(null);
                }}
              />
              {tally(o)}
            </label>
          ))}
        </fieldset>
      ) : (
        <ul className="vote-options">
          {poll.options.map((o) => (
            <li key={o.id} className="vote-option">
              {tally(o)}
            </li>
          ))}
        </ul>
      )}
      {choosable ? (
        <Button
          block
          busy={busy}
          data-testid="vote-submit"
          onClick={() => (choice ? setConfirming(true) : setMessage({ kind: 'error', text: t('vote.pickFirst') }))}
        >
          {choice ? t('vote.submitFor', { symbol: choice.symbol }) : t('vote.submit')}
        </Button>
      ) : null}
      {poll.status === 'upcoming' ? (
        <p className="vote-muted">{t('vote.notOpen', { date: formatDateTime(poll.opens_at, lang) })}</p>
      ) : null}
      <p className={message?.kind === 'error' ? 'vote-message is-error' : 'vote-message'} role="status">
        {message ? message.text : poll.my_option_id !== null && poll.status === 'open' ? t('vote.voted') : ''}
      </p>
      <Dialog
        open={confirming}
        title={t('vote.confirm.title')}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              {t('vote.confirm.cancel')}
            </Button>
            <Button onClick={() => void confirm()} data-testid="vote-confirm">
              {t('vote.confirm.ok')}
            </Button>
          </>
        }
      >
        <p>{choice ? t('vote.confirm.text', { name: choice.name, symbol: choice.symbol }) : ''}</p>
      </Dialog>
    </article>
  );
}
