import { z } from 'zod/mini';
import { C2C_PAY_TYPES } from './c2c';
import { CHAT_PAGE_MAX, CHAT_TEXT_MAX, chatConversation, chatMessage, chatMessagesResponse } from './chat';
import { recordIdField } from './fields';
import { HELP_TEXT_LANGS, HELP_TOPICS } from './help';
import { decimalString } from './market';
import { opsCall, opsReasonField } from './ops-console';
import { opsTexts, textFormFields } from './published-texts';

/**
 * The support console's sections for customer service (role support) and C2C appeals (role reviewer): the inbox of
 * support conversations with the user's messages, answers, read receipts and closing; open appeals with both sides'
 * order chat, decided with a reason (audited). The console reads new messages by number like the app does
 * (`after_seq`), polling the open conversation while it is on screen.
 */

const seqField = z.pipe(
  z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,12}$/, { error: 'invalidInput' })),
  z.transform(Number),
);
const pageLimit = z.optional(
  z.pipe(
    z.pipe(
      z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,3}$/, { error: 'invalidInput' })),
      z.transform(Number),
    ),
    z.number().check(z.int(), z.gte(1, { error: 'invalidInput' }), z.lte(CHAT_PAGE_MAX, { error: 'invalidInput' })),
  ),
);

/** A photo of a support conversation (`conversation`, `id`: the upload), to support. */
export const OPS_SUPPORT_IMAGE_PATH = 'ops/support/image';
/** A photo of an order chat whose appeal is open, to reviewers. */
export const OPS_ORDER_IMAGE_PATH = 'ops/c2c/image';
/** A photo an operator sends (multipart `file`, role support); answered like upload/image: {id, size, mime}. */
export const OPS_UPLOAD_PATH = 'ops/upload/image';

export const opsInboxRequest = z.object({
  state: z.optional(z.enum(['open', 'closed'], { error: 'invalidInput' })),
});
export const opsInboxResponse = z.object({ conversations: z.array(chatConversation) });
export const opsMessagesRequest = z.object({
  id: recordIdField,
  after_seq: z.optional(seqField),
  before_seq: z.optional(seqField),
  limit: pageLimit,
});
/** ops/support/send: a text, or a photo the operator uploaded (`image_id`), with the console's id of the message. */
export const opsSupportSendRequest = z
  .object({
    id: recordIdField,
    text: z.optional(z.string().check(z.trim(), z.maxLength(CHAT_TEXT_MAX, { error: 'tooLong' }))),
    image_id: z.optional(recordIdField),
    /** The console's id of this message: a retry posts it once. */
    client_id: z.string({ error: 'invalidInput' }).check(z.regex(/^[\x21-\x7e]{8,64}$/, { error: 'invalidInput' })),
  })
  .check(
    z.refine((v) => (v.text !== undefined && v.text !== '') !== (v.image_id !== undefined), {
      error: 'chatTextRequired',
      path: ['text'],
    }),
  );
export const opsReadRequest = z.object({ id: recordIdField, seq: seqField });
const done = z.looseObject({});

export const opsAppeal = z.object({
  id: z.number().check(z.int()),
  sn: z.string(),
  buyer_id: z.number().check(z.int()),
  buyer_nickname: z.string(),
  merchant_id: z.number().check(z.int()),
  merchant_nickname: z.string(),
  coin: z.string(),
  quantity: decimalString,
  fiat: z.string(),
  amount: decimalString,
  pay_type: z.enum(C2C_PAY_TYPES),
  by: z.enum(['buyer', 'merchant']),
  reason: z.string(),
  created_at: z.number().check(z.int()),
  paid_at: z.nullable(z.number().check(z.int())),
  opened_at: z.number().check(z.int()),
  conversation_id: z.nullable(z.number().check(z.int())),
});
export type OpsAppeal = z.infer<typeof opsAppeal>;
export const opsResolveRequest = z.object({
  id: recordIdField,
  decision: z.enum(['release', 'cancel'], { error: 'invalidInput' }),
  reason: opsReasonField,
});

export const opsSupportCalls = {
  'ops/support/inbox': opsCall('GET', 'support', opsInboxRequest, opsInboxResponse),
  'ops/support/messages': opsCall('GET', 'support', opsMessagesRequest, chatMessagesResponse),
  'ops/support/send': opsCall('POST', 'support', opsSupportSendRequest, chatMessage),
  'ops/support/read': opsCall('POST', 'support', opsReadRequest, done),
  'ops/support/close': opsCall('POST', 'support', z.object({ id: recordIdField }), done),
} as const;

export const opsAppealCalls = {
  'ops/c2c/appeals': opsCall('GET', 'reviewer', z.object({}), z.object({ items: z.array(opsAppeal) })),
  /** The order's chat between buyer and merchant, read-only, for deciding the appeal. */
  'ops/c2c/chat': opsCall('GET', 'reviewer', opsMessagesRequest, chatMessagesResponse),
  'ops/c2c/resolve': opsCall('POST', 'reviewer', opsResolveRequest, done),
} as const;

/** A help article as operators edit it: both offered languages' texts (either may be missing in a draft). */
export const opsArticle = z.object({
  id: z.number().check(z.int()),
  topic: z.enum(HELP_TOPICS),
  sort_order: z.number().check(z.int()),
  published: z.boolean(),
  published_at: z.nullable(z.number().check(z.int())),
  created_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
  texts: opsTexts(HELP_TEXT_LANGS),
});
export type OpsArticle = z.infer<typeof opsArticle>;
/**
 * ops/help/save: a new article (no id) or changes to one; texts by language as `de.title`, `de.body`, `en.title`,
 * `en.body` (the server checks them: a published article needs both languages).
 */
export const opsArticleSaveRequest = z.object({
  id: z.optional(recordIdField),
  topic: z.enum(HELP_TOPICS, { error: 'helpTopicInvalid' }),
  sort_order: z.pipe(
    z.string({ error: 'helpOrderInvalid' }).check(z.regex(/^\d{1,4}$/, { error: 'helpOrderInvalid' })),
    z.transform(Number),
  ),
  ...textFormFields(HELP_TEXT_LANGS),
});
export const opsArticlePublishRequest = z.object({
  id: recordIdField,
  published: z.pipe(
    z.enum(['1', '0'], { error: 'invalidInput' }),
    z.transform((v) => v === '1'),
  ),
});

export const opsHelpCalls = {
  'ops/help/articles': opsCall('GET', 'support', z.object({}), z.object({ items: z.array(opsArticle) })),
  'ops/help/save': opsCall('POST', 'support', opsArticleSaveRequest, opsArticle),
  'ops/help/publish': opsCall('POST', 'support', opsArticlePublishRequest, opsArticle),
  'ops/help/delete': opsCall('POST', 'support', z.object({ id: recordIdField }), done),
} as const;
