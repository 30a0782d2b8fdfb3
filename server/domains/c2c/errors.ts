import de from '../../../locales/de/errors/c2c.json';
import en from '../../../locales/en/errors/c2c.json';
import es from '../../../locales/es/errors/c2c.json';
import ja from '../../../locales/ja/errors/c2c.json';
import ko from '../../../locales/ko/errors/c2c.json';
import th from '../../../locales/th/errors/c2c.json';
import zh from '../../../locales/zh/errors/c2c.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/c2c.json): its defineDomain names them, compose.ts adds them. */
export const c2cErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
