import { proxy } from 'valtio';

/** Shell state that is not persisted. */
export const ui = proxy({ menuOpen: false });

export function setMenuOpen(open: boolean): void {
  ui.menuOpen = open;
}
