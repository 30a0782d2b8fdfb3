import { chatCalls } from '../../../protocol/chat';
import { defineDomain } from '../contract';
import { chatHandlers } from './calls';
import { chatReadCommand, chatSendCommand } from './commands';
import { supportConsoleSection } from './console';
import { chatUploadReaders } from './messages';
import { migration0016 } from './migrations/0016_chat';
import { chatOps } from './ops';
import { withChat } from './tables';
import { chatTopic } from './topic';

/** Chat (customer service, C2C order chats): members read a conversation's images too. */
export const chatDomain = defineDomain({
  name: 'chat',
  calls: chatCalls,
  migrations: [migration0016],
  tables: withChat,
  ops: chatOps,
  start: (ctx) => {
    const chat = { database: ctx.database, limiter: ctx.limiter, now: ctx.now };
    ctx.uploads.shareAttached(chatUploadReaders(ctx.db));
    return {
      handlers: chatHandlers(chat),
      topics: [chatTopic(ctx.db)],
      commands: [chatSendCommand(chat), chatReadCommand(chat)],
      console: [supportConsoleSection(chat)],
    };
  },
});
