import { proxy, subscribe } from 'valtio';
import { type User, user as userSchema } from '../../protocol/account';
import { readPersistedApp, STORE_VERSION, settings } from './settings';
import { STORAGE_KEYS, writeStorage } from './storage';

export interface Session {
  token: string | null;
  user: User | null;
}

function initialSession(): Session {
  const persisted = readPersistedApp();
  const token = typeof persisted.token === 'string' && persisted.token !== '' ? persisted.token : null;
  const parsedUser = userSchema.safeParse(persisted.user);
  return token && parsedUser.success ? { token, user: parsedUser.data } : { token: null, user: null };
}

export const session = proxy<Session>(initialSession());

export const isLoggedIn = (s: Session = session): boolean => Boolean(s.token && s.user);

export function setSession(token: string, user: User): void {
  session.token = token;
  session.user = user;
}

export function setUser(user: User): void {
  session.user = user;
}

export function clearSession(): void {
  session.token = null;
  session.user = null;
}

/** Session and theme are persisted together under one key with the store version (SPEC 3). */
export function persistApp(): void {
  writeStorage(
    STORAGE_KEYS.app,
    JSON.stringify({ version: STORE_VERSION, theme: settings.theme, token: session.token, user: session.user }),
  );
}

subscribe(session, persistApp);
subscribe(settings, persistApp);
