import type { CallPath } from '../../protocol';
import { accountDomain } from './account';
import { bankCardsDomain } from './bank-cards';
import { c2cDomain } from './c2c';
import { chatDomain } from './chat';
import { composeMessages } from './compose';
import type { HandledPaths } from './contract';
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

// Every call of the protocol has a domain that handles it, checked when the list is compiled.
type Unhandled = Exclude<CallPath, HandledPaths<(typeof DOMAINS)[number]>>;
export const everyCallHandled: [Unhandled] extends [never] ? true : Unhandled = true;

export type { ComposedOps, DomainContext, DomainSettings, MarketOptions, OpsEntry } from './contract';
