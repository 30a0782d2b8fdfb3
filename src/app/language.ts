import { setServerLang } from '../../core/api/account';
import type { Lang } from '../../protocol/lang';
import { setI18nLanguage } from '../lib/i18n';
import { storeLang } from '../state/settings';

/** Switches the interface language: stored locally (lang and language-mark), applied to i18n and <html lang>, told to the server. */
export async function changeLanguage(lang: Lang): Promise<void> {
  storeLang(lang);
  await setI18nLanguage(lang);
  await setServerLang(lang);
}
