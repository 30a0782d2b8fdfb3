import { useMachine } from '@xstate/react';
import { type ReactElement, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { closeAllLeverPositions } from '../../../../core/api/lever';
import {
  type CloseAllAnswer,
  closeAllView,
  leverCloseAllMachine,
} from '../../../../machines/lever/close-all/closeAll.machine';
import type { LeverAccount } from '../../../../protocol/lever';
import { OrderFlow } from '../../../app/OrderFlow';
import { Button } from '../../../components/Button';
import { ConfirmSheet } from '../../../components/ConfirmSheet';
import { toast } from '../../../state/toasts';

/** The machine with the real call: leaving the page (or the book) while it is out aborts it. */
const closeAllMachine = leverCloseAllMachine.provide({
  actors: {
    closeAll: fromPromise<CloseAllAnswer, { book: LeverAccount }>(({ input, signal }) =>
      closeAllLeverPositions(input.book, signal),
    ),
  },
});

/**
 * Close-all (RULES "Partial close": every holding position of the book, each at the next recorded tick of its
 * instrument), confirmed on a sheet that says how many. Its flow is machines/lever/close-all (drawn for QA); this
 * draws it and tells it how many hold and whether prices are fresh. Orders not yet open and positions already closing
 * stay; each row follows its own position from the socket. Loaded with the positions list; one per book (keyed).
 */
export default function CloseAll({
  book,
  holding,
  stale,
}: {
  book: LeverAccount;
  /** How many positions of the book hold now (what close-all would close). */
  holding: number;
  stale: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const [snapshot, send, actor] = useMachine(closeAllMachine, { input: { book, holding } });
  const view = closeAllView(snapshot);
  useEffect(() => send({ type: 'HOLDING', count: holding }), [send, holding]);
  useEffect(() => send({ type: stale ? 'PRICES_STALE' : 'PRICES_FRESH' }), [send, stale]);
  useEffect(() => {
    const sub = actor.on('closed', ({ count }) => toast(t('lever.closeAll.done', { count }), 'success'));
    return () => sub.unsubscribe();
  }, [actor, t]);
  return (
    <div className="lever-close-all">
      <Button
        variant="secondary"
        className="btn-small"
        disabled={!view.openEnabled}
        onClick={() => send({ type: 'OPEN' })}
        data-testid="close-all"
      >
        {t('lever.closeAll.action')}
      </Button>
      {view.sheetOpen ? (
        <ConfirmSheet
          title={t('lever.closeAll.title', { count: view.holding })}
          facts={[
            { label: t('lever.closeAll.positions'), value: String(view.holding), testId: 'close-all-count' },
            { label: t('lever.confirm.fillsAt'), value: t('lever.closeAll.eachAt') },
          ]}
          note={view.error ?? t('lever.closeAll.note')}
          confirmLabel={t('lever.closeAll.confirm', { count: view.holding })}
          confirmClass="lever-confirm is-short"
          confirmEnabled={view.confirmEnabled}
          blockedNote={view.blockedByStalePrices ? t('lever.staleBlocked') : null}
          onConfirm={() => send({ type: 'CONFIRM' })}
          onBack={() => send({ type: 'BACK' })}
        />
      ) : null}
      <OrderFlow drawing="lever-close-all" snapshot={snapshot} title={t('machineChart.title')} />
    </div>
  );
}
