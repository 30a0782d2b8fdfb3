import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ListGroup, ListItem } from '../../../../components/List';
import { Page } from '../../../../components/Page';
import '../../account.css';

/** Overview of the agreements with links to each text. */
export default function AgreementsPage(): ReactElement {
  const { t } = useTranslation();
  return (
    <Page title={t('agree.title')}>
      <p className="muted">{t('agree.lead')}</p>
      <ListGroup>
        <ListItem
          icon="document"
          label={t('legal.terms.title')}
          sub={t('agree.termsHint')}
          to="/pages/user/privacyAgreement/userAgreement"
        />
        <ListItem
          icon="shield"
          label={t('legal.privacy.title')}
          sub={t('agree.privacyHint')}
          to="/pages/user/privacyAgreement/privacyAgreement"
        />
        <ListItem
          icon="check"
          label={t('legal.consent.title')}
          sub={t('agree.consentHint')}
          to="/pages/user/agree/agree"
        />
      </ListGroup>
    </Page>
  );
}
