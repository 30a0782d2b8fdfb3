import { type ReactElement, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { copyText } from '../../../lib/clipboard';
import { toast } from '../../../state/toasts';

/**
 * One value to hand on (invite code, invite link) with a copy button. When the browser refuses to copy, SPEC 8's
 * "Copy failed, copy manually" shows and the value is selected, so the device's own copy command takes it.
 */
export function CopyValue({
  label,
  value,
  testId,
  long = false,
}: {
  label: string;
  value: string;
  testId: string;
  /** A long value (a link): smaller type, broken anywhere. */
  long?: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const text = useRef<HTMLSpanElement>(null);
  const copy = async () => {
    if (await copyText(value)) {
      toast(t('common.copied'), 'success');
      return;
    }
    toast(t('common.copyFailed'), 'error');
    const el = text.current;
    const selection = globalThis.getSelection?.();
    if (el && selection) selection.selectAllChildren(el);
  };
  return (
    <div className="promo-copy">
      <dt className="promo-copy-label">{label}</dt>
      <dd className="promo-copy-row">
        <span className={long ? 'promo-copy-value is-long' : 'promo-copy-value'} ref={text} data-testid={testId}>
          {value}
        </span>
        <button
          type="button"
          className="icon-btn promo-copy-btn"
          onClick={() => void copy()}
          aria-label={t('promotion.invite.copy', { what: label })}
          data-testid={`${testId}-copy`}
        >
          <Icon name="copy" size={18} />
        </button>
      </dd>
    </div>
  );
}
