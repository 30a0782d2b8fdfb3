import { type HTMLAttributes, type PointerEvent, useMemo, useRef } from 'react';

/** How long a finger rests on a row before it counts as held (the platforms' long-press time). */
export const HOLD_MS = 500;
/** How far a finger may drift while holding (more is a scroll). */
const SLOP_PX = 10;

const symbolAt = (target: EventTarget): string | null =>
  target instanceof Element ? (target.closest('[data-symbol]')?.getAttribute('data-symbol') ?? null) : null;

/**
 * Handlers for a list of rows marked `data-symbol` that call `onHold(symbol)` when a row is held (touch or pen, on
 * every platform: iOS fires no context menu for it) or its context menu is asked for (a right click, the menu key).
 * The tap that ends a hold does not also open the row's link.
 */
export function useRowHold(onHold: (symbol: string) => void): HTMLAttributes<HTMLElement> {
  const hold = useRef<{ timer: number; x: number; y: number } | null>(null);
  const fired = useRef(false);
  const latest = useRef(onHold);
  latest.current = onHold;
  return useMemo(() => {
    const stop = () => {
      if (hold.current) window.clearTimeout(hold.current.timer);
      hold.current = null;
    };
    return {
      onPointerDown: (e: PointerEvent) => {
        stop();
        fired.current = false;
        const symbol = symbolAt(e.target);
        if (e.pointerType === 'mouse' || symbol === null) return;
        const timer = window.setTimeout(() => {
          hold.current = null;
          fired.current = true;
          latest.current(symbol);
        }, HOLD_MS);
        hold.current = { timer, x: e.clientX, y: e.clientY };
      },
      onPointerMove: (e: PointerEvent) => {
        const at = hold.current;
        if (at && Math.hypot(e.clientX - at.x, e.clientY - at.y) > SLOP_PX) stop();
      },
      onPointerUp: stop,
      onPointerCancel: stop,
      onClickCapture: (e) => {
        if (!fired.current) return;
        fired.current = false;
        e.preventDefault();
        e.stopPropagation();
      },
      onContextMenu: (e) => {
        const symbol = symbolAt(e.target);
        if (symbol === null) return;
        e.preventDefault();
        stop();
        latest.current(symbol);
      },
    };
  }, []);
}
