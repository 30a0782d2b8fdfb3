import type { CallRequest } from '../../protocol/call-spec';
import { deviceCalls } from '../../protocol/devices';
import { areaApi } from './client';

const { callApi, callApiResult } = areaApi(deviceCalls);

/**
 * The security centre's signed-in devices (user/sessions*): the list loads quietly (the section shows its own
 * loading and failure); ending a session reports like other session calls.
 */
export function fetchDevices() {
  return callApi('user/sessions', {}, { loading: false });
}

export function endDevice(body: CallRequest<typeof deviceCalls, 'user/sessions/end'>) {
  return callApiResult('user/sessions/end', body);
}

export function endOtherDevices() {
  return callApiResult('user/sessions/end_others', {});
}
