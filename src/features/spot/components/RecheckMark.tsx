import { useQuery } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecheckResult } from '../../../../core/recheck/fill';
import type { SpotOrder } from '../../../../protocol/spot';
import { Icon } from '../../../components/Icon';
import { need } from '../../../data/query';
import { spotKeys } from '../keys';
import { spotConfigQuery } from '../queries';

/** The recorder seals about once a second; a fresh fill's tick is asked for again this often before giving up. */
const NOT_SEALED_TRIES = 8;
const NOT_SEALED_DELAY_MS = 1_000;
/** The calls are quiet (nobody was told), so a dropped answer is worth a second try before showing "unavailable". */
const UNREACHABLE_TRIES = 2;

/**
 * The re-check code (the hash rules with sha256, the record's calls) loads when a fill's detail opens, not with the
 * spot page: most visits never open one, and the page is at its size budget (tests/size/route-budgets.ts).
 */
const loadRecheck = () =>
  Promise.all([import('../../../../core/recheck/fill'), import('../../../../core/recheck/record-fetchers')]);

/** Thrown inside the query so that TanStack Query's retry asks again while the tick is not sealed yet. */
class NotSealedYet extends Error {
  override name = 'NotSealedYet';
}

/** Pair steps missing from coin/trade/config: the rule cannot be run, so nothing is decided. */
class PairUnknown extends Error {
  override name = 'PairUnknown';
}

type Ok = Extract<RecheckResult, { ok: true }>;

const HASH_SHOWN = 12;

/**
 * A fill's "re-checked" mark (DESIGN "Fair outcomes"): the client fetches the batch that sealed the fill's tick,
 * recomputes its digests and the hash chain up to the published head, and recomputes the fill with the published
 * spot rule (core/recheck/fill.ts). It says "re-checked" only when all of that holds, names the reason when a check
 * fails, and says plainly when the record could not be reached (that decides nothing either way).
 */
export function RecheckMark({ order }: { order: SpotOrder }): ReactElement | null {
  const { t } = useTranslation();
  const [explained, setExplained] = useState(false);
  const config = useQuery(spotConfigQuery);
  const fill = order.fill;

  const check = useQuery({
    // Keyed by updated_at too, so a result never stands for another version of the order than the one shown.
    queryKey: [...spotKeys.all, 'recheck', order.id, order.updated_at],
    enabled: fill !== null && config.data !== undefined,
    // The result is a fact about the record up to the head it reached; checking again adds nothing.
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<RecheckResult> => {
      const pair = config.data?.pairs.find((p) => p.symbol === order.symbol);
      if (!config.data || !pair) throw new PairUnknown();
      const steps = { priceScale: pair.price_scale, qtyScale: pair.qty_scale };
      const [{ recheckFill }, { apiRecordFetchers }] = await loadRecheck();
      const result = await recheckFill(order, steps, config.data.quote_scale, apiRecordFetchers);
      if (!result.ok && result.reason === 'not_sealed') throw new NotSealedYet();
      return result;
    },
    // Anything else that failed is the record (or the chunk) out of reach: RecordUnreachable, a failed import.
    retry: (failures, error) =>
      error instanceof NotSealedYet
        ? failures < NOT_SEALED_TRIES
        : !(error instanceof PairUnknown) && failures < UNREACHABLE_TRIES,
    retryDelay: NOT_SEALED_DELAY_MS,
  });

  if (!fill) return null;

  let body: ReactElement;
  let state: 'checking' | 'ok' | 'failed' | 'unavailable';
  if (check.data?.ok) {
    state = 'ok';
    body = <Rechecked result={check.data} seq={fill.tick.seq} explained={explained} onExplain={setExplained} />;
  } else if (check.data || check.error instanceof NotSealedYet) {
    state = 'failed';
    const reason = check.data && !check.data.ok ? check.data.reason : 'not_sealed';
    body = (
      <>
        <p className="spot-muted">
          <Icon name="alert" size={14} className="change-down" />
          <strong>{t('spot.recheck.failed')}</strong>
        </p>
        <p className="spot-muted">{t(`spot.recheck.reason.${reason}`)}</p>
      </>
    );
  } else if (check.isError || config.isError) {
    state = 'unavailable';
    body = (
      <p className="spot-muted">
        {t('spot.recheck.unavailable')}{' '}
        {check.error instanceof PairUnknown ? null : (
          <button
            type="button"
            className="spot-link"
            onClick={() => void (config.isError ? config.refetch() : check.refetch())}
          >
            {t('spot.recheck.retry')}
          </button>
        )}
      </p>
    );
  } else {
    state = 'checking';
    body = <p className="spot-muted">{t('spot.recheck.checking')}</p>;
  }

  return (
    <div className="spot-recheck" data-testid="recheck" data-state={state} role="status">
      {body}
    </div>
  );
}

function Rechecked({
  result,
  seq,
  explained,
  onExplain,
}: {
  result: Ok;
  seq: number;
  explained: boolean;
  onExplain: (open: boolean) => void;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <p className="spot-muted">
        <Icon name="check" size={14} className="change-up" />
        <strong>{t('spot.recheck.ok', { head: result.headId })}</strong>{' '}
        <button type="button" className="spot-link" aria-expanded={explained} onClick={() => onExplain(!explained)}>
          {t('spot.recheck.what')}
        </button>
      </p>
      {explained ? (
        <p className="spot-muted" data-testid="recheck-explain">
          {t('spot.recheck.explain', {
            seq,
            batch: result.batchId,
            head: result.headId,
            hash: result.headHash.slice(0, HASH_SHOWN),
          })}
        </p>
      ) : null}
    </>
  );
}
