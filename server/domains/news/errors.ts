import de from '../../../locales/de/errors/news.json';
import en from '../../../locales/en/errors/news.json';
import es from '../../../locales/es/errors/news.json';
import ja from '../../../locales/ja/errors/news.json';
import ko from '../../../locales/ko/errors/news.json';
import th from '../../../locales/th/errors/news.json';
import zh from '../../../locales/zh/errors/news.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/news.json): its defineDomain names them, compose.ts adds them. */
export const newsErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
