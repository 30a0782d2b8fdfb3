import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { resetLeverPracticeFunds } from '../../../../core/api/lever';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { need } from '../../../data/query';
import { leverKeys } from '../keys';

/** "Reset practice funds?": back to 10,000 USDT on the simulator book (a ledger entry; real money never moves). */
export default function ResetPractice({ onClose }: { onClose: () => void }): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const reset = useMutation({
    mutationFn: () => need(resetLeverPracticeFunds()),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: leverKeys.deal('simulator') });
      onClose();
    },
  });
  return (
    <Dialog
      open
      title={t('lever.book.resetTitle')}
      onClose={onClose}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('lever.book.cancel')}
          </Button>
          <Button busy={reset.isPending} onClick={() => reset.mutate()} data-testid="reset-confirm">
            {t('lever.book.resetConfirm')}
          </Button>
        </>
      }
    >
      <p>{t('lever.book.resetText')}</p>
    </Dialog>
  );
}
