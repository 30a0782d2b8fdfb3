import { useQueryClient } from '@tanstack/react-query';
import { type ReactElement, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { proxy, useSnapshot } from 'valtio';
import { OPS_REASON_MAX, type OpsConsolePath, opsReasonField } from '../../protocol/ops-console';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { Icon } from '../components/Icon';
import { LoadingOrFailed } from '../components/StateView';
import { currentLang, errorText } from '../lib/i18n';
import { type OpsResult, opsImageUrl } from './api';

/** Pieces the console's screens share: headings, states, review cards with their decisions, images, notices. */

const timeFormats = new Map<string, Intl.DateTimeFormat>();
/** A moment in the console's language, to the second (reviews and the audit log are read to the second). */
export function formatTime(ms: number): string {
  const lang = currentLang();
  let format = timeFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
    timeFormats.set(lang, format);
  }
  return format.format(ms);
}

/** Short messages after an action (approved, rejected, failed), read out politely. */
interface Notice {
  id: number;
  text: string;
  tone: 'ok' | 'error';
}
const notices = proxy<{ list: Notice[] }>({ list: [] });
let noticeSerial = 0;

export function notify(text: string, tone: Notice['tone'] = 'ok'): void {
  const id = ++noticeSerial;
  notices.list.push({ id, text, tone });
  setTimeout(() => {
    notices.list = notices.list.filter((n) => n.id !== id);
  }, 6000);
}

export function Notices(): ReactElement {
  const { list } = useSnapshot(notices);
  const { t } = useTranslation();
  return (
    <div className="ops-notices" role="status" aria-live="polite">
      {list.map((n) => (
        <p key={n.id} className={`ops-notice ops-notice-${n.tone}`}>
          <span>{n.text}</span>
          <button
            type="button"
            className="field-icon-btn"
            aria-label={t('common.close')}
            onClick={() => {
              notices.list = notices.list.filter((x) => x.id !== n.id);
            }}
          >
            <Icon name="close" size={16} />
          </button>
        </p>
      ))}
    </div>
  );
}

/** A screen's heading with its explanation and a refresh button. */
export function ScreenHead({
  title,
  intro,
  onRefresh,
  busy,
}: {
  title: string;
  intro: string;
  onRefresh?: () => void;
  busy?: boolean;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <header className="ops-screen-head">
      <div>
        <h1 className="ops-screen-title">{title}</h1>
        <p className="ops-screen-intro">{intro}</p>
      </div>
      {onRefresh ? (
        <Button variant="secondary" className="btn-small" onClick={onRefresh} busy={busy ?? false}>
          <Icon name="refresh" size={16} /> {t('console.common.refresh')}
        </Button>
      ) : null}
    </header>
  );
}

