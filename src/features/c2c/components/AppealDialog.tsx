import { type ReactElement, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { c2cAppealRequest } from '../../../../protocol/c2c';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { errorText } from '../../../lib/i18n';

/** Opening an appeal: the reason for the operator (required, at most 500 characters, as the server checks it). */
export function AppealDialog({
  open,
  onAppeal,
  onClose,
}: {
  open: boolean;
  onAppeal: (reason: string) => void;
  onClose: () => void;
}): ReactElement | null {
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const checked = c2cAppealRequest.shape.reason.safeParse(reason);
    if (!checked.success) {
      setError(errorText(checked.error.issues[0]?.message ?? 'invalidInput'));
      return;
    }
    onClose();
    onAppeal(checked.data);
  };
  return (
    <Dialog
      open={open}
      title={t('c2c.appeal.title')}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} data-testid="c2c-appeal-submit">
            {t('c2c.appeal.submit')}
          </Button>
        </>
      }
    >
      <p className="c2c-dialog-text">{t('c2c.appeal.text')}</p>
      <div className={`field${error ? ' has-error' : ''}`}>
        <label className="field-label" htmlFor={id}>
          {t('c2c.appeal.reason')}
        </label>
        <div className="field-box c2c-textarea-box">
          <textarea
            id={id}
            className="field-input c2c-textarea"
            value={reason}
            maxLength={500}
            rows={4}
            placeholder={t('c2c.appeal.placeholder')}
            onChange={(e) => {
              setReason(e.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-msg` : undefined}
            data-testid="c2c-appeal-reason"
          />
        </div>
        {error ? (
          <p className="field-msg field-error" id={`${id}-msg`} role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
