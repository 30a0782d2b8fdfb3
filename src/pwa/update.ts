import type { ReactElement } from 'react';
import { proxy } from 'valtio';

/**
 * A new version of the app is installed and waiting (its service worker is `waiting`). The registration
 * (service-worker.ts, a chunk loaded after the first render) puts its prompt here and the shell's bar (PwaBar) shows
 * it, so the prompt's code loads with the registration, not with every route's shell.
 */
export const appUpdate = proxy<{ prompt: (() => ReactElement) | null }>({ prompt: null });
