import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { safeBackpage } from '../../../../app/guard';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { useQueryParam } from '../../../../hooks/hooks';
import '../../account.css';

/** Choose how to register (phone or e-mail), or go to login. */
export default function ChoosePage(): ReactElement {
  const { t } = useTranslation();
  const backpage = safeBackpage(useQueryParam('backpage'));
  const invite = useQueryParam('invite');
  const carry = { ...(backpage ? { backpage } : {}), ...(invite ? { invite } : {}) };
  return (
    <Page title={t('choose.title')}>
      <div className="auth-head">
        <h2>{t('choose.heading')}</h2>
        <p>{t('choose.lead')}</p>
      </div>
      <Link to="/pages/user/register" search={{ ...carry, type: 'mobile' }} className="choice">
        <span className="list-icon">
          <Icon name="phone" size={20} />
        </span>
        <span className="choice-text">
          <strong>{t('choose.phone')}</strong>
          <span>{t('choose.phoneHint')}</span>
        </span>
        <Icon name="chevron" size={18} className="list-chevron" />
      </Link>
      <Link to="/pages/user/register" search={{ ...carry, type: 'email' }} className="choice">
        <span className="list-icon">
          <Icon name="mail" size={20} />
        </span>
        <span className="choice-text">
          <strong>{t('choose.email')}</strong>
          <span>{t('choose.emailHint')}</span>
        </span>
        <Icon name="chevron" size={18} className="list-chevron" />
      </Link>
      <p className="form-foot">
        {t('auth.haveAccount')}{' '}
        <Link to="/pages/user/login/login" search={backpage ? { backpage } : {}}>
          {t('auth.login')}
        </Link>
      </p>
    </Page>
  );
}
