import de from '../../../locales/de/errors/operators.json';
import en from '../../../locales/en/errors/operators.json';
import es from '../../../locales/es/errors/operators.json';
import ja from '../../../locales/ja/errors/operators.json';
import ko from '../../../locales/ko/errors/operators.json';
import th from '../../../locales/th/errors/operators.json';
import zh from '../../../locales/zh/errors/operators.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/operators.json): its defineDomain names them, compose.ts adds them. */
export const operatorsErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
