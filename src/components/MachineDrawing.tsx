import type { ReactElement } from 'react';
import type { MachineGraph } from '../../machines/graph';

/**
 * A state machine drawn from the machine itself (machines/graph.ts), with a live order's current state marked: QA
 * follows the order on it (DESIGN "Who uses it"). Texts come in translated; `labelOf` may name a state for people.
 */
export function MachineDrawing({
  graph,
  current,
  title,
  note,
  anyState,
  here,
  labelOf,
  testId,
}: {
  graph: MachineGraph;
  current: string;
  title: string;
  note: string;
  /** The heading of the transitions every state has. */
  anyState: string;
  /** The badge on the current state. */
  here: string;
  labelOf?: (state: string) => string | null;
  testId: string;
}): ReactElement {
  return (
    <details className="card machine-drawing" data-testid={testId}>
      <summary className="machine-title">{title}</summary>
      <p className="machine-note">{note}</p>
      <p className="machine-any">
        <span className="machine-state">{anyState}</span>
        {graph.root.map((e) => (
          <span key={e.event} className="machine-edge">
            <code>{e.event}</code> → <code>{e.targets.join(', ')}</code>
          </span>
        ))}
      </p>
      <ol className="machine-list">
        {graph.nodes.map((n) => {
          const label = labelOf?.(n.state) ?? null;
          return (
            <li
              key={n.state}
              className={n.state === current ? 'machine-step is-current' : 'machine-step'}
              aria-current={n.state === current ? 'step' : undefined}
              data-machine-state={n.state}
            >
              <span className="machine-state">
                <code>{n.state}</code>
                {label ? <span className="machine-label">{label}</span> : null}
                {n.state === current ? <span className="badge machine-here">{here}</span> : null}
              </span>
              {n.edges.map((e) => (
                <span key={e.event} className="machine-edge">
                  <code>{e.event}</code> → <code>{e.targets.join(', ')}</code>
                </span>
              ))}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
