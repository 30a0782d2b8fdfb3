import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openSupportChat } from '../../../../../../core/api/chat';
import { SUPPORT_TOPICS, type SupportTopic } from '../../../../../../protocol/chat';
import { Button } from '../../../../../components/Button';
import { Page } from '../../../../../components/Page';
import { errorText } from '../../../../../lib/i18n';
import { chatKeys } from '../../../hooks/queries';
import '../../../chat.css';

/** A new support conversation (help/center/newchat, with the default navigation bar): pick a topic, then chat. */
export default function NewSupportChatPage(): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [topic, setTopic] = useState<SupportTopic | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!topic) return setError(errorText('chatTopicRequired'));
    setBusy(true);
    const r = await openSupportChat(topic);
    setBusy(false);
    if (!r.ok) return setError(r.message);
    await client.invalidateQueries({ queryKey: chatKeys.support });
    void navigate({ to: '/pages/help/center/chat', replace: true });
  };
  return (
    <Page title={t('chat.newTitle')}>
      <form className="chat-new" onSubmit={(e) => void submit(e)}>
        <fieldset className="chat-topics">
          <legend className="list-title">{t('chat.topicLabel')}</legend>
          {SUPPORT_TOPICS.map((value) => (
            <label key={value} className={topic === value ? 'chat-topic is-active' : 'chat-topic'}>
              <input
                type="radio"
                name="topic"
                value={value}
                checked={topic === value}
                onChange={() => {
                  setTopic(value);
                  setError(null);
                }}
              />
              <span>{t(`chat.topics.${value}`)}</span>
            </label>
          ))}
        </fieldset>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <p className="chat-hint">{t('chat.startHint')}</p>
        <Button type="submit" block busy={busy}>
          {t('chat.start')}
        </Button>
      </form>
    </Page>
  );
}
