import type { z } from 'zod/mini';
import { provedContact, type SessionResponse } from '../../../protocol';
import {
  canonicalWalletAddress,
  WALLET_LINKS_MAX,
  type WalletLink,
  type WalletList,
  type walletBindRequest,
  type walletLoginRequest,
  type walletUnbindRequest,
} from '../../../protocol/wallet-login';
import { handleOf, isUniqueViolation } from '../../platform/db/connect';
import type { UserRow } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { type CallContext, firstIssue } from '../../platform/http/calls';
import { isMessageKey } from '../../platform/i18n/messages';
import { newToken } from '../../platform/security/digest';
import type { Session } from '../../platform/security/sessions';
import {
  announceNewDevice,
  assertContactFree,
  contactOf,
  insertUser,
  isNewDevice,
  referrerOf,
  sessionUser,
  toUser,
  verifyLoginPassword,
} from '../account';
import { consumeWalletNonce, takeWalletAttempt, verifySignedMessage, type WalletLoginServices } from './nonces';
import { walletTables } from './tables';

/**
 * Whether the account can log in (and reset) with a password: it has an e-mail or phone. A wallet's account starts
 * with a password nobody knows but with a proved contact, so "forgot password" gives it one. Only an account made by
 * a wallet before a contact was required has none: it logs in with its wallets only and keeps them.
 */
const hasPasswordLogin = (user: UserRow): boolean => user.email !== null || user.phone !== null;

/**
 * Logs in with a signed message. A linked wallet opens its account; an unknown one registers a new account with an
 * invite code and the ticked user agreement (SPEC 5) and opens it. Without them the nonce stays unused, so the same
 * signature can be sent again with them.
 */
