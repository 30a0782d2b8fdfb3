import de from '../../../locales/de/errors/wallet-login.json';
import en from '../../../locales/en/errors/wallet-login.json';
import es from '../../../locales/es/errors/wallet-login.json';
import ja from '../../../locales/ja/errors/wallet-login.json';
import ko from '../../../locales/ko/errors/wallet-login.json';
import th from '../../../locales/th/errors/wallet-login.json';
import zh from '../../../locales/zh/errors/wallet-login.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/wallet-login.json): its defineDomain names them, compose.ts adds them. */
export const walletLoginErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
