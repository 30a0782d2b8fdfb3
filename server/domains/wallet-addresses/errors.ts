import de from '../../../locales/de/errors/wallet-addresses.json';
import en from '../../../locales/en/errors/wallet-addresses.json';
import es from '../../../locales/es/errors/wallet-addresses.json';
import ja from '../../../locales/ja/errors/wallet-addresses.json';
import ko from '../../../locales/ko/errors/wallet-addresses.json';
import th from '../../../locales/th/errors/wallet-addresses.json';
import zh from '../../../locales/zh/errors/wallet-addresses.json';
import type { DomainMessages } from '../../platform/i18n/messages';

/** This domain's refusal messages (locales/<lang>/errors/wallet-addresses.json): its defineDomain names them, compose.ts adds them. */
export const walletAddressesErrors: DomainMessages = { de, en, es, ja, ko, th, zh };

declare module '../../platform/i18n/messages' {
  /** The keys this domain adds to the server's messages, so its BusinessErrors type-check. */
  interface DomainMessageKeys extends Record<keyof typeof de, true> {}
}
