import type { ReactElement } from 'react';
import { LegalPage } from '../../../app/account/legal';

export default function PrivacyPolicyPage(): ReactElement {
  return <LegalPage doc="privacy" />;
}
