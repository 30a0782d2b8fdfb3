import { lazy, type ReactElement, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { activeStateIds } from '../../machines/drawing/current';
import { settings } from '../state/settings';

// Loaded when the setting is on: the order pages' first load carries only this switch.
const MachineChart = lazy(() => import('../components/MachineChart').then((m) => ({ default: m.MachineChart })));

/** What the drawing needs of a live actor's snapshot: its machine and where it is. */
export interface LiveSnapshot {
  value: unknown;
  machine: { id: string };
}

/**
 * "Show order flow" (settings, off by default): an order page's live machine drawn with its current states marked.
 * Every order page uses it the same way, with its machine's registry id.
 */
export function OrderFlow({
  drawing,
  snapshot,
  title,
  announce = false,
}: {
  drawing: string;
  snapshot: LiveSnapshot;
  title: string;
  /** Say each change of state to screen readers (a page about one order; not the rows of a list). */
  announce?: boolean;
}): ReactElement | null {
  const { showOrderFlow } = useSnapshot(settings);
  if (!showOrderFlow) return null;
  return (
    <Suspense fallback={null}>
      <MachineChart
        drawing={drawing}
        current={activeStateIds(snapshot.machine.id, snapshot.value)}
        title={title}
        announce={announce}
      />
    </Suspense>
  );
}
