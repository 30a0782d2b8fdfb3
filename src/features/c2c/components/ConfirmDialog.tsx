import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';

/** "Are you sure?" before an action that cannot be undone (marking paid, cancelling, releasing, closing an ad). */
export function ConfirmDialog({
  open,
  title,
  text,
  confirm,
  danger = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  confirm: string;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}): ReactElement | null {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            variant={danger ? 'danger' : 'primary'}
            onClick={() => {
              onClose();
              onConfirm();
            }}
            data-testid="c2c-confirm"
          >
            {confirm}
          </Button>
        </>
      }
    >
      <p className="c2c-dialog-text">{text}</p>
    </Dialog>
  );
}
