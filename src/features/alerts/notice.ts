import { fetchAlerts } from '../../../core/api/alerts';
import { type PriceAlert, priceAlert } from '../../../protocol/alerts';
import { need, queryClient } from '../../data/query';
import { i18n, loadNamespace } from '../../lib/i18n';
import { toast } from '../../state/toasts';
import { noticeText } from './format';

/** Query keys of the alerts feature: the list, which the sheet, the page and a fired alert's notice all touch. */
export const alertKeys = {
  list: ['alerts', 'list'] as const,
};

/** The list's query, as the page and the sheet ask for it. */
export const alertsQuery = { queryKey: alertKeys.list, queryFn: () => need(fetchAlerts()) };

/** The alerts page (feature.ts), which a system notification opens. */
export const ALERTS_PATH = '/pages/alerts/index';

/** How long the in-app notice of a fired alert stays: longer than a confirmation, it is news the user did not ask now. */
const NOTICE_MS = 8_000;

/**
 * A fired alert, as the shell hands it over from the user's `account` events (src/data/account-events.ts loads this
 * module only when one arrives): the list is refreshed, the notice shown in the app, and while the app is in the
 * background (another tab, the phone's home screen) the system shows it too, through the service worker, if the
 * user allowed notifications when setting their first alert.
 */
export async function alertFired(data: unknown): Promise<void> {
  const parsed = priceAlert.safeParse(data);
  if (!parsed.success || parsed.data.fired === null) return;
  const alert = parsed.data;
  void queryClient.invalidateQueries({ queryKey: alertKeys.list });
  await loadNamespace('alerts');
  const text = noticeText(i18n.t, alert, i18n.language);
  toast(text, 'info', NOTICE_MS);
  if (document.visibilityState === 'hidden') await notifySystem(alert, text);
}

async function notifySystem(alert: PriceAlert, text: string): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  if (!registration) return;
  await registration
    .showNotification(i18n.t('alerts.notice.title', { symbol: alert.symbol }), {
      body: text,
      // One notification per alert, even if the event came twice (two tabs, a reconnect).
      tag: `price-alert-${alert.id}`,
      icon: '/icons/icon-192.png',
      lang: i18n.language,
      data: { url: ALERTS_PATH },
    })
    .catch((err: unknown) => console.warn('price alert notification not shown', err));
}
