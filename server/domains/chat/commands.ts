import {
  CHAT_READ_COMMAND,
  CHAT_SEND_COMMAND,
  type ChatConversation,
  type ChatMessage,
  chatConversation,
  chatMessage,
  chatReadArgs,
  chatSendArgs,
} from '../../../protocol/chat';
import type { Command } from '../../platform/realtime/private-topics';
import { type ChatServices, markReadAsUser, sendAsUser } from './messages';

/** `chat.send`: the command id is the message's client id (a retry returns the first message, never a second). */
export function chatSendCommand(s: ChatServices): Command<ReturnType<typeof chatSendArgs.parse>, ChatMessage> {
  return {
    name: CHAT_SEND_COMMAND,
    args: chatSendArgs,
    summary: "Sends a text or an image (one of the user's uploads) to a conversation; `id` is the message's client id.",
    answer: chatMessage,
    run: (userId, args, commandId) => sendAsUser(s, userId, commandId, args),
  };
}

/** `chat.read`: the member has read up to `seq`. */
export function chatReadCommand(s: ChatServices): Command<ReturnType<typeof chatReadArgs.parse>, ChatConversation> {
  return {
    name: CHAT_READ_COMMAND,
    args: chatReadArgs,
    summary: 'Marks the messages of a conversation read up to `seq` (never past the newest).',
    answer: chatConversation,
    run: (userId, args) => markReadAsUser(s, userId, args),
  };
}
