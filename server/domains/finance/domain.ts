import { financeCalls } from '../../../protocol/finance';
import { defineDomain } from '../contract';
import { accrualJob } from './accrual';
import { financeHandlers } from './calls';
import { financeErrors } from './errors';
import { migration0013 } from './migrations/0013_finance';
import { financeOps } from './ops';
import { withFinance } from './tables';

/** Finance products need no market: their yield is a fixed rate, paid by the accrual job. */
export const financeDomain = defineDomain({
  name: 'finance',
  calls: financeCalls,
  errors: financeErrors,
  migrations: [migration0013],
  tables: withFinance,
  ops: financeOps,
  start: (ctx) => {
    const finance = { database: ctx.database, ledger: ctx.ledger, now: ctx.now };
    return { handlers: financeHandlers(finance), jobs: [accrualJob(finance, ctx.settings.financeAccrualMs)] };
  },
});
