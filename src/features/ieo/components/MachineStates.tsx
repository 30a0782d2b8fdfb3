import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { labelOf } from '../../../../machines/ieo/steps';
import { isStep, subscriptionGraph } from '../machine-graph';

/**
 * The subscription's state machine, drawn from the machine itself, with this order's current state marked: QA
 * follows the live order on it (DESIGN "Who uses it").
 */
export function MachineStates({ current }: { current: string }): ReactElement {
  const { t } = useTranslation();
  const graph = subscriptionGraph();
  return (
    <details className="card ieo-machine" data-testid="ieo-machine">
      <summary className="ieo-section-title">{t('ieo.machine.title')}</summary>
      <p className="ieo-muted">{t('ieo.machine.note')}</p>
      <p className="ieo-machine-any">
        <span className="ieo-machine-state">{t('ieo.machine.any')}</span>
        {graph.root.map((e) => (
          <span key={e.event} className="ieo-machine-edge">
            <code>{e.event}</code> → <code>{e.targets.join(', ')}</code>
          </span>
        ))}
      </p>
      <ol className="ieo-machine-list">
        {graph.nodes.map((n) => (
          <li
            key={n.state}
            className={n.state === current ? 'is-current' : undefined}
            aria-current={n.state === current ? 'step' : undefined}
            data-machine-state={n.state}
          >
            <span className="ieo-machine-state">
              <code>{n.state}</code>
              {isStep(n.state) ? <span className="ieo-machine-label">{t(`ieo.label.${labelOf(n.state)}`)}</span> : null}
              {n.state === current ? <span className="badge ieo-machine-here">{t('ieo.machine.current')}</span> : null}
            </span>
            {n.edges.map((e) => (
              <span key={e.event} className="ieo-machine-edge">
                <code>{e.event}</code> → <code>{e.targets.join(', ')}</code>
              </span>
            ))}
          </li>
        ))}
      </ol>
    </details>
  );
}
