import type { z } from 'zod/mini';
import type { CodeScene, codeSentResponse, Lang } from '../../../protocol';
import { BusinessError } from '../../platform/errors';
import type { Session } from '../../platform/security/sessions';
import { type Contact, contactOfUser, maskAddress } from './contact';
import type { AccountServices } from './services';
import { findUserByContact, sessionUser, takenError } from './users';

type CodeSent = z.output<typeof codeSentResponse>;
type RequestMeta = { ip: string; lang: Lang };

/**
 * A code to an address the user typed (email_send, sms_send). `register` needs a free address. For the other
 * scenes the answer is the same whether or not an account owns the address (no account enumeration), but
 * a code is only stored and sent when one does.
 */
export async function requestCode(
  s: AccountServices,
  contact: Contact,
  scene: CodeScene,
  request: RequestMeta,
): Promise<CodeSent> {
  const owner = await findUserByContact(s.db, contact);
  if (scene === 'register' && owner) throw takenError(contact);
  const deliver = scene === 'register' || owner !== undefined;
  const { retryAfter } = await s.codes.send(contact, scene, { ...request, deliver });
  return { channel: contact.kind, to: contact.address, retry_after: retryAfter };
}

/** A code to the logged-in user's own e-mail, else phone (sms_other_mail); the address comes back masked. */
export async function requestOwnCode(
  s: AccountServices,
  session: Session,
  scene: 'fund' | 'address',
  request: RequestMeta,
): Promise<CodeSent> {
  const contact = contactOfUser(await sessionUser(s.db, session.userId));
  if (!contact) throw new BusinessError('invalidInput');
  const { retryAfter } = await s.codes.send(contact, scene, { ...request, deliver: true });
  return { channel: contact.kind, to: maskAddress(contact), retry_after: retryAfter };
}
