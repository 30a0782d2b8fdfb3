import { currenciesJob, ledgerOps, loadCurrencies, migration0003, migration0026, withLedger } from '../ledger';
import { auditOps } from '../platform/audit';
import { accountTopic } from '../platform/realtime/user-events';
import { migration0025 } from '../platform/request-ids';
import { defineDomain } from './contract';

/*
 * The platform-level modules in the domains' shape, so one loop composes them with the domains: they are no product,
 * and nothing else of theirs goes through the contract.
 */

/**
 * The ledger's tables and its operator commands (balances, consistency check); at start it loads its currencies
 * (coins listed at run time), then polls for those other processes add.
 */
export const ledgerModule = defineDomain({
  name: 'ledger',
  migrations: [migration0003, migration0026],
  tables: withLedger,
  ops: ledgerOps,
  start: async (ctx) => {
    await loadCurrencies(ctx.db);
    return { jobs: [currenciesJob(ctx.db)] };
  },
});

/** Request ids, the audit log's command and the private `account` topic of user events. */
export const platformModule = defineDomain({
  name: 'platform',
  migrations: [migration0025],
  ops: [auditOps],
  start: (ctx) => ({ topics: [accountTopic(ctx.db)] }),
});
