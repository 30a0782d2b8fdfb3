import type { CallData as DataOf, CallRequest as RequestOf } from '../../protocol/call-spec';
import { accountDomain } from './account';
import { alertsDomain } from './alerts';
import { bankCardsDomain } from './bank-cards';
import { c2cDomain } from './c2c';
import { chatDomain } from './chat';
import { callTable, composeMessages } from './compose';
import { financeDomain } from './finance';
import { fundingDomain } from './funding';
import { helpDomain } from './help';
import { identityDomain } from './identity';
import { ieoDomain } from './ieo';
import { inspectionDomain } from './inspection';
import { leverDomain } from './lever';
import { marketDomain } from './market';
import { newsDomain } from './news';
import { operatorsDomain } from './operators';
import { optionsDomain } from './options';
import { ledgerModule, platformModule } from './platform';
import { pollsDomain } from './polls';
import { referralDomain } from './referral';
import { spotDomain } from './spot';
import { uploadsDomain } from './uploads';
import { walletDomain } from './wallet';
import { walletAddressesDomain } from './wallet-addresses';
import { walletLoginDomain } from './wallet-login';

/**
 * Every domain of the server, and the platform modules in the same shape: app.ts, migrations.ts and ops/cli.ts each
 * compose this one list. The order is the operator help's order; starts run in it too (uploads before the console,
 * which serves every section).
 */
export const DOMAINS = [
  accountDomain,
  ledgerModule,
  identityDomain,
  platformModule,
  fundingDomain,
  bankCardsDomain,
  marketDomain,
  spotDomain,
  optionsDomain,
  leverDomain,
  financeDomain,
  ieoDomain,
  c2cDomain,
  helpDomain,
  newsDomain,
  pollsDomain,
  alertsDomain,
  chatDomain,
  referralDomain,
  walletDomain,
  walletAddressesDomain,
  walletLoginDomain,
  inspectionDomain,
  uploadsDomain,
  operatorsDomain,
] as const;

// The server's messages are the shared table and every domain's: whatever imports the list translates them all.
composeMessages(DOMAINS);

/**
 * Every /api call the server serves: each domain's table (protocol/<area>.ts), as its contract names it. The router,
 * the API documents, the operator demo and the tests that walk every call take it from here.
 */
export const calls = callTable(DOMAINS);
export type Calls = typeof calls;
export type CallPath = keyof Calls;
export type CallRequest<P extends CallPath> = RequestOf<Calls, P>;
export type CallData<P extends CallPath> = DataOf<Calls, P>;

export type { ComposedOps, DomainContext, DomainSettings, MarketOptions, OpsEntry } from './contract';
