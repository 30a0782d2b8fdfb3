/** The public surface of this module: other code imports it only through this file. */

export * from './calls';
export * from './commands';
export * from './console';
export {
  closeConversation,
  type OrderConversationInput,
  openOrderConversation,
  postSystemMessage,
} from './conversations';
export { chatDomain } from './domain';
export {
  CHAT_MESSAGES_PER_MINUTE,
  type ChatServices,
  chatUploadReaders,
  chatUploadTag,
  messagesPage,
} from './messages';
export * from './migrations/0016_chat';
export * from './ops';
export * from './support';
export { type ChatTables, withChat } from './tables';
export * from './topic';
