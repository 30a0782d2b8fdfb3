import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { proxy, useSnapshot } from 'valtio';
import { Button } from '../components/Button';
import { Icon } from '../components/Icon';
import { appUpdate } from './update';

const state = proxy({ applying: false });
let activate: (() => Promise<void>) | null = null;

/** A new version waits: show the prompt; `apply` lets that version take over (the page then reloads once). */
export function offerUpdate(apply: () => Promise<void>): void {
  activate = apply;
  state.applying = false;
  appUpdate.prompt = UpdatePrompt;
}

/** The user pressed reload: activate the waiting version once, however often the button is pressed. */
export function applyUpdate(): void {
  if (!activate || state.applying) return;
  state.applying = true;
  activate().catch((err: unknown) => {
    console.warn('update not applied', err);
    state.applying = false;
  });
}

/** "Later": the prompt goes; the waiting version starts when every window of the app has been closed. */
export function postponeUpdate(): void {
  appUpdate.prompt = null;
}

/** "A new version is available": Reload activates it, Later hides the prompt. */
export function UpdatePrompt(): ReactElement {
  const { t } = useTranslation();
  const { applying } = useSnapshot(state);
  return (
    <div className="pwa-banner pwa-banner-update" data-testid="update-prompt">
      <Icon name="refresh" size={18} />
      <span>{t('pwa.updateReady')}</span>
      <span className="pwa-actions">
        <Button variant="ghost" className="btn-small" onClick={postponeUpdate} disabled={applying}>
          {t('pwa.later')}
        </Button>
        <Button className="btn-small" onClick={applyUpdate} busy={applying}>
          {t('pwa.reload')}
        </Button>
      </span>
    </div>
  );
}
