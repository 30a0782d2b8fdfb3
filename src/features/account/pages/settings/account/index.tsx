import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchAccount } from '../../../../../../core/api/account';
import { Button } from '../../../../../components/Button';
import { Spinner } from '../../../../../components/Controls';
import { Icon } from '../../../../../components/Icon';
import { ListGroup, ListItem } from '../../../../../components/List';
import { Page } from '../../../../../components/Page';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { copyText } from '../../../../../lib/clipboard';
import { formatDateTime } from '../../../../../lib/format';
import { setUser } from '../../../../../state/session';
import { settings } from '../../../../../state/settings';
import { toast } from '../../../../../state/toasts';
import '../../../account.css';

export default function AccountPage(): ReactElement {
  const { t } = useTranslation();
  const { lang } = useSnapshot(settings);
  const account = useQuery({
    queryKey: keys.account,
    queryFn: async () => {
      const r = await need(fetchAccount());
      // The overview carries the freshest copy of the stored user.
      setUser(r.user);
      return r;
    },
  });
  const data = account.data;

  const copy = async (code: string) => {
    if (await copyText(code)) toast(t('common.copied'), 'success');
    else toast(t('common.copyFailed'), 'error');
  };

  if (!data) {
    return (
      <Page title={t('account.title')}>
        <div className="page-center state-view">
          {loadFailed(account) ? (
            <>
              <p className="state-text">{t('common.loadFailed')}</p>
              <Button onClick={() => void account.refetch()}>{t('common.retry')}</Button>
            </>
          ) : (
            <Spinner label={t('common.loading')} />
          )}
        </div>
      </Page>
    );
  }

  const u = data.user;
  const none = t('account.notSet');
  return (
    <Page title={t('account.title')}>
      <div className="greeting card">
        <span className="avatar" aria-hidden="true">
          <Icon name="user" size={24} />
        </span>
        <div>
          <h2>{u.username}</h2>
          <p>{t('account.memberSince', { date: formatDateTime(u.created_at, lang, false) })}</p>
        </div>
      </div>
      <ListGroup title={t('account.details')}>
        <ListItem label={t('account.username')} value={u.username} />
        <ListItem label={t('form.email')} value={u.email ?? none} />
        <ListItem label={t('form.phone')} value={u.mobile ? `+${u.area_code ?? ''} ${u.mobile}` : none} />
        <ListItem
          label={t('account.inviteCode')}
          value={
            <span className="copy-row">
              {u.invite_code}
              <button
                type="button"
                className="field-icon-btn"
                onClick={() => void copy(u.invite_code)}
                aria-label={t('account.copyInvite')}
              >
                <Icon name="copy" size={18} />
              </button>
            </span>
          }
        />
      </ListGroup>
      <ListGroup title={t('account.activity')}>
        <ListItem label={t('account.invited')} value={String(data.invite_count)} />
        <ListItem
          label={t('account.lastLogin')}
          value={data.last_login_at ? formatDateTime(data.last_login_at, lang) : none}
        />
        <ListItem label={t('account.sessions')} value={String(data.sessions)} />
      </ListGroup>
    </Page>
  );
}
