import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { HELP_TOPICS, type HelpArticleSummary } from '../../../../protocol/help';
import { Icon } from '../../../components/Icon';

export const DETAIL_PATH = '/pages/help/center/detail';

/** The `lang` attribute of a text in another language than the interface (a reader in Japanese reads English). */
export const langIfOther = (textLang: string, uiLang: string) => (textLang === uiLang ? undefined : textLang);

function ArticleRow({ article: a, showTopic }: { article: HelpArticleSummary; showTopic: boolean }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = langIfOther(a.lang, i18n.language);
  return (
    <li>
      <Link to={DETAIL_PATH} search={{ id: a.id }} className="help-row" data-testid={`help-article-${a.id}`}>
        <span className="help-row-text">
          {showTopic ? <span className="help-row-topic">{t(`help.topics.${a.topic}`)}</span> : null}
          <span className="help-row-title" lang={lang}>
            {a.title}
          </span>
          {a.excerpt ? (
            <span className="help-row-excerpt" lang={lang}>
              {a.excerpt}
            </span>
          ) : null}
        </span>
        <Icon name="chevron" size={18} className="help-row-chevron" />
      </Link>
    </li>
  );
}

/**
 * The articles: one section per topic when `grouped` (the whole help centre), else one list whose rows name their
 * topic when `showTopic` (search results across topics).
 */
export function ArticleList({
  articles,
  grouped,
  showTopic,
}: {
  articles: readonly HelpArticleSummary[];
  grouped: boolean;
  showTopic: boolean;
}): ReactElement {
  const { t } = useTranslation();
  if (!grouped) {
    return (
      <ul className="help-list" data-testid="help-articles">
        {articles.map((a) => (
          <ArticleRow key={a.id} article={a} showTopic={showTopic} />
        ))}
      </ul>
    );
  }
  return (
    <div className="help-groups" data-testid="help-articles">
      {HELP_TOPICS.map((topic) => {
        const inTopic = articles.filter((a) => a.topic === topic);
        if (inTopic.length === 0) return null;
        return (
          <section key={topic} className="help-group" aria-labelledby={`help-group-${topic}`}>
            <h2 className="help-group-title" id={`help-group-${topic}`}>
              {t(`help.topics.${topic}`)}
            </h2>
            <ul className="help-list">
              {inTopic.map((a) => (
                <ArticleRow key={a.id} article={a} showTopic={false} />
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
