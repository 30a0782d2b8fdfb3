import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { closeAllLeverPositions } from '../../../../core/api/lever';
import type { LeverAccount } from '../../../../protocol/lever';
import { Button } from '../../../components/Button';
import { ConfirmSheet } from '../../../components/ConfirmSheet';
import { toast } from '../../../state/toasts';

/**
 * Close-all (RULES "Partial close": every holding position of the book, each at the next recorded tick of its
 * instrument), confirmed on a sheet that says how many. Orders not yet open and positions already closing stay; each
 * row follows its own position from the socket. Loaded with the positions list.
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
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const closeAll = async () => {
    setBusy(true);
    setError(null);
    const answer = await closeAllLeverPositions(book);
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message);
      return;
    }
    setOpen(false);
    toast(t('lever.closeAll.done', { count: answer.positions.length }), 'success');
  };
  return (
    <div className="lever-close-all">
      <Button
        variant="secondary"
        className="btn-small"
        disabled={holding === 0 || stale}
        onClick={() => setOpen(true)}
        data-testid="close-all"
      >
        {t('lever.closeAll.action')}
      </Button>
      {open ? (
        <ConfirmSheet
          title={t('lever.closeAll.title', { count: holding })}
          facts={[
            { label: t('lever.closeAll.positions'), value: String(holding), testId: 'close-all-count' },
            { label: t('lever.confirm.fillsAt'), value: t('lever.closeAll.eachAt') },
          ]}
          note={error ?? t('lever.closeAll.note')}
          confirmLabel={t('lever.closeAll.confirm', { count: holding })}
          confirmClass="lever-confirm is-short"
          confirmEnabled={!busy && !stale && holding > 0}
          blockedNote={stale ? t('lever.staleBlocked') : null}
          onConfirm={closeAll}
          onBack={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}
