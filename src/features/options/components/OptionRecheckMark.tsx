import { useQuery } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionRecheckResult } from '../../../../core/recheck/options';
import type { OptionContract } from '../../../../protocol/options';
import { Icon } from '../../../components/Icon';
import { optionKeys } from '../keys';

/** The recorder seals about once a second; a fresh settlement's ticks are asked for again this often. */
const NOT_SEALED_TRIES = 8;
const NOT_SEALED_DELAY_MS = 1_000;
/** The calls are quiet (nobody was told), so a dropped answer is worth a second try before showing "unavailable". */
const UNREACHABLE_TRIES = 2;
const HASH_SHOWN = 12;

/** The re-check code (hash rules with sha256, the record's calls) loads when a detail shows it, not with the tab. */
const loadRecheck = () =>
  Promise.all([import('../../../../core/recheck/options'), import('../../../../core/recheck/record-fetchers')]);

/** Thrown inside the query so that TanStack Query's retry asks again while a tick is not sealed yet. */
class NotSealedYet extends Error {
  override name = 'NotSealedYet';
}

/**
 * A settled contract's "re-checked" mark (DESIGN "Fair outcomes"): the entry and exit ticks' batches recomputed and
 * chained up to the published head, the exit shown to be the last tick at or before E as far as the record allows,
 * and the result and payout recomputed with the published rule (core/recheck/option.ts). It names a failed check,
 * and says plainly when the record could not be reached (that decides nothing either way).
 */
export function OptionRecheckMark({ contract, scale }: { contract: OptionContract; scale: number }): ReactElement {
  const { t } = useTranslation();
  const [explained, setExplained] = useState(false);
  const check = useQuery({
    queryKey: [...optionKeys.contract(contract.id), 'recheck', contract.updated_at],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<OptionRecheckResult> => {
      const [{ recheckOption }, { apiRecordFetchers }] = await loadRecheck();
      const result = await recheckOption(contract, scale, apiRecordFetchers);
      if (!result.ok && result.reason === 'not_sealed') throw new NotSealedYet();
      return result;
    },
    retry: (failures, error) =>
      error instanceof NotSealedYet ? failures < NOT_SEALED_TRIES : failures < UNREACHABLE_TRIES,
    retryDelay: NOT_SEALED_DELAY_MS,
  });

  let state: 'checking' | 'ok' | 'failed' | 'unavailable';
  let body: ReactElement;
  const result = check.data;
  if (result?.ok) {
    state = 'ok';
    body = (
      <>
        <p className="option-muted">
          <Icon name="check" size={14} className="change-up" />
          <strong>{t('options.recheck.ok', { head: result.headId })}</strong>{' '}
          <button
            type="button"
            className="option-link"
            aria-expanded={explained}
            onClick={() => setExplained(!explained)}
          >
            {t('options.recheck.what')}
          </button>
        </p>
        <p className="option-muted" data-testid="recheck-proof">
          {t(`options.recheck.proof.${result.proof}`)}
        </p>
        {explained ? (
          <p className="option-muted" data-testid="recheck-explain">
            {t('options.recheck.explain', {
              entry: contract.entry?.seq ?? '–',
              entryBatch: result.entryBatchId,
              exit: contract.exit?.seq ?? '–',
              exitBatch: result.exitBatchId ?? '–',
              head: result.headId,
              hash: result.headHash.slice(0, HASH_SHOWN),
            })}
          </p>
        ) : null}
      </>
    );
  } else if (result || check.error instanceof NotSealedYet) {
    state = 'failed';
    const reason = result && !result.ok ? result.reason : 'not_sealed';
    body = (
      <>
        <p className="option-muted">
          <Icon name="alert" size={14} className="change-down" />
          <strong>{t('options.recheck.failed')}</strong>
        </p>
        <p className="option-muted">{t(`options.recheck.reason.${reason}`)}</p>
      </>
    );
  } else if (check.isError) {
    state = 'unavailable';
    body = (
      <p className="option-muted">
        {t('options.recheck.unavailable')}{' '}
        <button type="button" className="option-link" onClick={() => void check.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  } else {
    state = 'checking';
    body = <p className="option-muted">{t('options.recheck.checking')}</p>;
  }
  return (
    <div className="option-recheck" data-testid="recheck" data-state={state} role="status">
      {body}
    </div>
  );
}
