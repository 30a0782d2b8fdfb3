import { Link } from '@tanstack/react-router';
import { type ReactElement, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Icon } from '../components/Icon';
import { keepFocusInside } from '../components/modalFocus';
import { isLoggedIn, session } from '../state/session';
import { setMenuOpen, ui } from '../state/ui';
import { MENU } from './menu';

const close = () => setMenuOpen(false);

/** The left menu (drawer): the SPEC 2 entries, plus login/register or the account. The shell closes it on navigation. */
export function SideMenu(): ReactElement | null {
  const { t } = useTranslation();
  const { menuOpen } = useSnapshot(ui);
  const snap = useSnapshot(session);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    // Like a dialog: focus moves in, Tab keeps it there, and it goes back to the menu button when the menu closes.
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
      else if (panel.current) keepFocusInside(panel.current, e);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (before?.isConnected) before.focus();
    };
  }, [menuOpen]);

  if (!menuOpen) return null;
  const loggedIn = isLoggedIn(snap);
  return (
    <div className="drawer-layer">
      <button type="button" className="drawer-backdrop" aria-hidden="true" tabIndex={-1} onClick={close} />
      <div className="drawer-frame">
        <div className="drawer" role="dialog" aria-modal="true" aria-label={t('nav.menu')} tabIndex={-1} ref={panel}>
          <div className="drawer-head">
            <span className="avatar" aria-hidden="true">
              <Icon name="user" size={22} />
            </span>
            <div className="drawer-who">
              <strong>{loggedIn && snap.user ? snap.user.username : t('menu.guest')}</strong>
              <span>{loggedIn ? t('menu.signedIn') : t('menu.guestHint')}</span>
            </div>
            <button type="button" className="icon-btn" onClick={close} aria-label={t('common.close')}>
              <Icon name="close" />
            </button>
          </div>
          {loggedIn ? null : (
            <div className="drawer-auth">
              <Link to="/pages/user/login/login" className="btn btn-primary">
                <span className="btn-label">{t('auth.login')}</span>
              </Link>
              <Link to="/pages/user/register" className="btn btn-secondary">
                <span className="btn-label">{t('auth.register')}</span>
              </Link>
            </div>
          )}
          <nav aria-label={t('nav.menu')}>
            <ul className="drawer-list">
              {loggedIn ? (
                <li>
                  <Link to="/pages/settings/account/index" className="drawer-item">
                    <Icon name="user" size={20} />
                    <span>{t('menu.account')}</span>
                  </Link>
                </li>
              ) : null}
              {MENU.map((e) => (
                <li key={e.path}>
                  <Link to={e.path} className="drawer-item">
                    <Icon name={e.icon} size={20} />
                    <span>{t(e.labelKey)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </div>
    </div>
  );
}
