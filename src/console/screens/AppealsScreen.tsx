import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage, ChatMessagesPage } from '../../../protocol/chat';
import { opsReasonField } from '../../../protocol/ops-console';
import { OPS_ORDER_IMAGE_PATH, type OpsAppeal } from '../../../protocol/ops-support';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { errorText } from '../../lib/i18n';
import { opsCall, opsQuery } from '../api';
import { ChatLog } from '../ChatLog';
import { Facts, formatTime, ListState, notify, ReasonField, ScreenHead } from '../parts';

const QUERY_KEY = ['ops', 'c2c', 'appeals'] as const;

/**
 * C2C appeals (role reviewer): each open appeal with the order, who appealed and why, and the order's chat between buyer
 * and merchant; decided with a reason: release the coins to the buyer, or cancel and return them to the merchant.
 * The decision, its reason and the operator go to the audit log; both sides see it on the order.
 */
export function AppealsScreen(): ReactElement {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: QUERY_KEY,
    queryFn: ({ signal }) => opsQuery('ops/c2c/appeals', {}, signal).then((d) => d.items),
  });
  return (
    <>
      <ScreenHead
        title={t('console.nav.appeals')}
        intro={t('console.appeals.intro')}
        onRefresh={() => void query.refetch()}
        busy={query.isFetching}
      />
      <ListState query={query} empty={t('console.appeals.empty')}>
        {(items) => (
          <ul className="ops-cards">
            {items.map((a) => (
              <AppealCard key={a.id} appeal={a} />
            ))}
          </ul>
        )}
      </ListState>
    </>
  );
}

function AppealCard({ appeal: a }: { appeal: OpsAppeal }): ReactElement {
  const { t } = useTranslation();
  const [showChat, setShowChat] = useState(false);
  const chat = useQuery({
    queryKey: ['ops', 'c2c', 'chat', a.id],
    queryFn: ({ signal }) => opsQuery('ops/c2c/chat', { id: String(a.id), limit: '100' }, signal),
    enabled: showChat && a.conversation_id !== null,
  });
  const what = t('console.appeals.item', { sn: a.sn });
  return (
    <li className="ops-card" data-testid={`ops-appeal-${a.id}`}>
      <header className="ops-card-head">
        <h2 className="ops-card-title">{what}</h2>
      </header>
      <Facts
        items={[
          [t('console.appeals.buyer'), `${a.buyer_nickname} (#${a.buyer_id})`],
          [t('console.appeals.merchant'), `${a.merchant_nickname} (#${a.merchant_id})`],
          [t('console.appeals.quantity'), <strong key="q">{`${a.quantity} ${a.coin}`}</strong>],
          [t('console.appeals.amount'), `${a.amount} ${a.fiat} · ${t(`console.appeals.payType.${a.pay_type}`)}`],
          [t('console.appeals.by'), t(`console.appeals.side.${a.by}`)],
          [t('console.appeals.reason'), a.reason],
          [t('console.appeals.paidAt'), a.paid_at ? formatTime(a.paid_at) : '–'],
          [t('console.appeals.openedAt'), formatTime(a.opened_at)],
        ]}
      />
      {a.conversation_id !== null ? (
        <Button
          variant="secondary"
          className="btn-small"
          onClick={() => setShowChat((v) => !v)}
          aria-expanded={showChat}
        >
          {showChat ? t('console.appeals.hideChat') : t('console.appeals.showChat')}
        </Button>
      ) : null}
      {showChat && chat.data ? <OrderChatLog orderId={a.id} first={chat.data} /> : null}
      <AppealDecision appeal={a} what={what} />
    </li>
  );
}

function AppealDecision({ appeal: a, what }: { appeal: OpsAppeal; what: string }): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [decision, setDecision] = useState<'release' | 'cancel' | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    if (busy) return;
    setDecision(null);
    setReason('');
    setError(null);
  };
  const run = async () => {
    if (!decision) return;
    const checked = opsReasonField.safeParse(reason);
    if (!checked.success) return setError(errorText(checked.error.issues[0]?.message ?? 'invalidInput'));
    setBusy(true);
    setError(null);
    const r = await opsCall('ops/c2c/resolve', { id: String(a.id), decision, reason });
    setBusy(false);
    if (!r.ok) {
      if (!r.expired) setError(r.message);
      return;
    }
    notify(t(decision === 'release' ? 'console.appeals.releasedNotice' : 'console.appeals.cancelledNotice', { what }));
    setDecision(null);
    setReason('');
    await client.invalidateQueries({ queryKey: [...QUERY_KEY] });
  };
  return (
    <div className="ops-decision">
      <Button className="btn-small" onClick={() => setDecision('release')}>
        {t('console.appeals.release')}
      </Button>
      <Button variant="secondary" className="btn-small" onClick={() => setDecision('cancel')}>
        {t('console.appeals.cancel')}
      </Button>
      <Dialog
        open={decision !== null}
        title={t(decision === 'cancel' ? 'console.appeals.cancelTitle' : 'console.appeals.releaseTitle', { what })}
        onClose={close}
        actions={
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button variant={decision === 'cancel' ? 'danger' : 'primary'} onClick={() => void run()} busy={busy}>
              {t(decision === 'cancel' ? 'console.appeals.cancel' : 'console.appeals.release')}
            </Button>
          </>
        }
      >
        <p>
          {t(decision === 'cancel' ? 'console.appeals.cancelConfirm' : 'console.appeals.releaseConfirm', {
            quantity: `${a.quantity} ${a.coin}`,
            buyer: a.buyer_nickname,
            merchant: a.merchant_nickname,
          })}
        </p>
        <ReasonField value={reason} onChange={setReason} error={error} />
      </Dialog>
    </div>
  );
}

/** The order chat of an appeal: the newest page, and earlier pages on demand (the whole story may matter). */
function OrderChatLog({ orderId, first }: { orderId: number; first: ChatMessagesPage }): ReactElement {
  const { t } = useTranslation();
  const [older, setOlder] = useState<ChatMessage[]>([]);
  const [hasOlder, setHasOlder] = useState(first.has_older);
  const [busy, setBusy] = useState(false);
  const messages = [...older, ...first.messages];
  const loadOlder = async () => {
    const before = messages[0]?.seq;
    if (before === undefined) return;
    setBusy(true);
    const r = await opsCall('ops/c2c/chat', { id: String(orderId), before_seq: String(before), limit: '100' });
    setBusy(false);
    if (!r.ok) return;
    setOlder((held) => [...r.data.messages, ...held]);
    setHasOlder(r.data.has_older);
  };
  return (
    <>
      {hasOlder ? (
        <Button variant="secondary" className="btn-small" onClick={() => void loadOlder()} busy={busy}>
          {t('console.appeals.olderMessages')}
        </Button>
      ) : null}
      <ChatLog messages={messages} peerRead={0} imagePath={OPS_ORDER_IMAGE_PATH} />
    </>
  );
}
