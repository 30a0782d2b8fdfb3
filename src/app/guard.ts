/** SPEC 4: with no token or user the app goes to login with a backpage and a backtype; not again within 1 s. */
export const LOGIN_PATH = '/pages/user/login/login';
export const GUARD_LOCK_MS = 1000;

/** 1: an ordinary page (default); 2: a tab page. */
export type BackType = 1 | 2;

export interface LoginTarget {
  to: typeof LOGIN_PATH;
  search: { backpage: string; backtype: BackType };
}

export interface GuardResult {
  /** false when a redirect already happened within the lock window: the earlier target is kept, nothing new is stacked. */
  fresh: boolean;
  target: LoginTarget;
}

/** A backpage must be a path inside the app (no scheme, no protocol-relative `//host`), and never the login page itself. */
export function safeBackpage(raw: unknown): string | null {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`)) return null;
  return raw;
}

export function createLoginGuard(now: () => number = () => Date.now()) {
  let last: { at: number; target: LoginTarget } | null = null;
  return {
    /** Records a redirect to login for `backpage` and says whether it is a new one. */
    trigger(backpage: string, isTab: boolean): GuardResult {
      const t = now();
      if (last && t - last.at < GUARD_LOCK_MS) return { fresh: false, target: last.target };
      const target: LoginTarget = {
        to: LOGIN_PATH,
        search: { backpage: safeBackpage(backpage) ?? '/', backtype: isTab ? 2 : 1 },
      };
      last = { at: t, target };
      return { fresh: true, target };
    },
    reset(): void {
      last = null;
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;

/** The app's guard; route checks and the type-999 handler share it so they never stack two logins. */
export const loginGuard = createLoginGuard();

/** What a protected route does: null to show the page, or where to send the visitor. */
export function checkLogin(
  guard: LoginGuard,
  loggedIn: boolean,
  href: string,
  isTab: boolean,
): { target: LoginTarget; replace: boolean } | null {
  if (loggedIn) return null;
  const r = guard.trigger(href, isTab);
  return { target: r.target, replace: !r.fresh };
}
