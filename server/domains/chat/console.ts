import { OPS_ORDER_IMAGE_PATH, OPS_SUPPORT_IMAGE_PATH, opsSupportCalls } from '../../../protocol/ops-support';
import { type OpsSection, opsSection, requireOperator } from '../operators';
import type { ChatServices } from './messages';
import { messagesPage } from './messages';
import {
  closeSupport,
  conversationImage,
  markReadAsOperator,
  operatorViewer,
  sendAsOperator,
  supportConversation,
  supportInbox,
} from './support';

/** The support console's inbox (role support): conversations, messages, answers, receipts, closing (audited). */
export function supportConsoleSection(s: ChatServices): OpsSection {
  const { db } = s.database;
  return opsSection(
    opsSupportCalls,
    {
      'ops/support/inbox': async (input, ctx) => ({
        conversations: await supportInbox(db, requireOperator(ctx).operator, { state: input.state ?? 'open' }),
      }),
      'ops/support/messages': async (input, ctx) =>
        messagesPage(db, await supportConversation(db, input.id), operatorViewer(requireOperator(ctx).operator), input),
      'ops/support/send': async (input, ctx) =>
        sendAsOperator(
          s,
          requireOperator(ctx).operator,
          input.client_id,
          input.image_id !== undefined
            ? { conversation_id: input.id, image_id: input.image_id }
            : { conversation_id: input.id, text: input.text ?? '' },
        ),
      'ops/support/read': async (input, ctx) => {
        await markReadAsOperator(s, requireOperator(ctx).operator, input.id, input.seq);
        return {};
      },
      'ops/support/close': async (input, ctx) => {
        await closeSupport(s, requireOperator(ctx).operator, input.id);
        return {};
      },
    },
    [
      // The photos users send in support conversations (who saw which, audited once per session and photo).
      {
        path: OPS_SUPPORT_IMAGE_PATH,
        access: 'support',
        image: async (query) => {
          const shown = await conversationImage(db, 'support', query);
          return shown
            ? {
                uploadId: shown.uploadId,
                view: {
                  action: 'support.image_view',
                  subjectType: 'chat_conversation',
                  subjectId: shown.conversationId,
                  detail: { image_id: shown.uploadId },
                },
              }
            : null;
        },
      },
      // An order chat's photos, while its appeal is open (audited under the order, like the appeal's chat).
      {
        path: OPS_ORDER_IMAGE_PATH,
        access: 'reviewer',
        image: async (query) => {
          const shown = await conversationImage(db, 'order', query);
          return shown
            ? {
                uploadId: shown.uploadId,
                view: {
                  action: 'c2c_appeal.image_view',
                  // An order chat always names its order; the conversation stands in should one not.
                  ...(shown.orderId !== null
                    ? { subjectType: 'c2c_order', subjectId: shown.orderId }
                    : { subjectType: 'chat_conversation', subjectId: shown.conversationId }),
                  detail: { conversation_id: shown.conversationId, image_id: shown.uploadId },
                },
              }
            : null;
        },
      },
    ],
    {
      // Which users' conversations an operator listed and opened (once per session each, however often polled).
      'ops/support/inbox': (input, result) => ({
        action: 'support.inbox_view',
        subjectType: 'chat_conversations',
        subjectId: input.state ?? 'open',
        detail: { ids: result.conversations.map((c) => c.id) },
      }),
      'ops/support/messages': (input) => ({
        action: 'support.view',
        subjectType: 'chat_conversation',
        subjectId: input.id,
      }),
    },
  );
}
