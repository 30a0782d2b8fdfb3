import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverRecheckResult } from '../../../../core/recheck/lever';
import type { LeverPosition } from '../../../../protocol/lever';
import { Icon } from '../../../components/Icon';

/** The recorder seals about once a second; a fresh close's ticks are asked for again this often. */
const NOT_SEALED_TRIES = 8;
const NOT_SEALED_DELAY_MS = 1_000;
const UNREACHABLE_TRIES = 2;
const HASH_SHOWN = 12;

/** The re-check code (hash rules, the record's calls) loads when a detail shows it, not with the tab. */
const loadRecheck = () =>
  Promise.all([import('../../../../core/recheck/lever'), import('../../../../core/recheck/record-fetchers')]);

class NotSealedYet extends Error {
  override name = 'NotSealedYet';
}

/**
 * A closed position's "re-checked" mark (DESIGN "Fair outcomes"): its entry and exit ticks chained to the published
 * head, and margin, trigger and money recomputed with the published rules (core/recheck/lever.ts). It names a failed
 * check, and says plainly when the record could not be reached (that decides nothing either way).
 */
export function LeverRecheckMark({ position, scale }: { position: LeverPosition; scale: number }): ReactElement {
  const { t } = useTranslation();
  const check = useQuery({
    queryKey: ['lever', 'position', position.id, 'recheck', position.updated_at],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<LeverRecheckResult> => {
      const [{ recheckLever }, { apiRecordFetchers }] = await loadRecheck();
      const result = await recheckLever(position, scale, apiRecordFetchers);
      if (!result.ok && result.reason === 'not_sealed') throw new NotSealedYet();
      return result;
    },
    retry: (failures, error) =>
      error instanceof NotSealedYet ? failures < NOT_SEALED_TRIES : failures < UNREACHABLE_TRIES,
    retryDelay: NOT_SEALED_DELAY_MS,
  });
  const result = check.data;
  let state: 'checking' | 'ok' | 'failed' | 'unavailable' = 'checking';
  let body: ReactElement = <p className="lever-muted">{t('leverdetail.recheck.checking')}</p>;
  if (result?.ok) {
    state = 'ok';
    body = (
      <>
        <p className="lever-muted">
          <Icon name="check" size={14} className="lever-detail-ok" />
          <strong>{t('leverdetail.recheck.ok', { head: result.headId })}</strong>
        </p>
        <p className="lever-muted" data-testid="recheck-explain">
          {t('leverdetail.recheck.explain', {
            entry: position.entry?.seq ?? '–',
            entryBatch: result.entryBatchId,
            exit: position.exit?.seq ?? '–',
            exitBatch: result.exitBatchId,
            hash: result.headHash.slice(0, HASH_SHOWN),
          })}
        </p>
      </>
    );
  } else if (result || check.error instanceof NotSealedYet) {
    state = 'failed';
    const reason = result && !result.ok ? result.reason : 'not_sealed';
    body = (
      <>
        <p className="lever-muted">
          <Icon name="alert" size={14} className="lever-detail-bad" />
          <strong>{t('leverdetail.recheck.failed')}</strong>
        </p>
        <p className="lever-muted">{t(`leverdetail.recheck.reason.${reason}`)}</p>
      </>
    );
  } else if (check.isError) {
    state = 'unavailable';
    body = (
      <p className="lever-muted">
        {t('leverdetail.recheck.unavailable')}{' '}
        <button type="button" className="lever-link" onClick={() => void check.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  return (
    <div className="lever-recheck" data-testid="recheck" data-state={state} role="status">
      {body}
    </div>
  );
}
