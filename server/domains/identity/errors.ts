import de from '../../../locales/de/errors/identity.json';
import en from '../../../locales/en/errors/identity.json';
import es from '../../../locales/es/errors/identity.json';
import ja from '../../../locales/ja/errors/identity.json';
import ko from '../../../locales/ko/errors/identity.json';
import th from '../../../locales/th/errors/identity.json';
import zh from '../../../locales/zh/errors/identity.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/identity.json): its defineDomain names them, compose.ts adds them. */
export const identityErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
