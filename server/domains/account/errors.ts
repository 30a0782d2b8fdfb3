import de from '../../../locales/de/errors/account.json';
import en from '../../../locales/en/errors/account.json';
import es from '../../../locales/es/errors/account.json';
import ja from '../../../locales/ja/errors/account.json';
import ko from '../../../locales/ko/errors/account.json';
import th from '../../../locales/th/errors/account.json';
import zh from '../../../locales/zh/errors/account.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/account.json): its defineDomain names them, compose.ts adds them. */
export const accountErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
