import type { ReactElement } from 'react';
import { LegalPage } from '../../../components/legal';
import '../../../account.css';

export default function UserAgreementPage(): ReactElement {
  return <LegalPage doc="terms" />;
}
