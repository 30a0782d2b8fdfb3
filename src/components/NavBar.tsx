import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';
import { usePageChrome } from './page-chrome';

/** The custom navigation bar (44px): back or menu on the left, the title, an optional action on the right. */
export function NavBar({
  title,
  left = 'back',
  right,
}: {
  title: ReactNode;
  left?: 'back' | 'menu' | 'none';
  right?: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  const { goBack, openMenu } = usePageChrome();
  return (
    <header className="navbar">
      <div className="navbar-side">
        {left === 'back' ? (
          <button type="button" className="icon-btn" onClick={goBack} aria-label={t('nav.back')}>
            <Icon name="back" />
          </button>
        ) : left === 'menu' ? (
          <button
            type="button"
            className="icon-btn"
            onClick={openMenu}
            aria-label={t('nav.menu')}
            aria-haspopup="dialog"
          >
            <Icon name="menu" />
          </button>
        ) : null}
      </div>
      <h1 className="navbar-title">{title}</h1>
      <div className="navbar-side navbar-right">{right}</div>
    </header>
  );
}
