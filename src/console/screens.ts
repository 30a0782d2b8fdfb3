import { type ComponentType, lazy } from 'react';
import { hasOpsRole, type OpsRole } from '../../protocol/ops-console';
import type { IconName } from '../components/Icon';
import { AuditScreen } from './screens/AuditScreen';
import { DepositsScreen } from './screens/DepositsScreen';
import { KycScreen } from './screens/KycScreen';
import { WithdrawalsScreen } from './screens/WithdrawalsScreen';

/**
 * The console's screens, grouped as the navigation shows them. A screen appears in the navigation only when it is
 * listed here and the operator's roles allow it (admin sees every one); a group without a screen is not shown.
 * Each screen is at /ops/<id>.
 */
/** Screens loaded on first use: the console's first paint carries only the review queues. */
const AppealsScreen = lazy(() => import('./screens/AppealsScreen').then((m) => ({ default: m.AppealsScreen })));
const SupportScreen = lazy(() => import('./screens/SupportScreen').then((m) => ({ default: m.SupportScreen })));
const HelpArticlesScreen = lazy(() =>
  import('./screens/HelpArticlesScreen').then((m) => ({ default: m.HelpArticlesScreen })),
);
const NewsScreen = lazy(() => import('./screens/NewsScreen').then((m) => ({ default: m.NewsScreen })));
/** The order machines with their test paths: the drawings and paths load only with it (and never the machines). */
const MachinesScreen = lazy(() => import('./screens/MachinesScreen').then((m) => ({ default: m.MachinesScreen })));
/** Orders followed live on their machines, as the app's actors report them. */
const LiveOrdersScreen = lazy(() =>
  import('./screens/LiveOrdersScreen').then((m) => ({ default: m.LiveOrdersScreen })),
);

export interface ConsoleScreen {
  id: string;
  role: OpsRole;
  /** Its name in the navigation and its heading: a key of the `console` namespace. */
  label: `console.nav.${string}`;
  icon: IconName;
  Component: ComponentType;
}

export interface ScreenGroup {
  label: `console.navGroup.${string}`;
  screens: readonly ConsoleScreen[];
}

export const SCREEN_GROUPS: readonly ScreenGroup[] = [
  {
    label: 'console.navGroup.review',
    screens: [
      { id: 'deposits', role: 'reviewer', label: 'console.nav.deposits', icon: 'assets', Component: DepositsScreen },
      {
        id: 'withdrawals',
        role: 'reviewer',
        label: 'console.nav.withdrawals',
        icon: 'card',
        Component: WithdrawalsScreen,
      },
      { id: 'kyc', role: 'reviewer', label: 'console.nav.kyc', icon: 'shield', Component: KycScreen },
      { id: 'appeals', role: 'reviewer', label: 'console.nav.appeals', icon: 'alert', Component: AppealsScreen },
    ],
  },
  {
    label: 'console.navGroup.support',
    screens: [
      { id: 'support', role: 'support', label: 'console.nav.support', icon: 'mail', Component: SupportScreen },
      { id: 'help', role: 'support', label: 'console.nav.help', icon: 'info', Component: HelpArticlesScreen },
      { id: 'news', role: 'support', label: 'console.nav.news', icon: 'document', Component: NewsScreen },
    ],
  },
  {
    label: 'console.navGroup.qa',
    screens: [
      { id: 'machines', role: 'qa', label: 'console.nav.machines', icon: 'layers', Component: MachinesScreen },
      { id: 'live', role: 'qa', label: 'console.nav.liveOrders', icon: 'pulse', Component: LiveOrdersScreen },
    ],
  },
  {
    label: 'console.navGroup.admin',
    screens: [{ id: 'audit', role: 'admin', label: 'console.nav.audit', icon: 'document', Component: AuditScreen }],
  },
];

/** The groups and screens an operator with `roles` may open, in navigation order. */
export function screensFor(roles: readonly OpsRole[]): ScreenGroup[] {
  return SCREEN_GROUPS.map((g) => ({ ...g, screens: g.screens.filter((s) => hasOpsRole(roles, s.role)) })).filter(
    (g) => g.screens.length > 0,
  );
}

/** The screen id of a console path (`/ops/kyc` → `kyc`; `/ops` → null). */
export function screenIdOf(pathname: string): string | null {
  const m = /^\/ops\/([a-z0-9-]+)\/?$/.exec(pathname);
  return m?.[1] ?? null;
}
