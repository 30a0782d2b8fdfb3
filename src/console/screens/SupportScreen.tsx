import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { precheckImage, uploadImage, uploadPercent } from '../../../core/api/upload';
import { newRequestId } from '../../../core/ids';
import { CHAT_TEXT_MAX, type ChatConversation, type ChatMessage } from '../../../protocol/chat';
import { OPS_SUPPORT_IMAGE_PATH, OPS_UPLOAD_PATH } from '../../../protocol/ops-support';
import { Button } from '../../components/Button';
import { errorText } from '../../lib/i18n';
import { operatorActive } from '../activity';
import { consoleHeaders, opsCall, opsQuery } from '../api';
import { ChatLog } from '../ChatLog';
import { formatTime, ListState, notify, ScreenHead } from '../parts';

const INBOX_KEY = ['ops', 'support', 'inbox'] as const;
/** How often the inbox and the open conversation look for new messages while on screen. */
const POLL_MS = 2_000;

/**
 * The support inbox (role support): the users' open conversations, newest activity first with their unread counts;
 * one conversation with its messages (new ones read by number, every two seconds while it is open), an answer box,
 * read receipts for the user, and closing (audited). Users see the operator's name with "Support".
 */
export function SupportScreen(): ReactElement {
  const { t } = useTranslation();
  const [state, setState] = useState<'open' | 'closed'>('open');
  const [selected, setSelected] = useState<number | null>(null);
  const inbox = useQuery({
    queryKey: [...INBOX_KEY, state],
    queryFn: ({ signal }) => opsQuery('ops/support/inbox', { state }, signal).then((d) => d.conversations),
    // Only while the operator is at the console (a poll keeps the session alive).
    refetchInterval: () => (operatorActive() ? POLL_MS : false),
  });
  const current = inbox.data?.find((c) => c.id === selected) ?? null;
  return (
    <>
      <ScreenHead
        title={t('console.nav.support')}
        intro={t('console.support.intro')}
        onRefresh={() => void inbox.refetch()}
        busy={inbox.isFetching}
      />
      <div className="ops-tabs" role="tablist" aria-label={t('console.support.filter')}>
        {(['open', 'closed'] as const).map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={state === s}
            className={state === s ? 'ops-tab is-active' : 'ops-tab'}
            onClick={() => {
              setState(s);
              setSelected(null);
            }}
          >
            {t(`console.support.${s}`)}
          </button>
        ))}
      </div>
      <div className="ops-support">
        <ListState query={inbox} empty={t(state === 'open' ? 'console.support.empty' : 'console.support.emptyClosed')}>
          {(items) => (
            <ul className="ops-pick-list" aria-label={t('console.support.conversations')}>
              {items.map((c) => (
                <InboxRow key={c.id} conversation={c} active={c.id === selected} onOpen={() => setSelected(c.id)} />
              ))}
            </ul>
          )}
        </ListState>
        {selected !== null ? (
          <Conversation key={selected} id={selected} conversation={current} onClosed={() => setSelected(null)} />
        ) : null}
      </div>
    </>
  );
}

function InboxRow({
  conversation: c,
  active,
  onOpen,
}: {
  conversation: ChatConversation;
  active: boolean;
  onOpen: () => void;
}): ReactElement {
  const { t } = useTranslation();
  const preview =
    c.last?.kind === 'image' ? t('console.support.photo') : c.last?.kind === 'text' ? (c.last.text ?? '') : '';
  return (
    <li>
      <button
        type="button"
        className={active ? 'ops-pick-row is-active' : 'ops-pick-row'}
        onClick={onOpen}
        aria-current={active || undefined}
        data-testid={`ops-conversation-${c.id}`}
      >
        <span className="ops-inbox-top">
          <strong>{c.peer}</strong>
          <span className="ops-inbox-topic">{t(`console.support.topics.${c.topic ?? 'other'}`)}</span>
          {c.unread > 0 ? <span className="ops-badge">{t('console.support.unread', { count: c.unread })}</span> : null}
        </span>
        <span className="ops-inbox-preview">{preview}</span>
        <span className="ops-inbox-time">{formatTime(c.updated_at)}</span>
      </button>
    </li>
  );
}

