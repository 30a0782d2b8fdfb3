import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { SupportTopic } from '../../../../protocol/chat';
import type { HelpTopic } from '../../../../protocol/help';
import { ListGroup, ListItem } from '../../../components/List';

/** Where the customer-service chat is (help/center/chat): at the top of the help centre and under each article. */
export const CHAT_PATH = '/pages/help/center/chat';

/** The support topic a help topic asks about (security questions are about the account). */
const SUPPORT_TOPIC: Readonly<Record<HelpTopic, SupportTopic>> = {
  account: 'account',
  deposit: 'deposit',
  withdrawal: 'withdrawal',
  trading: 'trading',
  c2c: 'c2c',
  security: 'account',
  other: 'other',
};

/**
 * One tap to the support chat, ready to type. `topic`: what the reader is looking at (the article's topic, the chosen
 * topic filter), so a conversation it opens starts on that topic for support.
 */
export function ContactSupport({ topic = null }: { topic?: HelpTopic | null }): ReactElement {
  const { t } = useTranslation();
  return (
    <div data-testid="help-contact">
      <ListGroup>
        <ListItem
          icon="mail"
          label={t('help.contact.title')}
          sub={t('help.contact.text')}
          to={CHAT_PATH}
          {...(topic ? { search: { topic: SUPPORT_TOPIC[topic] } } : {})}
        />
      </ListGroup>
    </div>
  );
}
