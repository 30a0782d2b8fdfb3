import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { isLang, type Lang, OFFERED_LANGS } from '../../protocol/lang';
import { Icon } from '../components/Icon';
import { setI18nLanguage } from '../lib/i18n';
import { settings, storeLang, toggleTheme } from '../state/settings';

/** Theme and language switches (the console's language is the stored app language; German and English offered). */
export function ConsoleTools(): ReactElement {
  const { t } = useTranslation();
  const { theme, lang } = useSnapshot(settings);
  const change = (next: Lang) => {
    storeLang(next);
    void setI18nLanguage(next);
  };
  return (
    <div className="ops-tools">
      <label className="ops-lang">
        <span className="ops-sr">{t('console.language')}</span>
        <Icon name="globe" size={18} />
        <select value={lang} onChange={(e) => isLang(e.target.value) && change(e.target.value)}>
          {OFFERED_LANGS.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(`console.languages.${l}`)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="ops-icon-btn"
        onClick={toggleTheme}
        aria-label={t(theme === 'dark' ? 'console.theme.light' : 'console.theme.dark')}
      >
        <Icon name={theme === 'dark' ? 'sun' : 'moon'} size={18} />
      </button>
    </div>
  );
}
