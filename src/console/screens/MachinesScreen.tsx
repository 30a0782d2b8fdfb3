import { useQuery } from '@tanstack/react-query';
import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { MachineChart } from '../../components/MachineChart';
import { type MachineDoc, machineDoc, machineIdOf, pathsByWalk, START_EVENT, type TestPath } from '../machine-docs';
import { ListState, ScreenHead } from '../parts';

/**
 * The test paths `npm run machines` lists beside each drawing (docs/machines/<id>.paths.json), loaded only when this
 * screen is shown; the drawings load as a machine is chosen (MachineChart). The machines' own code never comes here.
 */
const PATH_FILES = import.meta.glob<unknown>('../../../docs/machines/*.paths.json', { import: 'default' });

/** Every machine's file, in the order of their ids; any that fails to load or to read fails the whole list. */
async function loadMachineDocs(): Promise<MachineDoc[]> {
  const files = Object.entries(PATH_FILES)
    .filter(([file]) => machineIdOf(file) !== null)
    .sort(([a], [b]) => a.localeCompare(b));
  try {
    return await Promise.all(files.map(([, load]) => load().then((json) => machineDoc.parse(json))));
  } catch (err) {
    console.warn('machine test paths failed to load', err);
    // No message of its own: the list says the console's "could not load" with a retry.
    throw new Error('');
  }
}

/**
 * Machines (role qa): the state machines that drive orders, each drawn as the app's code defines it, and the paths
 * its model-based tests walk, step by step. Read only.
 */
export function MachinesScreen(): ReactElement {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['ops', 'machines'],
    queryFn: loadMachineDocs,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <>
      <ScreenHead title={t('console.nav.machines')} intro={t('console.machines.intro')} />
      <ListState query={query} empty={t('console.machines.empty')}>
        {(docs) => {
          const doc = docs.find((d) => d.machine === chosen);
          return (
            <div className="ops-machines">
              <ul className="ops-pick-list" aria-label={t('console.machines.list')}>
                {docs.map((d) => (
                  <li key={d.machine}>
                    <button
                      type="button"
                      className={d.machine === chosen ? 'ops-pick-row is-active' : 'ops-pick-row'}
                      aria-pressed={d.machine === chosen}
                      data-machine={d.machine}
                      onClick={() => setChosen(d.machine)}
                    >
                      <span className="ops-machine-name">{d.name}</span>
                      <span className="ops-machine-models">{d.models}</span>
                      <span className="ops-muted">{t('console.machines.pathCount', { count: d.paths.length })}</span>
                    </button>
                  </li>
                ))}
              </ul>
              {doc ? (
                <MachineDetail key={doc.machine} doc={doc} />
              ) : (
                <div className="ops-state ops-machine-none">
                  <p>{t('console.machines.choose')}</p>
                </div>
              )}
            </div>
          );
        }}
      </ListState>
    </>
  );
}

/** One machine: what it models, its drawing, and its test paths by walk. Takes the focus when chosen. */
function MachineDetail({ doc }: { doc: MachineDoc }): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section
      className="ops-machine"
      aria-labelledby={`${id}-name`}
      data-testid="ops-machine"
      data-machine={doc.machine}
    >
      <header>
        <h2 className="ops-machine-title" id={`${id}-name`} ref={heading} tabIndex={-1}>
          {doc.name}
        </h2>
        <p className="ops-screen-intro">{doc.models}</p>
      </header>
      <MachineChart drawing={doc.machine} current={[]} title={t('console.machines.drawing')} />
      <section className="ops-machine-paths" aria-labelledby={`${id}-paths`}>
        <h3 className="ops-machine-subtitle" id={`${id}-paths`}>
          {t('console.machines.paths')}
        </h3>
        <p className="ops-muted">{t('console.machines.pathsIntro')}</p>
        {pathsByWalk(doc.paths).map((w) => (
          <section key={w.walk} className="ops-walk">
            <h4 className="ops-walk-title">
              {t('console.machines.walk', { walk: w.walk })}{' '}
              <span className="ops-muted">{t('console.machines.pathCount', { count: w.paths.length })}</span>
            </h4>
            <ol className="ops-paths">
              {w.paths.map((p, i) => (
                // The file's order is the path's identity (two walks may reach the same state).
                // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for the screen's life
                <TestPathItem key={i} path={p} />
              ))}
            </ol>
          </section>
        ))}
      </section>
    </section>
  );
}

/** "reaches <state>", opened to its numbered steps (the event sent → the state after it). */
function TestPathItem({ path }: { path: TestPath }): ReactElement {
  const { t } = useTranslation();
  return (
    <li className="ops-path" data-testid="ops-test-path" data-walk={path.walk} data-reaches={path.reaches}>
      <details>
        <summary>
          <span className="ops-path-reaches">
            <Trans
              i18nKey="console.machines.reaches"
              values={{ state: path.reaches }}
              components={{ state: <code /> }}
            />
          </span>{' '}
          <span className="ops-muted ops-path-count">
            {t('console.machines.stepCount', { count: path.steps.length })}
          </span>
        </summary>
        <ol className="ops-path-steps">
          {path.steps.map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps are a fixed sequence; the same event may repeat
            <li key={i}>
              {s.event === START_EVENT ? (
                <span className="ops-path-start">{t('console.machines.start')}</span>
              ) : (
                <code className="ops-path-event">{s.event}</code>
              )}
              <span aria-hidden="true"> → </span>
              <span className="ops-sr"> {t('console.machines.leadsTo')} </span>
              <code className="ops-path-state">{s.state}</code>
            </li>
          ))}
        </ol>
      </details>
    </li>
  );
}
