import type { ReactElement } from 'react';
import { LegalPage } from '../../../components/legal';
import '../../../account.css';

export default function PrivacyPolicyPage(): ReactElement {
  return <LegalPage doc="privacy" />;
}
