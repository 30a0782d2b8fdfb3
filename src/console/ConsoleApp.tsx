import { useQueryClient } from '@tanstack/react-query';
import { type ReactElement, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { OpsOperator } from '../../protocol/ops-console';
import { Button } from '../components/Button';
import { Spinner } from '../components/Controls';
import { Icon } from '../components/Icon';
import { consoleSession, opsCall, signedIn, signedOut } from './api';
import { ConsoleTools } from './ConsoleTools';
import { LoginScreen } from './LoginScreen';
import { Notices } from './parts';
import { type ConsoleScreen, screenIdOf, screensFor } from './screens';

/** The console's path, followed through the browser's history (the console is a handful of screens: no router). */
function usePath(): [string, (to: string, replace?: boolean) => void] {
  const [path, setPath] = useState(() => window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const go = useCallback((to: string, replace = false) => {
    if (to !== window.location.pathname) {
      if (replace) window.history.replaceState(null, '', to);
      else window.history.pushState(null, '', to);
    }
    setPath(to);
  }, []);
  return [path, go];
}

/** The support console: sign-in, then the navigation between the screens the operator's roles allow. */
export function ConsoleApp(): ReactElement {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { token, operator } = useSnapshot(consoleSession);
  const [path, go] = usePath();

  // A token kept from earlier in this tab: ask who it belongs to (a 999 answer signs out).
  useEffect(() => {
    if (!token || operator) return;
    const abort = new AbortController();
    void opsCall('ops/me', {}, abort.signal).then((r) => {
      if (r.ok) signedIn(token, r.data);
      else if (!r.expired && !abort.signal.aborted) signedOut(r.message);
    });
    return () => abort.abort();
  }, [token, operator]);

  useEffect(() => {
    document.title = t('console.title');
  }, [t]);

  if (!token) return <LoginScreen onSignedIn={() => queryClient.clear()} />;
  if (!operator) {
    return (
      <div className="ops-login">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }

  return <ConsoleShell operator={operator} path={path} go={go} />;
}

function ConsoleShell({
  operator,
  path,
  go,
}: {
  operator: Readonly<{ name: string; roles: readonly OpsOperator['roles'][number][] }>;
  path: string;
  go: (to: string, replace?: boolean) => void;
}): ReactElement {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const groups = screensFor(operator.roles);
  const screens = groups.flatMap((g) => g.screens);
  const wanted = screenIdOf(path);
  const current: ConsoleScreen | undefined = screens.find((s) => s.id === wanted) ?? screens[0];
  // /ops, or a screen the roles do not allow: the first allowed one, in place of the address.
  useEffect(() => {
    if (current && wanted !== current.id) go(`/ops/${current.id}`, true);
  }, [current, wanted, go]);

  const logout = async () => {
    await opsCall('ops/logout', {});
    signedOut();
    queryClient.clear();
  };

  return (
    <div className="ops-app">
      <header className="ops-top">
        <p className="ops-brand">
          <Icon name="shield" size={20} /> {t('console.brand')}
        </p>
        <p className="ops-who">
          <span className="ops-who-name">{operator.name}</span>
          <span className="ops-who-roles">{operator.roles.map((r) => t(`console.roles.${r}`)).join(', ')}</span>
        </p>
        <ConsoleTools />
        <Button variant="secondary" className="btn-small" onClick={() => void logout()}>
          <Icon name="logout" size={16} /> {t('console.logout')}
        </Button>
      </header>
      <div className="ops-body">
        <nav className="ops-nav" aria-label={t('console.navLabel')}>
          {groups.map((g) => (
            <section key={g.label} className="ops-nav-group">
              <h2 className="ops-nav-title">{t(g.label as 'console.navGroup.review')}</h2>
              <ul>
                {g.screens.map((s) => (
                  <li key={s.id}>
                    <a
                      className={`ops-nav-link${s.id === current?.id ? ' is-active' : ''}`}
                      href={`/ops/${s.id}`}
                      aria-current={s.id === current?.id ? 'page' : undefined}
                      onClick={(e) => {
                        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                        e.preventDefault();
                        go(`/ops/${s.id}`);
                      }}
                    >
                      <Icon name={s.icon} size={18} />
                      <span>{t(s.label as 'console.nav.deposits')}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </nav>
        <main className="ops-main">
          {current ? (
            // Screens other than the review queues load on first use (their code and the chat's are a chunk each).
            <Suspense fallback={<Spinner />}>
              <current.Component key={current.id} />
            </Suspense>
          ) : (
            <div className="ops-state">
              <p>{t('console.noScreens')}</p>
            </div>
          )}
        </main>
      </div>
      <Notices />
    </div>
  );
}
