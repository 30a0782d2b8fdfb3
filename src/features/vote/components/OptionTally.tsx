import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { PollOption } from '../../../../protocol/polls';
import { Icon } from '../../../components/Icon';
import { barWidth, formatShare } from '../format';

/**
 * One coin of a poll with its tally: symbol and name, the marks (the viewer's own vote, the result's leader), the count
 * and share in words, and a bar for the eye (hidden from screen readers, which read the words).
 */
export function OptionTally({
  option,
  total,
  mine,
  leading,
}: {
  option: PollOption;
  total: number;
  mine: boolean;
  leading: boolean;
}): ReactElement {
  const { t, i18n } = useTranslation();
  return (
    <span className="vote-tally">
      <span className="vote-tally-top">
        <span className="vote-coin">
          <span className="vote-symbol">{option.symbol}</span>
          <span className="vote-name">{option.name}</span>
        </span>
        <span className="vote-count" data-testid="vote-count">
          {t('vote.share', {
            votes: t('vote.votes', { count: option.votes }),
            percent: formatShare(option.votes, total, i18n.language),
          })}
        </span>
      </span>
      {mine || leading ? (
        <span className="vote-marks">
          {mine ? (
            <span className="badge vote-mark is-mine" data-testid="vote-mine">
              <Icon name="check" size={12} />
              {t('vote.yours')}
            </span>
          ) : null}
          {leading ? (
            <span className="badge vote-mark is-leading" data-testid="vote-leading">
              <Icon name="star" size={12} />
              {t('vote.leading')}
            </span>
          ) : null}
        </span>
      ) : null}
      <span className="vote-bar" aria-hidden="true">
        <span
          className={mine ? 'vote-bar-fill is-mine' : 'vote-bar-fill'}
          style={{ width: barWidth(option.votes, total) }}
        />
      </span>
    </span>
  );
}