/** Loading, failed, empty, or the list. */
export function ListState<T>({
  query,
  empty,
  children,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    error: Error | null;
    data: readonly T[] | undefined;
    refetch: () => unknown;
  };
  empty: string;
  children: (items: readonly T[]) => ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingOrFailed failed={false} onRetry={() => void query.refetch()} />;
  if (query.isError || !query.data) {
    return (
      <div className="ops-state" role="alert">
        <p>{query.error?.message || t('common.loadFailed')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  if (query.data.length === 0) {
    return (
      <div className="ops-state">
        <Icon name="check" size={28} />
        <p>{empty}</p>
      </div>
    );
  }
  return <>{children(query.data)}</>;
}

/** Label and value pairs of a card. */
export function Facts({ items }: { items: ReadonlyArray<readonly [label: string, value: ReactNode]> }): ReactElement {
  return (
    <dl className="ops-facts">
      {items.map(([label, value]) => (
        <div key={label} className="ops-fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A state the way the queues show it (`pending`, or `approving`/`rejecting` left half-decided by an old version). */
export function StateBadge({ state }: { state: string }): ReactElement {
  const { t } = useTranslation();
  const known = state === 'pending' || state === 'approving' || state === 'rejecting';
  return (
    <span className={`badge ${state === 'pending' ? 'badge-warn' : ''}`}>
      {known ? t(`console.state.${state}` as 'console.state.pending') : state}
    </span>
  );
}

/**
 * Approve and reject buttons of one row, each behind a dialog: approving asks to confirm (`confirm` says what will
 * happen), rejecting asks for the reason the user will see. The answer is shown in the dialog when it fails; on
 * success the dialog closes, a notice says so and `queryKey`'s list reloads.
 */
export function Decision({
  what,
  confirm,
  approve,
  reject,
  queryKey,
}: {
  /** The row as a noun phrase ("Deposit #12"). */
  what: string;
  confirm: string;
  approve: () => Promise<OpsResult<OpsConsolePath>>;
  reject: (reason: string) => Promise<OpsResult<OpsConsolePath>>;
  queryKey: readonly string[];
}): ReactElement {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setOpen(null);
    setError(null);
    setReason('');
  };
  const run = async (kind: 'approve' | 'reject') => {
    if (kind === 'reject') {
      const checked = opsReasonField.safeParse(reason);
      if (!checked.success) {
        setError(errorText(checked.error.issues[0]?.message ?? 'invalidInput'));
        return;
      }
    }
    setBusy(true);
    setError(null);
    const result = kind === 'approve' ? await approve() : await reject(reason);
    setBusy(false);
    if (!result.ok) {
      if (!result.expired) setError(result.message);
      return;
    }
    setOpen(null);
    setReason('');
    notify(t(kind === 'approve' ? 'console.common.approvedNotice' : 'console.common.rejectedNotice', { what }));
    await queryClient.invalidateQueries({ queryKey: [...queryKey] });
  };

  return (
    <div className="ops-decision">
      <Button className="btn-small" onClick={() => setOpen('approve')}>
        {t('console.common.approve')}
      </Button>
      <Button variant="secondary" className="btn-small" onClick={() => setOpen('reject')}>
        {t('console.common.reject')}
      </Button>
      <Dialog
        open={open === 'approve'}
        title={t('console.common.approveTitle', { what })}
        onClose={close}
        actions={
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void run('approve')} busy={busy}>
              {t('console.common.approve')}
            </Button>
          </>
        }
      >
        <p>{confirm}</p>
        {error ? (
          <p className="field-msg field-error" role="alert">
            {error}
          </p>
        ) : null}
      </Dialog>
      <Dialog
        open={open === 'reject'}
        title={t('console.common.rejectTitle', { what })}
        onClose={close}
        actions={
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" onClick={() => void run('reject')} busy={busy}>
              {t('console.common.reject')}
            </Button>
          </>
        }
      >
        <ReasonField value={reason} onChange={setReason} error={error} />
      </Dialog>
    </div>
  );
}

/** The reason of a decision (shown to the user, kept in the audit log), with the refusal under it. */
export function ReasonField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (reason: string) => void;
  error: string | null;
}): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {t('console.common.reason')}
      </label>
      <textarea
        id={id}
        className="ops-textarea"
        rows={4}
        maxLength={OPS_REASON_MAX}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-msg` : undefined}
      />
      {error ? (
        <p className="field-msg field-error" id={`${id}-msg`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A review image (an ID photo, a deposit proof), fetched with the console's token; a click shows it large. Its object
 * URL is released when the card goes.
 */
export function ReviewImage({
  path,
  search,
  alt,
}: {
  path: string;
  search: Record<string, string>;
  alt: string;
}): ReactElement {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const [large, setLarge] = useState(false);
  const key = JSON.stringify([path, search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for path and search.
  useEffect(() => {
    const abort = new AbortController();
    let made: string | null = null;
    void opsImageUrl(path, search, abort.signal).then((u) => {
      made = u;
      if (abort.signal.aborted) {
        if (u) URL.revokeObjectURL(u);
        return;
      }
      setUrl(u);
    });
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [key]);
  if (url === undefined) return <div className="ops-image is-loading" aria-busy="true" />;
  if (url === null) return <p className="ops-image is-missing">{t('console.common.imageMissing')}</p>;
  return (
    <button
      type="button"
      className={`ops-image${large ? ' is-large' : ''}`}
      onClick={() => setLarge((v) => !v)}
      aria-pressed={large}
      aria-label={`${alt}: ${t(large ? 'console.common.imageSmaller' : 'console.common.imageLarger')}`}
    >
      <img src={url} alt={alt} />
    </button>
  );
}
