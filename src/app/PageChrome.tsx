import { type ReactElement, type ReactNode, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageChromeContext } from '../components/page-chrome';
import { setMenuOpen } from '../state/ui';
import { useGoBack } from './back';

/**
 * The app's side of every page frame (components/Page, components/NavBar): back through the router (SPEC 1), the
 * left menu's state, and the document title beside the brand. The router wraps every route in it.
 */
export function PageChrome({ children }: { children: ReactNode }): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const brand = t('brand');
  const showTitle = useCallback(
    (title: string) => {
      document.title = title && title !== brand ? `${title} · ${brand}` : brand;
    },
    [brand],
  );
  const chrome = useMemo(() => ({ goBack, openMenu: () => setMenuOpen(true), showTitle }), [goBack, showTitle]);
  return <PageChromeContext value={chrome}>{children}</PageChromeContext>;
}
