import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import {
  canonicalWalletAddress,
  type IssuedWalletMessage,
  parseWalletMessage,
  WALLET_MESSAGE_TTL_MS,
  type WalletNonce,
  type WalletPurpose,
  walletMessage,
  walletMessageRefusal,
  type walletNonceRequest,
} from '../../../protocol/wallet-login';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import type { CallContext } from '../../platform/http/calls';
import { randomString } from '../../platform/security/digest';
import type { AccountServices } from '../account';
import { walletSiteOf } from './site';
import { type WalletNoncesTable, walletTables } from './tables';

/** EIP-4361 nonces are at least 8 letters and digits; 24 of 62 is about 143 bits. */
const NONCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const NONCE_LENGTH = 24;
/** Used and expired nonces are kept a day, so a replay is told "used" rather than "unknown". */
const KEEP_MS = 24 * 3_600_000;

export interface WalletLoginServices {
  account: AccountServices;
  /** PUBLIC_ORIGIN: the origins wallet messages may name (empty: loopback hosts only). */
  publicOrigins: readonly string[];
}

/** Limits wallet calls per IP like password logins (their own bucket, the same numbers). */
export async function takeWalletAttempt(s: WalletLoginServices, what: 'nonce' | 'login', ip: string): Promise<void> {
  const refusal = await s.account.limiter.take([{ bucket: `wallet:${what}:ip:${ip}`, ...s.account.limits.loginPerIp }]);
  if (refusal) {
    throw new BusinessError('rateLimited', { data: { retry_after: Math.ceil(refusal.retryAfterMs / 1000) } });
  }
}

/** Hands out a single-use message for one wallet to sign, for this site, valid for WALLET_MESSAGE_TTL_MS. */
export async function issueWalletNonce(
  s: WalletLoginServices,
  input: z.output<typeof walletNonceRequest>,
  ctx: CallContext,
): Promise<WalletNonce> {
  const site = walletSiteOf(ctx.site, s.publicOrigins);
  const address = canonicalWalletAddress(input.chain, input.address);
  if (address === null) throw new BusinessError('walletAddressInvalid', { field: 'address' });
  await takeWalletAttempt(s, 'nonce', ctx.ip);
  const now = s.account.now();
  const nonce = randomString(NONCE_ALPHABET, NONCE_LENGTH);
  const expiresAt = now + WALLET_MESSAGE_TTL_MS;
  let message: string;
  try {
    message = walletMessage({ ...input, address, ...site, nonce, issuedAt: now, expiresAt });
  } catch {
    // A host EIP-4361 cannot name (an IPv6 literal): no wallet can be asked to sign for it.
    throw new BusinessError('walletSiteRefused');
  }
  const db = walletTables(s.account.db);
  await db
    .deleteFrom('wallet_nonces')
    .where('expires_at', '<', now - KEEP_MS)
    .execute();
  await db
    .insertInto('wallet_nonces')
    .values({
      nonce,
      chain: input.chain,
      address,
      purpose: input.purpose,
      domain: site.domain,
      uri: site.uri,
      message,
      user_id: input.purpose === 'bind' ? (ctx.session?.userId ?? null) : null,
      issued_at: now,
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  return { chain: input.chain, address, nonce, message, expires_at: expiresAt };
}

/**
 * Checks a signed message offline against the nonce it names: the nonce is known, unused and for this purpose, it was
 * asked for on the site this request came to, then chain, site, time, address, text and signature
 * (protocol/wallet-login.ts). Consuming the nonce is the caller's step, in the transaction of what the message allows
 * (`consumeWalletNonce`).
 */
export async function verifySignedMessage(
  s: WalletLoginServices,
  input: { chain: WalletNoncesTable['chain']; message: string; signature: string },
  purpose: WalletPurpose,
  site: CallContext['site'],
): Promise<{ id: number; chain: WalletNoncesTable['chain']; address: string; user_id: number | null }> {
  // The site a login may open is this request's (a public origin, or loopback without PUBLIC_ORIGIN), as at issue.
  const here = walletSiteOf(site, s.publicOrigins);
  const parsed = parseWalletMessage(input.message);
  if (!parsed) throw new BusinessError('walletMessageMalformed', { field: 'message' });
  const now = s.account.now();
  const row = await walletTables(s.account.db)
    .selectFrom('wallet_nonces')
    .selectAll()
    .where('nonce', '=', parsed.nonce)
    .executeTakeFirst();
  if (!row) throw new BusinessError(now >= parsed.expiresAt ? 'walletMessageExpired' : 'walletNonceUnknown');
  if (row.used_at !== null) throw new BusinessError('walletNonceUsed');
  if (row.purpose !== purpose) throw new BusinessError('walletNonceUnknown');
  // EIP-4361: the domain the wallet showed is where the session goes. A message asked for on localhost:3000 opens
  // nothing posted to 127.0.0.1:3000 (another origin, with its own storage), nor on any other served host.
  if (row.domain !== here.domain || row.uri !== here.uri) throw new BusinessError('walletDomainMismatch');
  const issued: IssuedWalletMessage = {
    chain: row.chain,
    address: row.address,
    domain: row.domain,
    uri: row.uri,
    message: row.message,
    expiresAt: row.expires_at,
  };
  const refusal = await walletMessageRefusal(input, parsed, issued, now);
  if (refusal) throw new BusinessError(refusal);
  return { id: row.id, chain: row.chain, address: row.address, user_id: row.user_id };
}

/** Marks the nonce used, exactly once: of two requests with one signature, the second finds it taken. */
export async function consumeWalletNonce(trx: Kysely<Database>, id: number, now: number): Promise<void> {
  const result = await walletTables(trx)
    .updateTable('wallet_nonces')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw new BusinessError('walletNonceUsed');
}
