import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { copyText } from '../../../lib/clipboard';
import { toast } from '../../../state/toasts';

/** One payment detail with a copy button (SPEC 8's "Copy failed, copy manually" when the browser refuses). */
export function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }): ReactElement {
  const { t } = useTranslation();
  const copy = async () => {
    if (await copyText(value)) toast(t('common.copied'), 'success');
    else toast(t('common.copyFailed'), 'error');
  };
  return (
    <div className="c2c-copy-row">
      <dt>{label}</dt>
      <dd>
        <span className="c2c-copy-value" data-testid={testId}>
          {value}
        </span>
        <button
          type="button"
          className="icon-btn c2c-copy-btn"
          onClick={() => void copy()}
          aria-label={t('c2c.order.copy', { what: label })}
          data-testid={`${testId}-copy`}
        >
          <Icon name="copy" size={18} />
        </button>
      </dd>
    </div>
  );
}
