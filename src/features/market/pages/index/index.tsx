import { Link } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Icon, type IconName } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { loadNamespace } from '../../../../lib/i18n';
import { isLoggedIn, session } from '../../../../state/session';
import { MarketBoard } from '../../components/MarketBoard';
import { snapshotBoard } from '../../snapshot-seed';
import '../../market.css';

const FEATURES: readonly { icon: IconName; key: 'spot' | 'derivatives' | 'finance' | 'security' }[] = [
  { icon: 'spot', key: 'spot' },
  { icon: 'option', key: 'derivatives' },
  { icon: 'finance', key: 'finance' },
  { icon: 'shield', key: 'security' },
];

/**
 * The latest announcements (the notice feature's strip, with its texts), loaded after the first paint: the first
 * route's budget is for the market, and the strip shows nothing until its answer is there anyway.
 */
const LatestAnnouncements = lazy(() =>
  Promise.all([import('../../../notice/public'), loadNamespace('notice')]).then(([m]) => ({
    default: m.LatestAnnouncements,
  })),
);

/**
 * What waits for a logged-in user (an allotment to pay, a C2C order to pay or release), loaded only in the member's
 * view: a guest's first route carries no more of it than this line (the list and its streams load with it, after).
 */
const AwaitingYou = lazy(() => import('../../../awaiting/public').then((m) => ({ default: m.AwaitingYou })));

function Announcements(): ReactElement {
  return (
    <Suspense fallback={null}>
      <LatestAnnouncements />
    </Suspense>
  );
}

function SettingsLink(): ReactElement {
  const { t } = useTranslation();
  return (
    <Link to="/pages/settings/index" className="icon-btn" aria-label={t('settings.title')}>
      <Icon name="settings" />
    </Link>
  );
}

function RiskNote(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="note">
      <Icon name="alert" size={18} />
      <p>{t('home.risk')}</p>
    </div>
  );
}

function Guest(): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <section className="hero">
        <span className="hero-kicker">
          <Icon name="layers" size={16} />
          {t('home.kicker')}
        </span>
        <h2 className="hero-title">{t('home.title')}</h2>
        <p className="hero-text">{t('home.lead')}</p>
        <div className="btn-row">
          <Link to="/pages/user/login/login" className="btn btn-primary">
            <span className="btn-label">{t('auth.login')}</span>
          </Link>
          <Link to="/pages/user/choose" className="btn btn-secondary">
            <span className="btn-label">{t('auth.register')}</span>
          </Link>
        </div>
      </section>
      <Announcements />
      <MarketBoard initial={snapshotBoard()} />
      <h2 className="section-title">{t('home.offerTitle')}</h2>
      <div className="features">
        {FEATURES.map((f) => (
          <article className="feature" key={f.key}>
            <span className="list-icon">
              <Icon name={f.icon} size={20} />
            </span>
            <h3>{t(`home.features.${f.key}.title`)}</h3>
            <p>{t(`home.features.${f.key}.text`)}</p>
          </article>
        ))}
      </div>
      <RiskNote />
    </>
  );
}

function Member({ name, hasFundPassword }: { name: string; hasFundPassword: boolean }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <section className="hero">
        <div className="greeting">
          <span className="avatar" aria-hidden="true">
            <Icon name="user" size={24} />
          </span>
          <div>
            <h2>{t('home.hello', { name })}</h2>
            <p>{t('home.welcomeBack')}</p>
          </div>
        </div>
      </section>
      <Suspense fallback={null}>
        <AwaitingYou />
      </Suspense>
      {hasFundPassword ? null : (
        <Link to="/pages/settings/security/changePayPassword" className="note note-info">
          <Icon name="key" size={18} />
          <span>{t('home.fundPasswordHint')}</span>
        </Link>
      )}
      <Announcements />
      <MarketBoard initial={snapshotBoard()} />
      <h2 className="section-title">{t('home.shortcuts')}</h2>
      <nav className="shortcuts" aria-label={t('home.shortcuts')}>
        <Link to="/pages/settings/security/index" className="shortcut">
          <span className="list-icon">
            <Icon name="shield" size={20} />
          </span>
          {t('security.title')}
        </Link>
        <Link to="/pages/settings/account/index" className="shortcut">
          <span className="list-icon">
            <Icon name="user" size={20} />
          </span>
          {t('account.title')}
        </Link>
        <Link to="/pages/settings/index" className="shortcut">
          <span className="list-icon">
            <Icon name="settings" size={20} />
          </span>
          {t('settings.title')}
        </Link>
      </nav>
      <RiskNote />
    </>
  );
}

export default function HomePage(): ReactElement {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const user = isLoggedIn(snap) ? snap.user : null;
  return (
    <Page title={t('brand')} left="menu" right={<SettingsLink />}>
      {user ? <Member name={user.username} hasFundPassword={user.has_fund_password} /> : <Guest />}
    </Page>
  );
}
