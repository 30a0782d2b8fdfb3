import de from '../../../locales/de/errors/alerts.json';
import en from '../../../locales/en/errors/alerts.json';
import es from '../../../locales/es/errors/alerts.json';
import ja from '../../../locales/ja/errors/alerts.json';
import ko from '../../../locales/ko/errors/alerts.json';
import th from '../../../locales/th/errors/alerts.json';
import zh from '../../../locales/zh/errors/alerts.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/alerts.json): its defineDomain names them, compose.ts adds them. */
export const alertsErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
