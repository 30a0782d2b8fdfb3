import type { z } from 'zod';
import { accountCalls } from './account';
import { bankCardCalls } from './bank-cards';
import { c2cCalls } from './c2c';
import { chatCalls } from './chat';
import { financeCalls } from './finance';
import { fundingCalls } from './funding';
import { helpCalls } from './help';
import { identityCalls } from './identity';
import { ieoCalls } from './ieo';
import { inspectionCalls } from './inspection';
import { leverCalls } from './lever';
import { marketCalls } from './market';
import { newsCalls } from './news';
import { optionCalls } from './options';
import { pollCalls } from './polls';
import { priceRecordCalls } from './price-record';
import { referralCalls } from './referral';
import { spotCalls } from './spot';
import { uploadCalls } from './uploads';
import { walletCalls } from './wallet';
import { addressCalls } from './wallet-addresses';
import { walletLoginCalls } from './wallet-login';

export { type CallSpec, type CallTable, call } from './call-spec';

/**
 * Every /api call this build serves: path (relative to /api), method, whether it needs a session, the request
 * schema (form fields, all strings) and the schema of `data` in the ok envelope (`CallSpec`). The server registers
 * routes from this table. The client never imports it: each core/api module calls with its own area's table, so the
 * schemas travel only in the chunks that make those calls.
 */
export const calls = {
  ...accountCalls,
  ...walletLoginCalls,
  ...marketCalls,
  ...priceRecordCalls,
  ...spotCalls,
  ...optionCalls,
  ...leverCalls,
  ...addressCalls,
  ...bankCardCalls,
  ...uploadCalls,
  ...identityCalls,
  ...walletCalls,
  ...fundingCalls,
  ...financeCalls,
  ...ieoCalls,
  ...c2cCalls,
  ...helpCalls,
  ...pollCalls,
  ...inspectionCalls,
  ...newsCalls,
  ...chatCalls,
  ...referralCalls,
} as const;

export type Calls = typeof calls;
export type CallPath = keyof Calls;
export type CallRequest<P extends CallPath> = z.input<Calls[P]['request']>;
export type CallData<P extends CallPath> = z.output<Calls[P]['response']>;
