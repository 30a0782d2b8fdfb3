import de from '../../../locales/de/errors/spot.json';
import en from '../../../locales/en/errors/spot.json';
import es from '../../../locales/es/errors/spot.json';
import ja from '../../../locales/ja/errors/spot.json';
import ko from '../../../locales/ko/errors/spot.json';
import th from '../../../locales/th/errors/spot.json';
import zh from '../../../locales/zh/errors/spot.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/spot.json): its defineDomain names them, compose.ts adds them. */
export const spotErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
