import type { chatCalls } from '../../../protocol/chat';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { conversationWire, memberConversation } from './conversations';
import { type ChatServices, messagesPage, openSupport, userConversations } from './messages';
import { customerUrl } from './support';

/** Chat calls: a member reads their conversations; messages are sent over the socket (`chat.send`). */
export function chatHandlers(s: ChatServices): CallHandlers<typeof chatCalls> {
  const { db } = s.database;
  return {
    'chat/list': async (input, ctx) => ({
      conversations: await userConversations(db, requireSession(ctx).userId, input.kind),
    }),
    'chat/info': async (input, ctx) => {
      const { userId } = requireSession(ctx);
      return conversationWire(db, await memberConversation(db, userId, input.id), { kind: 'user', userId });
    },
    'chat/messages': async (input, ctx) => {
      const { userId } = requireSession(ctx);
      const row = await memberConversation(db, userId, input.id);
      return messagesPage(db, row, { kind: 'user', userId }, input);
    },
    'chat/support/open': async (input, ctx) => openSupport(s, requireSession(ctx).userId, input.topic),
    'set/get_customer_url': async () => customerUrl(db),
  };
}
