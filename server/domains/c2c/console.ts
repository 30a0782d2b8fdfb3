import { C2C_FIAT_SCALE, C2C_STATUS, type C2cPayType } from '../../../protocol/c2c';
import { opsAppealCalls } from '../../../protocol/ops-support';
import { fromUnits } from '../../../protocol/rules/spot';
import { currencyScale } from '../../ledger';
import { BusinessError } from '../../platform/errors';
import { orderChatForOps } from '../chat';
import { type OpsSection, opsSection, requireOperator } from '../operators';
import { withC2c } from './tables';
import { type C2cMoneyServices, listAppeals, resolveAppeal } from './transitions';

/**
 * The console's C2C appeals (role reviewer): the open appeals with both sides' order chat, decided (release the coins
 * to the buyer, or cancel and return them to the merchant) with a reason, in the audit log under the operator's name.
 */
export function appealsConsoleSection(s: C2cMoneyServices): OpsSection {
  const { db } = s.database;
  return opsSection(
    opsAppealCalls,
    {
      'ops/c2c/appeals': async () => ({
        items: (await listAppeals(db)).map((a) => ({
          ...a,
          pay_type: a.pay_type as C2cPayType,
          quantity: fromUnits(BigInt(a.quantity), currencyScale(a.coin)),
          amount: fromUnits(BigInt(a.amount), C2C_FIAT_SCALE),
        })),
      }),
      // Only an order under appeal: the console is no way to browse users' conversations.
      'ops/c2c/chat': async (input, ctx) => {
        const order = await withC2c(db)
          .selectFrom('c2c_orders')
          .select('status')
          .where('id', '=', input.id)
          .executeTakeFirst();
        if (order?.status !== C2C_STATUS.appeal) throw new BusinessError('c2cOrderNotFound', { field: 'id' });
        return orderChatForOps(db, requireOperator(ctx).operator, input.id, input);
      },
      'ops/c2c/resolve': async (input, ctx) => {
        const result = await resolveAppeal(
          s,
          input.id,
          input.decision,
          input.reason,
          requireOperator(ctx).operator.name,
        );
        if (!result.ok) {
          const exists = await withC2c(db)
            .selectFrom('c2c_orders')
            .select('id')
            .where('id', '=', input.id)
            .executeTakeFirst();
          throw new BusinessError(exists ? 'c2cWrongStatus' : 'c2cOrderNotFound', { field: 'id' });
        }
        return {};
      },
    },
    [],
    {
      // Which appeals and which order chats a reviewer saw (once per session each).
      'ops/c2c/appeals': (_input, result) => ({
        action: 'c2c_appeal.list_view',
        subjectType: 'c2c_orders',
        subjectId: 'appeal',
        detail: { ids: result.items.map((a) => a.id) },
      }),
      'ops/c2c/chat': (input) => ({ action: 'c2c_appeal.chat_view', subjectType: 'c2c_order', subjectId: input.id }),
    },
  );
}
