import de from '../../../locales/de/errors/uploads.json';
import en from '../../../locales/en/errors/uploads.json';
import es from '../../../locales/es/errors/uploads.json';
import ja from '../../../locales/ja/errors/uploads.json';
import ko from '../../../locales/ko/errors/uploads.json';
import th from '../../../locales/th/errors/uploads.json';
import zh from '../../../locales/zh/errors/uploads.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/uploads.json): its defineDomain names them, compose.ts adds them. */
export const uploadsErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
