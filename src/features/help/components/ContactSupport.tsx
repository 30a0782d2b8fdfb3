import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ListGroup, ListItem } from '../../../components/List';

/** Where the customer-service chat is (help/center/chat): at the top of the help centre and under each article. */
export const CHAT_PATH = '/pages/help/center/chat';

export function ContactSupport(): ReactElement {
  const { t } = useTranslation();
  return (
    <div data-testid="help-contact">
      <ListGroup>
        <ListItem icon="mail" label={t('help.contact.title')} sub={t('help.contact.text')} to={CHAT_PATH} />
      </ListGroup>
    </div>
  );
}
