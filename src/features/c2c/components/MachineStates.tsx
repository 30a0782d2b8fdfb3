import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { orderGraph } from '../machine-graph';

/**
 * The order's state machine, drawn from the machine itself, with this order's current state marked: QA follows the
 * live order on it (DESIGN "Who uses it").
 */
export function MachineStates({ current }: { current: string }): ReactElement {
  const { t } = useTranslation();
  const graph = orderGraph();
  return (
    <details className="card c2c-machine" data-testid="c2c-machine">
      <summary className="c2c-section-title">{t('c2c.machine.title')}</summary>
      <p className="c2c-muted-text">{t('c2c.machine.note')}</p>
      <p className="c2c-machine-any">
        <span className="c2c-machine-state">{t('c2c.machine.any')}</span>
        {graph.root.map((e) => (
          <span key={e.event} className="c2c-machine-edge">
            <code>{e.event}</code> → <code>{e.targets.join(', ')}</code>
          </span>
        ))}
      </p>
      <ol className="c2c-machine-list">
        {graph.nodes.map((n) => (
          <li
            key={n.state}
            className={n.state === current ? 'is-current' : undefined}
            aria-current={n.state === current ? 'step' : undefined}
            data-machine-state={n.state}
          >
            <span className="c2c-machine-state">
              <code>{n.state}</code>
              {n.state === current ? <span className="badge c2c-machine-here">{t('c2c.machine.current')}</span> : null}
            </span>
            {n.edges.map((e) => (
              <span key={e.event} className="c2c-machine-edge">
                <code>{e.event}</code> → <code>{e.targets.join(', ')}</code>
              </span>
            ))}
          </li>
        ))}
      </ol>
    </details>
  );
}
