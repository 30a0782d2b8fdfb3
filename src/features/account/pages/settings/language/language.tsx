import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ALL_LANGS, type Lang, OFFERED_LANGS } from '../../../../../../protocol/lang';
import { changeLanguage } from '../../../../../app/language';
import { Switch } from '../../../../../components/Controls';
import { ListGroup, ListItem } from '../../../../../components/List';
import { Page } from '../../../../../components/Page';
import { setShowAllLangs, settings } from '../../../../../state/settings';
import '../../../account.css';

/** Deutsch and English are offered; "show all translations" reveals the five further tables. */
export default function LanguagePage(): ReactElement {
  const { t } = useTranslation();
  const { lang, showAllLangs } = useSnapshot(settings);
  const extra = ALL_LANGS.filter((l) => !(OFFERED_LANGS as readonly string[]).includes(l));

  const row = (l: Lang) => (
    <li key={l}>
      <label className="list-item is-action" lang={l}>
        <span className="list-text">
          <span className="list-label">{t(`langName.${l}`)}</span>
        </span>
        <input
          type="radio"
          className="radio"
          name="lang"
          value={l}
          checked={l === lang}
          onChange={() => void changeLanguage(l)}
        />
      </label>
    </li>
  );

  return (
    <Page title={t('settings.language')}>
      <section className="list-group">
        <ul className="list" aria-label={t('settings.language')}>
          {OFFERED_LANGS.map(row)}
        </ul>
      </section>
      <ListGroup>
        <ListItem
          label={t('language.showAll')}
          sub={t('language.showAllHint')}
          end={<Switch checked={showAllLangs} onChange={setShowAllLangs} label={t('language.showAll')} />}
        />
      </ListGroup>
      {showAllLangs ? (
        <section className="list-group">
          <h2 className="list-title">{t('language.more')}</h2>
          <ul className="list" aria-label={t('language.more')}>
            {extra.map(row)}
          </ul>
        </section>
      ) : null}
    </Page>
  );
}
