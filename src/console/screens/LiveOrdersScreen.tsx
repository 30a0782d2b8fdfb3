import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TracedActor, TracedOrder } from '../../../protocol/ops-inspection';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { MachineChart } from '../../components/MachineChart';
import { opsCall, opsQuery } from '../api';
import { mergeActors } from '../live-traces';
import { formatTime, ListState, ScreenHead } from '../parts';

/** How often an open order asks for steps after the last one it has. */
const FOLLOW_MS = 1_000;

const orderKey = (o: Pick<TracedOrder, 'machine' | 'order'>) => `${o.machine}:${o.order}`;

/** The last part of a state id: `optionContract.contract.running` → `running`. */
const leafOf = (id: string) => id.slice(id.lastIndexOf('.') + 1);

/** A step's time to the millisecond (events of one order often come within the same second). */
const clockFormat = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hour12: false,
});

/**
 * Live orders (role qa): the orders whose actors the app reported (the last day's), found by user or all newest
 * first; one chosen order shows each of its live actors on its machine with the current state marked, and the events
 * it received on a timeline that follows the order as it moves.
 */
export function LiveOrdersScreen(): ReactElement {
  const { t } = useTranslation();
  const [who, setWho] = useState('');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<TracedOrder | null>(null);
  const query = useQuery({
    queryKey: ['ops', 'qa', 'orders', search],
    queryFn: ({ signal }) => opsQuery('ops/qa/orders', search ? { user: search } : {}, signal).then((d) => d.items),
    refetchInterval: 5_000,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSearch(who.trim());
    setChosen(null);
  };
  return (
    <>
      <ScreenHead
        title={t('console.nav.liveOrders')}
        intro={t('console.live.intro')}
        onRefresh={() => void query.refetch()}
        busy={query.isFetching}
      />
      <form className="ops-live-search" onSubmit={submit} aria-label={t('console.live.search')}>
        <Field
          label={t('console.live.user')}
          hint={t('console.live.userHint')}
          value={who}
          onValue={setWho}
          autoComplete="off"
        />
        <Button type="submit" variant="secondary">
          {t('console.live.search')}
        </Button>
      </form>
      <ListState query={query} empty={search ? t('console.live.emptyUser') : t('console.live.empty')}>
        {(orders) => (
          <div className="ops-machines">
            <ul className="ops-pick-list" aria-label={t('console.live.list')}>
              {orders.map((o) => (
                <li key={orderKey(o)}>
                  <button
                    type="button"
                    className={chosen && orderKey(chosen) === orderKey(o) ? 'ops-pick-row is-active' : 'ops-pick-row'}
                    aria-pressed={chosen !== null && orderKey(chosen) === orderKey(o)}
                    data-order={orderKey(o)}
                    onClick={() => setChosen(o)}
                  >
                    <span className="ops-machine-name">
                      {t('console.live.order', { machine: o.machine, id: o.order })}
                    </span>
                    <span className="ops-machine-models">
                      {t('console.live.orderFacts', { user: o.user_id, actors: o.actors, steps: o.steps })}
                    </span>
                    <span className="ops-muted">{formatTime(o.last_at)}</span>
                  </button>
                </li>
              ))}
            </ul>
            {chosen ? (
              <LiveOrder key={orderKey(chosen)} order={chosen} />
            ) : (
              <div className="ops-state ops-machine-none">
                <p>{t('console.live.choose')}</p>
              </div>
            )}
          </div>
        )}
      </ListState>
    </>
  );
}

/** One order followed live: its actors' steps, fetched after the last one held, every second while it is open. */
function LiveOrder({ order }: { order: TracedOrder }): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [actors, setActors] = useState<TracedActor[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    let after = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const follow = async () => {
      const r = await opsCall(
        'ops/qa/trace',
        { machine: order.machine, order: String(order.order), ...(after > 0 ? { after: String(after) } : {}) },
        controller.signal,
      );
      if (controller.signal.aborted) return;
      if (r.ok) {
        setFailed(null);
        for (const a of r.data.actors) for (const s of a.steps) after = Math.max(after, s.id);
        if (r.data.actors.length > 0) setActors((held) => mergeActors(held, r.data.actors));
      } else {
        setFailed(r.message);
      }
      if (!r.ok && r.expired) return;
      timer = setTimeout(() => void follow(), FOLLOW_MS);
    };
    void follow();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [order.machine, order.order]);

  return (
    <section className="ops-machine" aria-labelledby={`${id}-title`} data-testid="ops-live-order">
      <h2 className="ops-machine-title" id={`${id}-title`} ref={heading} tabIndex={-1}>
        {t('console.live.order', { machine: order.machine, id: order.order })}
      </h2>
      {failed ? (
        <p className="ops-state" role="alert">
          {failed}
        </p>
      ) : null}
      {actors.map((a, i) => (
        <LiveActor key={a.actor} machine={order.machine} actor={a} index={i + 1} />
      ))}
    </section>
  );
}

/** One actor: its machine with the states after its last step marked, and its steps newest last. */
function LiveActor({ machine, actor, index }: { machine: string; actor: TracedActor; index: number }): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const last = actor.steps.at(-1);
  return (
    <section className="ops-live-actor" aria-labelledby={`${id}-actor`} data-actor={actor.actor}>
      <h3 className="ops-machine-subtitle" id={`${id}-actor`}>
        {t('console.live.actor', { n: index })}{' '}
        <span className="ops-muted">
          {last ? t('console.live.now', { states: last.states.map(leafOf).join(', ') }) : ''}
        </span>
      </h3>
      <MachineChart drawing={machine} current={last?.states ?? []} title={t('console.machines.drawing')} />
      {/* A log that grows as the order moves; it scrolls on its own, so it takes the focus for the keyboard. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <div className="ops-live-steps" role="log" aria-label={t('console.live.timeline')} tabIndex={0}>
        <ol className="ops-path-steps">
          {actor.steps.map((s) => (
            <li key={s.id} data-seq={s.seq}>
              <time className="ops-muted" dateTime={new Date(s.at).toISOString()}>
                {clockFormat.format(s.at)}
              </time>{' '}
              <code className="ops-path-event">{s.event}</code>
              <span aria-hidden="true"> → </span>
              <span className="ops-sr"> {t('console.machines.leadsTo')} </span>
              <code className="ops-path-state">{s.states.map(leafOf).join(', ')}</code>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
