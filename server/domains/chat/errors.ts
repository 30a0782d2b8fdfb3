import de from '../../../locales/de/errors/chat.json';
import en from '../../../locales/en/errors/chat.json';
import es from '../../../locales/es/errors/chat.json';
import ja from '../../../locales/ja/errors/chat.json';
import ko from '../../../locales/ko/errors/chat.json';
import th from '../../../locales/th/errors/chat.json';
import zh from '../../../locales/zh/errors/chat.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/chat.json): its defineDomain names them, compose.ts adds them. */
export const chatErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
