import { Fragment, type ReactElement, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { Dialog } from './Dialog';

/** One line of a confirmation: what it is and its value with its unit. */
export interface SheetFact {
  label: string;
  value: string;
  testId?: string;
}

/**
 * The confirmation before money moves (lever opens and closes, spot market orders): the facts of the order as it
 * will be sent, a note, and the two ways out. The order's machine holds the order meanwhile (its `confirming`
 * state); CONFIRM is off while prices are stale, as the ticket's own button is.
 */
export function ConfirmSheet({
  title,
  field,
  facts,
  note,
  confirmLabel,
  confirmClass,
  confirmEnabled,
  blockedNote,
  onConfirm,
  onBack,
}: {
  title: string;
  /** What the trader may still change on the sheet (the lots of a close), above the facts. */
  field?: ReactNode;
  facts: readonly SheetFact[];
  note: string;
  confirmLabel: string;
  /** The product's own colours for the side (`lever-confirm is-long`, `spot-submit is-buy`, ...). */
  confirmClass: string;
  confirmEnabled: boolean;
  /** Why confirming is off now (stale prices), shown while it is. */
  blockedNote: string | null;
  onConfirm: () => void;
  onBack: () => void;
}): ReactElement {
  const { t } = useTranslation();
  // On the body: a list row that asks (content-visibility, containment) would otherwise hold the fixed layer inside it.
  return createPortal(
    <Dialog
      open
      title={title}
      onClose={onBack}
      actions={
        <>
          <Button variant="secondary" onClick={onBack} data-testid="confirm-back">
            {t('common.cancel')}
          </Button>
          <button
            type="button"
            className={confirmClass}
            disabled={!confirmEnabled}
            onClick={onConfirm}
            data-testid="confirm-action"
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {field}
      <dl className="kv" data-testid="confirm-sheet">
        {facts.map((fact) => (
          <Fragment key={fact.label}>
            <dt>{fact.label}</dt>
            <dd data-testid={fact.testId}>{fact.value}</dd>
          </Fragment>
        ))}
      </dl>
      {blockedNote ? (
        <p className="note note-warn" role="status">
          {blockedNote}
        </p>
      ) : null}
      <p className="note">{note}</p>
    </Dialog>,
    document.body,
  );
}
