import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../../../components/Icon';
import { ListGroup, ListItem } from '../../../../../components/List';
import { Page } from '../../../../../components/Page';
import { useHasFundPassword } from '../../../../../data/fundPassword';
import { AntiPhishing } from '../../../components/AntiPhishing';
import { SignedInDevices } from '../../../components/SignedInDevices';
import { WalletLinks } from '../../../components/WalletLinks';
import '../../../account.css';

/** Security centre: login password, fund password, linked wallets, signed-in devices and the anti-phishing code. */
export default function SecurityPage(): ReactElement {
  const { t } = useTranslation();
  const fundSet = useHasFundPassword();

  const status =
    fundSet === null ? undefined : fundSet ? (
      <span className="badge badge-ok">{t('security.set')}</span>
    ) : (
      <span className="badge badge-warn">{t('security.notSet')}</span>
    );

  return (
    <Page title={t('security.title')}>
      <div className="note note-info">
        <Icon name="shield" size={18} />
        <p>{t('security.lead')}</p>
      </div>
      <ListGroup>
        <ListItem
          icon="lock"
          label={t('security.loginPassword')}
          sub={t('security.loginPasswordHint')}
          to="/pages/settings/security/changePassword"
        />
        <ListItem
          icon="key"
          label={t('security.fundPassword')}
          sub={t('security.fundPasswordHint')}
          value={status}
          to="/pages/settings/security/changePayPassword"
        />
      </ListGroup>
      <WalletLinks />
      <SignedInDevices />
      <AntiPhishing />
    </Page>
  );
}
