import type { ReactElement } from 'react';
import { LegalPage } from '../../../app/account/legal';

export default function UserAgreementPage(): ReactElement {
  return <LegalPage doc="terms" />;
}
