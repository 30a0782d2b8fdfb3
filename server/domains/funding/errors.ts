import de from '../../../locales/de/errors/funding.json';
import en from '../../../locales/en/errors/funding.json';
import es from '../../../locales/es/errors/funding.json';
import ja from '../../../locales/ja/errors/funding.json';
import ko from '../../../locales/ko/errors/funding.json';
import th from '../../../locales/th/errors/funding.json';
import zh from '../../../locales/zh/errors/funding.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/funding.json): its defineDomain names them, compose.ts adds them. */
export const fundingErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
