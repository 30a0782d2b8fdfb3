import de from '../../../locales/de/errors/finance.json';
import en from '../../../locales/en/errors/finance.json';
import es from '../../../locales/es/errors/finance.json';
import ja from '../../../locales/ja/errors/finance.json';
import ko from '../../../locales/ko/errors/finance.json';
import th from '../../../locales/th/errors/finance.json';
import zh from '../../../locales/zh/errors/finance.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/finance.json): its defineDomain names them, compose.ts adds them. */
export const financeErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
