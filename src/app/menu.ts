import type { MenuEntry } from '../lib/feature';
import { FEATURES } from './features';

/** SPEC 2: the left menu, in order, from the features' entries. */
export const MENU: readonly MenuEntry[] = FEATURES.flatMap((f) => f.menu ?? []).sort((a, b) => a.at - b.at);
