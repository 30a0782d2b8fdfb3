import { describe, expect, it } from 'vitest';
import { currentLang, i18n, loadNamespace, setI18nLanguage, startI18n } from './i18n';

describe('i18n tables', () => {
  it('starts with the shell tables of the active language only, and loads a feature namespace on demand', async () => {
    await startI18n('en');
    expect(currentLang()).toBe('en');
    expect(i18n.hasResourceBundle('en', 'app')).toBe(true);
    expect(i18n.hasResourceBundle('en', 'errors')).toBe(true);
    expect(i18n.hasResourceBundle('de', 'app')).toBe(false);
    expect(i18n.hasResourceBundle('en', 'kline')).toBe(false);
    expect(i18n.t('kline.period')).toBe('kline.period');

    await loadNamespace('kline');
    // The key keeps its full path: found in the feature namespace without a prefix.
    expect(i18n.t('kline.period')).toBe('Timeframe');
    expect(i18n.t('app:kline.period')).toBe('Timeframe');
    expect(i18n.t('tabs.home')).toBe('Home');
    expect(i18n.hasResourceBundle('en', 'wallet')).toBe(false);
  });

  it('loads every namespace asked for so far in the new language before switching', async () => {
    await startI18n('en');
    await loadNamespace('kline');
    await setI18nLanguage('de');
    expect(currentLang()).toBe('de');
    expect(i18n.hasResourceBundle('de', 'app')).toBe(true);
    expect(i18n.hasResourceBundle('de', 'kline')).toBe(true);
    expect(i18n.hasResourceBundle('de', 'wallet')).toBe(false);
    expect(i18n.t('kline.period')).toBe('Zeitraum');
    expect(document.documentElement.lang).toBe('de');
    await setI18nLanguage('en');
  });
});
