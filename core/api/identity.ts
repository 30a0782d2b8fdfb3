import type { CallRequest } from '../../protocol/call-spec';
import { identityCalls } from '../../protocol/identity';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(identityCalls);

/** Identity verification: both levels' state, and the two submissions. */

export function fetchRealNameInfo(opts?: CallOptions) {
  return callApi('user/real_name_info', {}, opts);
}

export function submitBasicVerification(body: CallRequest<typeof identityCalls, 'user/real_name'>) {
  return callApiResult('user/real_name', body);
}

export function submitAdvancedVerification(body: CallRequest<typeof identityCalls, 'user/real_name2'>) {
  return callApiResult('user/real_name2', body);
}
