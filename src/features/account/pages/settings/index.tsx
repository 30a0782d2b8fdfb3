import { Link, useRouter } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { VERSIONS } from '../../../../app/versions';
import { Button } from '../../../../components/Button';
import { Switch } from '../../../../components/Controls';
import { Dialog } from '../../../../components/Dialog';
import { ListGroup, ListItem } from '../../../../components/List';
import { Page } from '../../../../components/Page';
import { HOME_PATH } from '../../../../lib/first-route';
import { CONFIRMED_PRODUCTS, orderConfirmation, setConfirmOrders } from '../../../../state/order-confirmation';
import { isLoggedIn, session } from '../../../../state/session';
import { setShowOrderFlow, setTheme, settings } from '../../../../state/settings';
import { clearCache } from '../../../../state/storage';
import { toast } from '../../../../state/toasts';
import { logout } from '../../session';
import '../../account.css';

type Open = null | 'about' | 'cache' | 'logout';

export default function SettingsPage(): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  const { theme, lang, showOrderFlow } = useSnapshot(settings);
  const { skip: skipConfirm } = useSnapshot(orderConfirmation);
  const snap = useSnapshot(session);
  const loggedIn = isLoggedIn(snap);
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const close = () => setOpen(null);

  const doClear = async () => {
    setBusy(true);
    await clearCache();
    setBusy(false);
    close();
    toast(t('settings.cacheCleared'), 'success');
  };

  const doLogout = async () => {
    setBusy(true);
    await logout();
    setBusy(false);
    close();
    toast(t('settings.loggedOut'), 'success');
    await router.navigate({ to: HOME_PATH, replace: true });
  };

  return (
    <Page title={t('settings.title')}>
      <ListGroup title={t('settings.general')}>
        <ListItem
          icon="globe"
          label={t('settings.language')}
          value={t(`langName.${lang}`)}
          to="/pages/settings/language/language"
        />
        <ListItem
          icon={theme === 'dark' ? 'moon' : 'sun'}
          label={t('settings.darkMode')}
          end={
            <Switch
              checked={theme === 'dark'}
              onChange={(on) => setTheme(on ? 'dark' : 'light')}
              label={t('settings.darkMode')}
            />
          }
        />
        <ListItem
          icon="layers"
          label={t('orderFlow.label')}
          sub={t('orderFlow.sub')}
          end={<Switch checked={showOrderFlow} onChange={setShowOrderFlow} label={t('orderFlow.label')} />}
        />
      </ListGroup>
      <ListGroup title={t('orderConfirm.title')}>
        {CONFIRMED_PRODUCTS.map((product) => (
          <ListItem
            key={product}
            icon="shield"
            label={t(`orderConfirm.${product}`)}
            sub={t(`orderConfirm.${product}Sub`)}
            end={
              <Switch
                checked={!skipConfirm.includes(product)}
                onChange={(on) => setConfirmOrders(product, on)}
                label={t(`orderConfirm.${product}`)}
              />
            }
          />
        ))}
      </ListGroup>
      <ListGroup title={t('settings.accountGroup')}>
        <ListItem
          icon="user"
          label={t('account.title')}
          sub={loggedIn ? snap.user?.username : t('settings.loginToSee')}
          to="/pages/settings/account/index"
        />
        <ListItem
          icon="shield"
          label={t('security.title')}
          sub={loggedIn ? undefined : t('settings.loginToSee')}
          to="/pages/settings/security/index"
        />
        {loggedIn ? (
          <ListItem icon="pulse" label={t('priceAlerts.label')} sub={t('priceAlerts.sub')} to="/pages/alerts/index" />
        ) : null}
      </ListGroup>
      <ListGroup title={t('settings.appGroup')}>
        <ListItem icon="info" label={t('settings.about')} onClick={() => setOpen('about')} />
        <ListItem icon="trash" label={t('settings.clearCache')} onClick={() => setOpen('cache')} />
        <ListItem icon="tag" label={t('settings.version')} value={VERSIONS.app} />
      </ListGroup>
      {loggedIn ? (
        <Button variant="danger" block onClick={() => setOpen('logout')}>
          {t('settings.logout')}
        </Button>
      ) : (
        <Link to="/pages/user/login/login" className="btn btn-primary btn-block">
          <span className="btn-label">{t('auth.login')}</span>
        </Link>
      )}

      <Dialog
        open={open === 'about'}
        title={t('settings.about')}
        onClose={close}
        actions={<Button onClick={close}>{t('common.ok')}</Button>}
      >
        <dl className="kv">
          <dt>{t('settings.appVersion')}</dt>
          <dd>{t('settings.appVersionValue', { version: VERSIONS.app, code: VERSIONS.appCode })}</dd>
          <dt>{t('settings.configVersion')}</dt>
          <dd>{VERSIONS.config}</dd>
          <dt>{t('settings.storeVersion')}</dt>
          <dd>{VERSIONS.store}</dd>
        </dl>
      </Dialog>
      <Dialog
        open={open === 'cache'}
        title={t('settings.clearCacheTitle')}
        onClose={close}
        actions={
          <>
            <Button variant="secondary" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button onClick={doClear} busy={busy}>
              {t('settings.clear')}
            </Button>
          </>
        }
      >
        {t('settings.clearCacheText')}
      </Dialog>
      <Dialog
        open={open === 'logout'}
        title={t('settings.logoutTitle')}
        onClose={close}
        actions={
          <>
            <Button variant="secondary" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" onClick={doLogout} busy={busy}>
              {t('settings.logout')}
            </Button>
          </>
        }
      >
        {t('settings.logoutText')}
      </Dialog>
    </Page>
  );
}