export async function walletLogin(
  s: WalletLoginServices,
  input: z.output<typeof walletLoginRequest>,
  ctx: CallContext,
): Promise<SessionResponse> {
  await takeWalletAttempt(s, 'login', ctx.ip);
  const signed = await verifySignedMessage(s, input, 'login', ctx.site);
  const { db, now, sessions } = s.account;
  const link = await walletTables(db)
    .selectFrom('wallet_links')
    .select('user_id')
    .where('chain', '=', signed.chain)
    .where('address', '=', signed.address)
    .executeTakeFirst();

  if (link) {
    let mailNews = () => {};
    const answer = await db.transaction().execute(async (trx) => {
      await consumeWalletNonce(trx, signed.id, now());
      const fresh = await isNewDevice(trx, link.user_id, ctx.userAgent);
      const row = await trx
        .updateTable('users')
        .set({ last_login_at: now() })
        .where('id', '=', link.user_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const token = await sessions.create(row.id, trx, { userAgent: ctx.userAgent });
      if (fresh) {
        const news = { userId: row.id, email: row.email, lang: row.lang, userAgent: ctx.userAgent, site: ctx.site };
        mailNews = await announceNewDevice(s.account, trx, news);
      }
      return { token, user: toUser(row) };
    });
    // After the commit: the e-mail tells of a sign-in that happened.
    mailNews();
    return answer;
  }

  if (input.invite_code === undefined) throw new BusinessError('walletInviteRequired', { field: 'invite_code' });
  const referrerId = await referrerOf(db, input.invite_code);
  if (!input.agree) throw new BusinessError('agreementRequired', { field: 'agree' });
  // The account's own contact, proved like registration's: the codes guarding the fund password, withdrawal
  // addresses and a password reset go there (without one, money deposited could never leave).
  const proved = provedContact.safeParse(input);
  if (!proved.success) {
    const { key, field } = firstIssue(proved.error);
    throw new BusinessError(isMessageKey(key) ? key : 'invalidInput', { field });
  }
  const contact = contactOf(proved.data);
  await assertContactFree(db, contact);
  const codeId = await s.account.codes.check(contact, 'register', proved.data.code);
  // A password nobody knows: the account logs in with its wallet, or sets one through "forgot password".
  const passwordHash = await s.account.hasher.hash(newToken());
  try {
    return await db.transaction().execute(async (trx) => {
      const at = now();
      await consumeWalletNonce(trx, signed.id, at);
      await s.account.codes.consume(trx, codeId);
      const row = await insertUser(trx, at, {
        email: contact.kind === 'email' ? contact.email : null,
        area_code: contact.kind === 'mobile' ? contact.areaCode : null,
        mobile: contact.kind === 'mobile' ? contact.mobile : null,
        phone: contact.kind === 'mobile' ? contact.address : null,
        passwordHash,
        referrerId,
        lang: ctx.lang,
      });
      await walletTables(trx)
        .insertInto('wallet_links')
        .values({ user_id: row.id, chain: signed.chain, address: signed.address, created_at: at })
        .execute();
      return { token: await sessions.create(row.id, trx, { userAgent: ctx.userAgent }), user: toUser(row) };
    });
  } catch (err) {
    // Two first logins of one wallet with two nonces raced; the unique wallet index let one through.
    if (isUniqueViolation(err)) throw new BusinessError('walletLinkedElsewhere');
    throw err;
  }
}

/** Links the wallet that signed a linking message (asked for by this user) to the user's account. */
export async function bindWallet(
  s: WalletLoginServices,
  session: Session,
  input: z.output<typeof walletBindRequest>,
  site: CallContext['site'],
): Promise<WalletLink> {
  const signed = await verifySignedMessage(s, input, 'bind', site);
  if (signed.user_id !== session.userId) throw new BusinessError('walletNonceUnknown');
  const { db, now } = s.account;
  const tables = walletTables(db);
  const existing = await tables
    .selectFrom('wallet_links')
    .select('user_id')
    .where('chain', '=', signed.chain)
    .where('address', '=', signed.address)
    .executeTakeFirst();
  if (existing) {
    throw new BusinessError(existing.user_id === session.userId ? 'walletAlreadyLinked' : 'walletLinkedElsewhere');
  }
  const database = handleOf(db);
  try {
    return await writeTransaction(database, async (trx) => {
      // Concurrent links of one user queue here, so the limit holds (SQLite's BEGIN IMMEDIATE already serialises).
      if (database.kind === 'postgres') {
        await trx.selectFrom('users').select('id').where('id', '=', session.userId).forUpdate().execute();
      }
      const count = await walletTables(trx)
        .selectFrom('wallet_links')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', session.userId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= WALLET_LINKS_MAX) throw new BusinessError('walletLinksFull');
      const at = now();
      await consumeWalletNonce(trx, signed.id, at);
      await walletTables(trx)
        .insertInto('wallet_links')
        .values({ user_id: session.userId, chain: signed.chain, address: signed.address, created_at: at })
        .execute();
      return { chain: signed.chain, address: signed.address, created_at: at };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new BusinessError('walletLinkedElsewhere');
    throw err;
  }
}

/**
 * Unlinks one of the user's wallets, confirmed with the login password (checked and throttled as at login). An
 * account made by a wallet has no password to confirm with and keeps its wallets: no unlinking can leave an account
 * without a way to log in.
 */
export async function unbindWallet(
  s: WalletLoginServices,
  session: Session,
  input: z.output<typeof walletUnbindRequest>,
  ip: string,
): Promise<void> {
  const address = canonicalWalletAddress(input.chain, input.address);
  if (address === null) throw new BusinessError('walletAddressInvalid', { field: 'address' });
  const tables = walletTables(s.account.db);
  const link = await tables
    .selectFrom('wallet_links')
    .select('id')
    .where('user_id', '=', session.userId)
    .where('chain', '=', input.chain)
    .where('address', '=', address)
    .executeTakeFirst();
  if (!link) throw new BusinessError('walletNotLinked');
  const user = await sessionUser(s.account.db, session.userId);
  if (!hasPasswordLogin(user)) throw new BusinessError('walletNoPassword');
  await verifyLoginPassword(s.account, user, input.password, ip, { key: 'loginPasswordWrong', field: 'password' });
  await tables.deleteFrom('wallet_links').where('id', '=', link.id).where('user_id', '=', session.userId).execute();
}

/** The user's linked wallets, oldest first, and whether the account also logs in with a password. */
export async function listWallets(s: WalletLoginServices, session: Session): Promise<WalletList> {
  const user = await sessionUser(s.account.db, session.userId);
  const rows = await walletTables(s.account.db)
    .selectFrom('wallet_links')
    .select(['chain', 'address', 'created_at'])
    .where('user_id', '=', session.userId)
    .orderBy('id')
    .execute();
  return {
    wallets: rows.map((r) => ({ chain: r.chain, address: r.address, created_at: Number(r.created_at) })),
    password_login: hasPasswordLogin(user),
  };
}
