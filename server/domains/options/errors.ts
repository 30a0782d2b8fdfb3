import de from '../../../locales/de/errors/options.json';
import en from '../../../locales/en/errors/options.json';
import es from '../../../locales/es/errors/options.json';
import ja from '../../../locales/ja/errors/options.json';
import ko from '../../../locales/ko/errors/options.json';
import th from '../../../locales/th/errors/options.json';
import zh from '../../../locales/zh/errors/options.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/options.json): its defineDomain names them, compose.ts adds them. */
export const optionsErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
