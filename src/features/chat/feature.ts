import type strings from '../../../locales/en/chat.json';
import type { Feature } from '../../lib/feature';

export const chat: Feature = {
  namespace: 'chat',
  pages: [
    // Customer service and C2C order chats (the chat feature); a conversation is its members' only.
    { path: '/pages/help/center/chat', load: () => import('./pages/help/center/chat'), auth: true },
    { path: '/pages/help/center/chat2', load: () => import('./pages/help/center/chat2'), auth: true },
    { path: '/pages/help/center/newchat', load: () => import('./pages/help/center/newchat'), auth: true },
    { path: '/pages/help/center/otcChat', load: () => import('./pages/help/center/otcChat'), auth: true },
    { path: '/pages/help/center/newotcChat', load: () => import('./pages/help/center/newotcChat'), auth: true },
  ],
  menu: [{ at: 8, path: '/pages/help/center/chat', labelKey: 'menu.contact', icon: 'mail' }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    chat: typeof strings;
  }
}
