import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../../components/Icon';
import { ListGroup, ListItem } from '../../../../components/List';
import { Page } from '../../../../components/Page';
import { Loading, StateBadge } from '../../components/parts';
import { useVerificationInfo } from '../../hooks/useVerification';
import '../../identity.css';

/** Identity verification: the state of both levels (live), and the way to each. */
export default function VerificationPage(): ReactElement {
  const { t } = useTranslation();
  const { info, failed, reload } = useVerificationInfo();

  if (!info) {
    return (
      <Page title={t('kyc.title')}>
        <Loading failed={failed} retry={() => void reload()} />
      </Page>
    );
  }
  const { basic, advanced } = info;
  const sub = (level: typeof basic | typeof advanced, fallback: string) =>
    level.state === 'rejected' && level.reason ? t('kyc.rejectedReason', { reason: level.reason }) : fallback;
  return (
    <Page title={t('kyc.title')}>
      <div className="note note-info">
        <Icon name="shield" size={18} />
        <p>{t('kyc.lead')}</p>
      </div>
      <ListGroup>
        <ListItem
          icon="user"
          label={t('kyc.basic')}
          sub={sub(basic, t('kyc.basicSub'))}
          value={<StateBadge state={basic.state} />}
          to="/pages/verification/basic"
        />
        <ListItem
          icon="document"
          label={t('kyc.advanced')}
          sub={sub(advanced, t('kyc.advancedSub'))}
          value={<StateBadge state={advanced.state} />}
          to="/pages/verification/advanced"
        />
      </ListGroup>
      <ListGroup>
        <ListItem icon="info" label={t('kyc.notice')} sub={t('kyc.noticeSub')} to="/pages/verification/agree" />
      </ListGroup>
    </Page>
  );
}
