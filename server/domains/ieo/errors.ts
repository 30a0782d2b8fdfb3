import de from '../../../locales/de/errors/ieo.json';
import en from '../../../locales/en/errors/ieo.json';
import es from '../../../locales/es/errors/ieo.json';
import ja from '../../../locales/ja/errors/ieo.json';
import ko from '../../../locales/ko/errors/ieo.json';
import th from '../../../locales/th/errors/ieo.json';
import zh from '../../../locales/zh/errors/ieo.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/ieo.json): its defineDomain names them, compose.ts adds them. */
export const ieoErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
