import { proxy } from 'valtio';

export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  text: string;
  kind: ToastKind;
}

export const TOAST_MS = 2500;
const MAX_TOASTS = 3;

export const toasts = proxy<{ items: Toast[] }>({ items: [] });

let nextId = 1;

export function dismissToast(id: number): void {
  const i = toasts.items.findIndex((t) => t.id === id);
  if (i >= 0) toasts.items.splice(i, 1);
}

/** Shows a short message; the same text is not stacked twice. */
export function toast(text: string, kind: ToastKind = 'info', ms = TOAST_MS): number {
  const same = toasts.items.find((t) => t.text === text);
  if (same) dismissToast(same.id);
  const id = nextId++;
  toasts.items.push({ id, text, kind });
  while (toasts.items.length > MAX_TOASTS) toasts.items.shift();
  setTimeout(() => dismissToast(id), ms);
  return id;
}
