import type { ReactElement } from 'react';
import { LegalPage } from '../../../components/legal';
import '../../../account.css';

/** The consent text: what a customer agrees to when opening an account. */
export default function ConsentPage(): ReactElement {
  return <LegalPage doc="consent" />;
}
