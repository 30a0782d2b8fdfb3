import type { LoginTarget } from './guard';

/** How code outside React (the API client) moves the app; the router registers itself at start. */
export type Navigate = (
  target: LoginTarget | { to: string; search?: Record<string, unknown> },
  replace?: boolean,
) => void;

let navigator: Navigate | null = null;

export function setNavigator(fn: Navigate | null): void {
  navigator = fn;
}

export function navigateTo(target: Parameters<Navigate>[0], replace = false): void {
  if (navigator) {
    navigator(target, replace);
    return;
  }
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(target.search ?? {})) if (v !== undefined) qs.set(k, String(v));
  const href = qs.size > 0 ? `${target.to}?${qs}` : target.to;
  if (replace) globalThis.location?.replace(href);
  else globalThis.location?.assign(href);
}

/** The path the user is on, with its query, as a backpage. */
export function currentHref(): string {
  const loc = globalThis.location;
  return loc ? `${loc.pathname}${loc.search}` : '/';
}
