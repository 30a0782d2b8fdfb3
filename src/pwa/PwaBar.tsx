import type { ReactElement } from 'react';
import { useSnapshot } from 'valtio';
import { ConnectionBanner } from './ConnectionBanner';
import { appUpdate } from './update';
import './pwa.css';

/**
 * The shell's strip above the tab bar (src/app/Shell.tsx): the offline state and, when a new version waits, the
 * registration's "new version" prompt. The live region is always there, so a screen reader hears a banner when it
 * appears, not on every re-render.
 */
export function PwaBar(): ReactElement {
  const { prompt: UpdatePrompt } = useSnapshot(appUpdate);
  return (
    <div className="pwa-bar" role="status">
      <ConnectionBanner />
      {UpdatePrompt ? <UpdatePrompt /> : null}
    </div>
  );
}