function Conversation({
  id,
  conversation,
  onClosed,
}: {
  id: number;
  conversation: ChatConversation | null;
  onClosed: () => void;
}): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const last = useRef(0);
  // One id per draft: pressing Send again after a lost answer posts it once; a new id once it went through.
  const draftId = useRef(newRequestId());
  const boxId = useId();

  // New messages by number: the first read takes the newest page, then only what follows the last number held.
  useEffect(() => {
    let stopped = false;
    const read = async () => {
      const r = await opsCall(
        'ops/support/messages',
        last.current ? { id: String(id), after_seq: String(last.current) } : { id: String(id) },
      );
      if (stopped || !r.ok) return;
      if (r.data.messages.length > 0) {
        setMessages((held) => {
          const bySeq = new Map(held.map((m) => [m.seq, m]));
          for (const m of r.data.messages) bySeq.set(m.seq, m);
          return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
        });
        const newest = r.data.messages.at(-1)?.seq ?? 0;
        last.current = Math.max(last.current, newest);
        if (newest > r.data.conversation.read_seq)
          void opsCall('ops/support/read', { id: String(id), seq: String(newest) });
      }
    };
    void read();
    const timer = setInterval(() => {
      if (operatorActive()) void read();
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [id]);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return setError(t('console.support.textRequired'));
    setBusy(true);
    setError(null);
    const r = await opsCall('ops/support/send', { id: String(id), text: trimmed, client_id: draftId.current });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    draftId.current = newRequestId();
    setText('');
    setMessages((held) => (held.some((m) => m.seq === r.data.seq) ? held : [...held, r.data]));
    last.current = Math.max(last.current, r.data.seq);
  };

  // A photo: uploaded first (as the console, never as a user), then sent as a message of its own.
  const [progress, setProgress] = useState<number | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const sendPhoto = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = precheckImage(file);
    if (problem) return setError(errorText(problem));
    setError(null);
    setProgress(0);
    const up = await uploadImage(file, (f) => setProgress(uploadPercent(f)), file.name, {
      path: OPS_UPLOAD_PATH,
      headers: consoleHeaders(),
    }).result;
    if (!up.ok) {
      setProgress(null);
      return setError(up.message);
    }
    const r = await opsCall('ops/support/send', {
      id: String(id),
      image_id: String(up.data.id),
      client_id: newRequestId(),
    });
    setProgress(null);
    if (!r.ok) return setError(r.message);
    setMessages((held) => (held.some((m) => m.seq === r.data.seq) ? held : [...held, r.data]));
    last.current = Math.max(last.current, r.data.seq);
  };

  const close = async () => {
    const r = await opsCall('ops/support/close', { id: String(id) });
    if (!r.ok) return setError(r.message);
    notify(t('console.support.closedNotice'));
    await client.invalidateQueries({ queryKey: [...INBOX_KEY] });
    onClosed();
  };

  const open = conversation?.state !== 'closed';
  return (
    <section
      className="ops-conversation"
      aria-label={t('console.support.conversation', { name: conversation?.peer ?? '' })}
    >
      <header className="ops-card-head">
        <h2 className="ops-card-title">{conversation?.peer ?? t('console.support.conversation', { name: '' })}</h2>
        {open ? (
          <Button variant="secondary" className="btn-small" onClick={() => void close()}>
            {t('console.support.close')}
          </Button>
        ) : null}
      </header>
      <ChatLog messages={messages} peerRead={conversation?.peer_read_seq ?? 0} imagePath={OPS_SUPPORT_IMAGE_PATH} />
      {open ? (
        <form className="ops-answer" onSubmit={(e) => void send(e)}>
          <label className="field-label" htmlFor={boxId}>
            {t('console.support.answer')}
          </label>
          <textarea
            id={boxId}
            className="ops-textarea"
            rows={3}
            value={text}
            maxLength={CHAT_TEXT_MAX}
            onChange={(e) => setText(e.target.value)}
          />
          {error ? (
            <p className="field-msg field-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="ops-decision">
            <Button type="submit" busy={busy}>
              {t('console.support.send')}
            </Button>
            <Button
              variant="secondary"
              onClick={() => picker.current?.click()}
              busy={progress !== null}
              aria-describedby={progress !== null ? `${boxId}-progress` : undefined}
            >
              {t('console.support.sendPhoto')}
            </Button>
            <input ref={picker} type="file" accept="image/*" hidden onChange={(e) => void sendPhoto(e)} />
          </div>
          {progress !== null ? (
            <p className="ops-muted" id={`${boxId}-progress`} role="status">
              {t('console.support.uploading', { percent: progress })}
            </p>
          ) : null}
        </form>
      ) : (
        <p className="ops-muted">{t('console.support.isClosed')}</p>
      )}
    </section>
  );
}
