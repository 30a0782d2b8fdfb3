import type { QueryClient } from '@tanstack/react-query';
import { fetchDevices } from '../../../core/api/devices';
import { newSignInData } from '../../../protocol/account-events';
import { keys } from '../../data/keys';
import { i18n, loadNamespace } from '../../lib/i18n';
import { toast } from '../../state/toasts';

/**
 * What the shell does with the account events about the user's sessions (src/data/account-events.ts loads this module
 * with the first such event, so no route carries it).
 */

/**
 * One of the user's sessions was ended from another device. This device asks for the list of devices: if it was its
 * own session the answer is "please log in" and the shell signs it out at once (SPEC 7's 999 handling); otherwise the
 * answer is the fresh list.
 */
export async function sessionEnded(client: QueryClient): Promise<void> {
  const list = await fetchDevices();
  if (list !== false) client.setQueryData(keys.devices, list);
}

/** How long the notice of a new sign-in stays: news the user did not ask for, and may need to act on. */
const NOTICE_MS = 10_000;

/** The account was signed in on a device it had not used: the open devices say so, and the list refreshes. */
export async function newSignIn(client: QueryClient, data: unknown): Promise<void> {
  void client.invalidateQueries({ queryKey: keys.devices });
  const parsed = newSignInData.safeParse(data);
  if (!parsed.success) return;
  await loadNamespace('account');
  const { browser, os } = parsed.data;
  const device =
    browser && os ? i18n.t('devices.device', { browser, os }) : (browser ?? os ?? i18n.t('devices.newSignInUnknown'));
  toast(i18n.t('devices.newSignIn', { device }), 'info', NOTICE_MS);
}
