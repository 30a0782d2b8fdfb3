import type { Kysely } from 'kysely';
import {
  CHAT_CONVERSATION_EVENT,
  CHAT_MESSAGE_EVENT,
  CHAT_TOPIC,
  type ChatTopicMessage,
  chatConversation,
  chatMessage,
  chatTopicMessage,
} from '../../../protocol/chat';
import type { Database } from '../../platform/db/schema';
import type { PrivateTopic } from '../../platform/realtime/private-topics';
import { userConversations } from './messages';

/** The private `chat` topic: the user's conversations (snapshot), then each new message and conversation change. */
export function chatTopic(db: Kysely<Database>): PrivateTopic<ChatTopicMessage> {
  return {
    name: CHAT_TOPIC,
    schema: chatTopicMessage,
    summary: 'Chat: the open conversations with their last numbers, then each new message and conversation change.',
    snapshot: async (userId) => ({ kind: 'snapshot', conversations: await userConversations(db, userId) }),
    events: [CHAT_MESSAGE_EVENT, CHAT_CONVERSATION_EVENT],
    fromEvent: (kind, data) =>
      kind === CHAT_MESSAGE_EVENT
        ? { kind: 'message', message: chatMessage.parse(data) }
        : { kind: 'conversation', conversation: chatConversation.parse(data) },
  };
}
