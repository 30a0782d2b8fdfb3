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
      // The photos users send in support conversations.
      { path: OPS_SUPPORT_IMAGE_PATH, access: 'support', uploadId: (query) => conversationImage(db, 'support', query) },
      // An order chat's photos, while its appeal is open.
      { path: OPS_ORDER_IMAGE_PATH, access: 'reviewer', uploadId: (query) => conversationImage(db, 'order', query) },
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
