import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { copyText } from '../../../lib/clipboard';
import { toast } from '../../../state/toasts';

/** Copies `text`; SPEC 8's "Copy failed, copy manually" when the browser refuses (the text stays selectable). */
export function CopyButton({ text, label }: { text: string; label: string }): ReactElement {
  const { t } = useTranslation();
  const copy = async () => {
    if (await copyText(text)) toast(t('funding.copied'), 'success');
    else toast(t('funding.copyFailed'), 'error');
  };
  return (
    <Button variant="secondary" className="funding-copy" onClick={() => void copy()} data-testid="copy">
      <Icon name="copy" size={16} /> {label}
    </Button>
  );
}
