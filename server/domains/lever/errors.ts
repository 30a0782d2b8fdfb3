import de from '../../../locales/de/errors/lever.json';
import en from '../../../locales/en/errors/lever.json';
import es from '../../../locales/es/errors/lever.json';
import ja from '../../../locales/ja/errors/lever.json';
import ko from '../../../locales/ko/errors/lever.json';
import th from '../../../locales/th/errors/lever.json';
import zh from '../../../locales/zh/errors/lever.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/lever.json): its defineDomain names them, compose.ts adds them. */
export const leverErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
