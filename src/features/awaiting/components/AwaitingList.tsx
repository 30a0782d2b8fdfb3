import { Link } from '@tanstack/react-router';
import { type ReactElement, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Announcement } from '../../../components/Announcement';
import { formatBalance } from '../../../components/assets/format';
import { Icon, type IconName } from '../../../components/Icon';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type AwaitingItem, timeLeft } from '../awaiting';
import { useAwaiting } from '../hooks/useAwaiting';
import '../awaiting.css';

/** Where each item is acted on: the subscription's page has the payment, the order's page the C2C actions. */
const PAGE: Record<AwaitingItem['kind'], '/pages/assets/ieo/orderDetail' | '/pages/assets/c2c/orderDetail'> = {
  ieoPay: '/pages/assets/ieo/orderDetail',
  c2cPay: '/pages/assets/c2c/orderDetail',
  c2cRelease: '/pages/assets/c2c/orderDetail',
};
const ICON: Record<AwaitingItem['kind'], IconName> = { ieoPay: 'layers', c2cPay: 'card', c2cRelease: 'card' };

/** A fiat amount with its currency, in cents (as the C2C pages show it). */
const fiat = (amount: string, currency: string, lang: string) =>
  `${formatNumber(amount, lang, { min: 2, max: 2 })} ${currency}`;

function useTexts(): (item: AwaitingItem) => { title: string; detail: string } {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (item) => {
    switch (item.kind) {
      case 'ieoPay': {
        const o = item.order;
        return {
          title: t('awaiting.ieo.title', { coin: o.coin }),
          detail: t('awaiting.ieo.detail', {
            quantity: formatNumber(o.allotment_quantity ?? '0', lang, { min: 0, max: o.scale }),
            coin: o.coin,
            amount: formatBalance(o.payment ?? '0', lang),
          }),
        };
      }
      case 'c2cPay':
        return {
          title: t('awaiting.c2cPay.title', { name: item.order.merchant_nickname, coin: item.order.coin }),
          detail: t('awaiting.c2cPay.detail', { amount: fiat(item.order.amount, item.order.fiat, lang) }),
        };
      case 'c2cRelease':
        return {
          title: t('awaiting.c2cRelease.title', { name: item.order.buyer_nickname, coin: item.order.coin }),
          detail: t('awaiting.c2cRelease.detail', {
            name: item.order.buyer_nickname,
            amount: fiat(item.order.amount, item.order.fiat, lang),
          }),
        };
    }
  };
}

/** The time left until a deadline, on the server clock; it ticks, so it is never a live region. */
function TimeLeft({ ms }: { ms: number }): ReactElement {
  const { t } = useTranslation();
  const { days, clock } = timeLeft(ms);
  return (
    <span className="awaiting-left" role="timer" aria-live="off" data-testid="awaiting-left">
      {days > 0 ? t('awaiting.leftDays', { days, time: clock }) : t('awaiting.left', { time: clock })}
    </span>
  );
}

/**
 * "Waiting for you" (issue 26 "Nothing lapses silently"): each IEO allotment the user still has to pay and each C2C
 * order they have to pay or release, with its deadline and the time left on the server clock, each opening the page
 * where it is done. It shows only while something waits, live from the private topics' streams; a screen reader hears
 * an item when it appears (a polite region that stays in the page), never the countdown's seconds.
 */
export function AwaitingList(): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { items, now } = useAwaiting();
  const texts = useTexts();
  const announced = useAppearance(items, (item) => texts(item).title);
  const titleId = useId();

  return (
    <>
      {items.length > 0 ? (
        <section className="awaiting" aria-labelledby={titleId} data-testid="awaiting">
          <h2 className="section-title awaiting-heading" id={titleId}>
            <Icon name="clock" size={18} />
            {t('awaiting.title')}
          </h2>
          <ul className="awaiting-list">
            {items.map((item) => {
              const { title, detail } = texts(item);
              return (
                <li key={item.key}>
                  <Link
                    to={PAGE[item.kind]}
                    search={{ id: item.order.id }}
                    className="awaiting-row"
                    data-testid={`awaiting-${item.key}`}
                  >
                    <span className="list-icon">
                      <Icon name={ICON[item.kind]} size={20} />
                    </span>
                    <span className="awaiting-text">
                      <span className="awaiting-title">{title}</span>
                      <span className="awaiting-detail">{detail}</span>
                      {item.deadline !== null ? (
                        <span className="awaiting-due">
                          <span>{t('awaiting.due', { time: formatDateTime(item.deadline, lang) })}</span>
                          <TimeLeft ms={item.deadline - now} />
                        </span>
                      ) : null}
                      <span className="awaiting-sn">{item.order.sn}</span>
                    </span>
                    <Icon name="chevron" size={18} className="awaiting-chevron" />
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <Announcement text={announced} testId="awaiting-announcement" />
    </>
  );
}

/**
 * What to announce: the items that appeared since the last list (nothing new on a list that only lost items or
 * ticked), and nothing once the list is empty, so the same item appearing again is heard again. Kept as state that
 * follows the list's keys (React's "adjusting state when a prop changes"), not an effect a render late.
 */
function useAppearance(items: readonly AwaitingItem[], name: (item: AwaitingItem) => string): string {
  const { t } = useTranslation();
  const keys = items.map((item) => item.key).join(' ');
  const [shownKeys, setShownKeys] = useState('');
  const [text, setText] = useState('');
  if (keys !== shownKeys) {
    const before = new Set(shownKeys.split(' '));
    const appeared = items.filter((item) => !before.has(item.key));
    setShownKeys(keys);
    if (items.length === 0) setText('');
    else if (appeared.length > 0) setText(t('awaiting.announce', { what: appeared.map(name).join('; ') }));
  }
  return text;
}
