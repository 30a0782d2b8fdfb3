import { type ReactElement, type ReactNode, type TouchEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

/** How far the content must be pulled (after resistance) before letting go refreshes. */
export const PULL_THRESHOLD = 64;
/** The content follows the finger at this fraction of the drag, up to PULL_MAX. */
const RESISTANCE = 0.5;
const PULL_MAX = 110;

type Phase = 'idle' | 'pulling' | 'armed' | 'refreshing';

/** Degrees the arrow has turned: half a turn at the threshold. */
const turn = (pull: number): number => Math.trunc((Math.min(pull, PULL_THRESHOLD) / PULL_THRESHOLD) * 180);

/** The page is scrolled to its very top (pages scroll the document; a nested scroller is not tracked). */
function atTop(): boolean {
  const scrolled = globalThis.scrollY || document.scrollingElement?.scrollTop || 0;
  return scrolled <= 0;
}

/**
 * SPEC 2 "pull-to-refresh": dragging the page down from its top past a threshold shows a spinner and runs
 * `onRefresh`; letting go earlier springs back. The same refresh is a real button for keyboard, screen-reader and
 * mouse users (visually hidden on touch screens until it gets focus). One refresh runs at a time.
 */
export function PullToRefresh({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>;
  children: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  const [pull, setPull] = useState(0);
  const [phase, setPhase] = useState<Phase>('idle');
  const startY = useRef<number | null>(null);
  /** Whether letting go now refreshes (a ref: touchend may come before the render of the last move). */
  const armed = useRef(false);
  const running = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const refresh = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setPhase('refreshing');
    setPull(PULL_THRESHOLD);
    try {
      await onRefresh();
    } catch {
      // The caller reports its own failures; the indicator just goes away.
    } finally {
      running.current = false;
      if (alive.current) {
        setPhase('idle');
        setPull(0);
      }
    }
  }, [onRefresh]);

  const onTouchStart = (e: TouchEvent) => {
    const touch = e.touches[0];
    startY.current = touch && e.touches.length === 1 && !running.current && atTop() ? touch.clientY : null;
  };
  const onTouchMove = (e: TouchEvent) => {
    const touch = e.touches[0];
    if (startY.current === null || !touch) return;
    const dy = touch.clientY - startY.current;
    if (dy <= 0 || !atTop()) {
      armed.current = false;
      setPull(0);
      setPhase('idle');
      return;
    }
    const next = Math.min(PULL_MAX, dy * RESISTANCE);
    armed.current = next >= PULL_THRESHOLD;
    setPull(next);
    setPhase(armed.current ? 'armed' : 'pulling');
  };
  const onTouchEnd = () => {
    if (startY.current === null) return;
    startY.current = null;
    const go = armed.current;
    armed.current = false;
    if (go) void refresh();
    else {
      setPull(0);
      setPhase('idle');
    }
  };

  const label = phase === 'refreshing' ? t('pull.refreshing') : phase === 'armed' ? t('pull.release') : t('pull.pull');
  return (
    <div
      className={`ptr ptr-${phase}`}
      data-testid="pull-to-refresh"
      data-phase={phase}
      onTouchStart={onTouchStart}
      onTouchMove={onTouchMove}
      onTouchEnd={onTouchEnd}
      onTouchCancel={onTouchEnd}
    >
      <div className="ptr-indicator" style={{ height: pull }} aria-hidden={phase === 'idle' ? true : undefined}>
        {phase === 'refreshing' ? (
          <span className="spinner" aria-hidden="true" />
        ) : (
          // The arrow turns as the pull nears the threshold.
          <span className="ptr-arrow" style={{ transform: `rotate(${turn(pull)}deg)` }}>
            <Icon name="refresh" size={20} />
          </span>
        )}
        {phase === 'idle' ? null : <span className="ptr-label">{label}</span>}
      </div>
      <p className="visually-hidden" role="status">
        {phase === 'refreshing' ? t('pull.refreshing') : ''}
      </p>
      <div className="ptr-bar">
        <button
          type="button"
          className="ptr-button"
          onClick={() => void refresh()}
          disabled={phase === 'refreshing'}
          aria-busy={phase === 'refreshing' || undefined}
        >
          <Icon name="refresh" size={16} />
          <span>{t('pull.refresh')}</span>
        </button>
      </div>
      {children}
    </div>
  );
}
