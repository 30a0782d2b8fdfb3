import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactElement, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteAlert } from '../../../../../core/api/alerts';
import { ALERTS_TOPIC, alertsTopicMessage, type PriceAlert } from '../../../../../protocol/alerts';
import { topic } from '../../../../../streams/socket';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { HOME_PATH } from '../../../../lib/first-route';
import { localeOf } from '../../../../lib/format';
import { toast } from '../../../../state/toasts';
import { conditionText, exactPrice } from '../../format';
import { alertKeys, alertsQuery } from '../../notice';
import '../../alerts.css';

/** A tick's time to the second (ticks come a second apart, so minutes would not tell which one). */
function tickTime(ts: number, lang: string): string {
  return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(ts));
}

/** A hash as people compare one: its first and last few digits. */
const shortHash = (hash: string): string => `${hash.slice(0, 8)}…${hash.slice(-6)}`;

/**
 * Keeps the list current while the page is open: `me:alerts` gives the whole list after every (re)subscription (so
 * an alert that fired while the socket was down is shown fired) and then each alert as it fires.
 */
function useAlertsTopic(client: QueryClient): void {
  useEffect(() => {
    const sub = topic(ALERTS_TOPIC, alertsTopicMessage).subscribe(({ data }) => {
      if (data.kind === 'snapshot') client.setQueryData(alertKeys.list, data.alerts);
      else {
        client.setQueryData<PriceAlert[]>(alertKeys.list, (list) =>
          list?.map((a) => (a.id === data.alert.id ? data.alert : a)),
        );
      }
    });
    return () => sub.unsubscribe();
  }, [client]);
}

function AlertRow({ alert, busy, onDelete }: { alert: PriceAlert; busy: boolean; onDelete: () => void }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const condition = conditionText(t, alert, lang);
  const { fired, quote } = alert;
  return (
    <li
      className={fired ? 'alert-row is-fired' : 'alert-row'}
      data-testid={`alert-${alert.id}`}
      data-state={alert.state}
    >
      <div className="alert-main">
        <p className="alert-title">
          <strong>
            {alert.symbol}
            <small>/{quote}</small>
          </strong>
          <span className="alert-condition">{condition}</span>
        </p>
        {fired ? (
          <>
            <p className="alert-meta" data-testid="alert-fired">
              {t('alerts.list.firedAt', { time: tickTime(fired.ts, lang) })}
            </p>
            <p className="alert-tick" data-testid="alert-tick">
              {t('alerts.list.tick', { seq: fired.seq, price: `${exactPrice(fired.price, lang)} ${quote}` })}
            </p>
            {fired.batch_id !== null && fired.hash !== null ? (
              <p className="alert-block">
                {t('alerts.list.block', { batch: fired.batch_id, hash: shortHash(fired.hash) })}
              </p>
            ) : null}
          </>
        ) : (
          <p className="alert-meta">{t('alerts.list.setAt', { time: tickTime(alert.created_at, lang) })}</p>
        )}
      </div>
      <button
        type="button"
        className="field-icon-btn alert-delete"
        onClick={onDelete}
        disabled={busy}
        aria-label={t('alerts.list.delete', { symbol: alert.symbol, condition })}
        data-testid="alert-delete"
      >
        <Icon name="trash" size={18} />
      </button>
    </li>
  );
}

function AlertGroup({
  title,
  alerts,
  deleting,
  onDelete,
}: {
  title: string;
  alerts: readonly PriceAlert[];
  deleting: number | null;
  onDelete: (alert: PriceAlert) => void;
}): ReactElement | null {
  const id = useId();
  if (alerts.length === 0) return null;
  return (
    <section className="alert-group" aria-labelledby={id}>
      <h2 className="list-title" id={id}>
        {title}
      </h2>
      <ul className="alert-list">
        {alerts.map((a) => (
          <AlertRow key={a.id} alert={a} busy={deleting === a.id} onDelete={() => onDelete(a)} />
        ))}
      </ul>
    </section>
  );
}

/** The user's price alerts: the active ones, then those that fired with the recorded tick that fired each. */
export default function AlertsPage(): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const list = useQuery(alertsQuery);
  useAlertsTopic(client);
  const [deleting, setDeleting] = useState<number | null>(null);
  const data = list.data;

  const remove = async (alert: PriceAlert) => {
    setDeleting(alert.id);
    const ok = await deleteAlert(alert.id);
    setDeleting(null);
    if (ok) {
      client.setQueryData<PriceAlert[]>(alertKeys.list, (l) => l?.filter((a) => a.id !== alert.id));
      toast(t('alerts.list.deleted'), 'success');
    } else {
      // Gone meanwhile (another tab): show the list as the server has it.
      void list.refetch();
    }
  };

  const active = data?.filter((a) => a.state === 'active') ?? [];
  const fired = (data?.filter((a) => a.fired !== null) ?? []).sort((a, b) => (b.fired?.ts ?? 0) - (a.fired?.ts ?? 0));

  return (
    <Page title={t('alerts.title')}>
      {!data ? (
        <LoadingOrFailed failed={loadFailed(list)} onRetry={() => void list.refetch()} />
      ) : data.length === 0 ? (
        <div className="page-center state-view">
          <span className="wallet-empty-icon" aria-hidden="true">
            <Icon name="pulse" size={28} />
          </span>
          <h2 className="state-title">{t('alerts.list.emptyTitle')}</h2>
          <p className="state-text">{t('alerts.list.emptyText')}</p>
          <Link to={HOME_PATH} className="btn btn-primary">
            <span className="btn-label">{t('alerts.list.goMarkets')}</span>
          </Link>
        </div>
      ) : (
        <>
          <AlertGroup
            title={t('alerts.list.active')}
            alerts={active}
            deleting={deleting}
            onDelete={(a) => void remove(a)}
          />
          <AlertGroup
            title={t('alerts.list.fired')}
            alerts={fired}
            deleting={deleting}
            onDelete={(a) => void remove(a)}
          />
        </>
      )}
    </Page>
  );
}
