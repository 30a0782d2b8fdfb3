import de from '../../../locales/de/errors/bank-cards.json';
import en from '../../../locales/en/errors/bank-cards.json';
import es from '../../../locales/es/errors/bank-cards.json';
import ja from '../../../locales/ja/errors/bank-cards.json';
import ko from '../../../locales/ko/errors/bank-cards.json';
import th from '../../../locales/th/errors/bank-cards.json';
import zh from '../../../locales/zh/errors/bank-cards.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/bank-cards.json): its defineDomain names them, compose.ts adds them. */
export const bankCardsErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
