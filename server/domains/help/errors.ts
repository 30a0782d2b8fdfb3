import de from '../../../locales/de/errors/help.json';
import en from '../../../locales/en/errors/help.json';
import es from '../../../locales/es/errors/help.json';
import ja from '../../../locales/ja/errors/help.json';
import ko from '../../../locales/ko/errors/help.json';
import th from '../../../locales/th/errors/help.json';
import zh from '../../../locales/zh/errors/help.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/help.json): its defineDomain names them, compose.ts adds them. */
export const helpErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
