import type { QueryClient } from '@tanstack/react-query';
import { fetchDevices } from '../../../core/api/devices';
import { keys } from '../../data/keys';

/**
 * One of the user's sessions was ended from another device (the `session_ended` account event; loaded with the first
 * one, src/data/account-events.ts). This device asks for the list of devices: if it was its own session the answer is
 * "please log in" and the shell signs it out at once (SPEC 7's 999 handling); otherwise the answer is the fresh list.
 */
export async function sessionEnded(client: QueryClient): Promise<void> {
  const list = await fetchDevices();
  if (list !== false) client.setQueryData(keys.devices, list);
}
