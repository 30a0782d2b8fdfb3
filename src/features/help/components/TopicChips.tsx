import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { HelpTopic, HelpTopicCount } from '../../../../protocol/help';

/** The topics that have articles, as chips (one pressed at most); "All" shows every topic. */
export function TopicChips({
  topics,
  value,
  onChange,
}: {
  topics: readonly HelpTopicCount[];
  value: HelpTopic | null;
  onChange: (topic: HelpTopic | null) => void;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <fieldset className="help-topics" data-testid="help-topics">
      <legend className="visually-hidden">{t('help.topics.label')}</legend>
      <div className="help-chips">
        <button
          type="button"
          className={value === null ? 'help-chip is-active' : 'help-chip'}
          aria-pressed={value === null}
          onClick={() => onChange(null)}
        >
          {t('help.topics.all')}
        </button>
        {topics.map(({ topic, count }) => (
          <button
            key={topic}
            type="button"
            className={value === topic ? 'help-chip is-active' : 'help-chip'}
            aria-pressed={value === topic}
            onClick={() => onChange(value === topic ? null : topic)}
            data-testid={`help-topic-${topic}`}
          >
            {t(`help.topics.${topic}`)}
            <span className="help-chip-count">{count}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}
