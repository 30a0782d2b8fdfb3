import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { CodeScene, Lang } from '../../../protocol';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { DIGITS, randomString, sameDigest, sha256 } from '../../platform/security/digest';
import type { Limit, RateLimiter, Refusal } from '../../platform/security/rate-limit';
import type { CodeSender } from './code-sender';
import { type Contact, channelOf } from './contact';
import type { AccountLimits } from './limits';
import { withAccount } from './tables';

export const CODE_TTL_MS = 10 * 60_000;
/** Attempts per code (the right one included); then the code is dead and a new one must be requested. */
export const CODE_MAX_TRIES = 5;

/** Bound to address and scene, so a leaked hash row cannot be replayed elsewhere. */
const codeHash = (contact: Contact, scene: CodeScene, code: string) => sha256(`${scene}\n${contact.address}\n${code}`);

const secondsCeil = (ms: number) => Math.ceil(ms / 1000);

export interface CodeServiceDeps {
  db: Kysely<Database>;
  limiter: RateLimiter;
  sender: CodeSender;
  limits: AccountLimits;
  now: () => number;
  log: FastifyBaseLogger;
}

/** One-time verification codes: issue (rate limited), check (tries limited), consume (once). */
export class CodeService {
  constructor(private readonly deps: CodeServiceDeps) {}

  /**
   * Counts a send against the address and IP limits, then (when `deliver`) stores a fresh code, replacing any
   * older one for the same address and scene, and hands it to the sender. `deliver: false` still counts, so a
   * `forget` request for an unknown address looks exactly like one for a known address.
   * Returns the seconds until the next send to this address is allowed.
   */
  async send(
    contact: Contact,
    scene: CodeScene,
    request: { ip: string; lang: Lang; deliver: boolean },
  ): Promise<{ retryAfter: number }> {
    const { db, limiter, limits, sender, now, log } = this.deps;
    const address = `code:address:${contact.address}`;
    const resend: Limit = { bucket: address, ...limits.codeResend };
    const refusal = await limiter.take([
      resend,
      { bucket: address, ...limits.codePerAddress },
      { bucket: `code:ip:${request.ip}`, ...limits.codePerIp },
    ]);
    if (refusal) throw rateLimitError(refusal, resend);

    if (request.deliver) {
      const code = randomString(DIGITS, 6);
      const at = now();
      const channel = channelOf(contact);
      await db.transaction().execute(async (trx) => {
        await withAccount(trx)
          .deleteFrom('verification_codes')
          .where('address', '=', contact.address)
          .where('scene', '=', scene)
          .execute();
        await withAccount(trx)
          .insertInto('verification_codes')
          .values({
            channel,
            address: contact.address,
            scene,
            code_hash: codeHash(contact, scene, code),
            created_at: at,
            expires_at: at + CODE_TTL_MS,
            tries: 0,
          })
          .execute();
      });
      try {
        await sender.send({ channel, address: contact.address, scene, code, lang: request.lang });
      } catch (err) {
        log.error({ err, channel, scene }, 'verification code could not be delivered');
        throw new BusinessError('codeSendFailed');
      }
    }
    return { retryAfter: secondsCeil(limits.codeResend.windowMs) };
  }

  /**
   * Checks `code` against the live code for this address and scene and returns its id for `consume`.
   * The attempt is counted before comparing, so parallel guesses cannot exceed CODE_MAX_TRIES.
   */
  async check(contact: Contact, scene: CodeScene, code: string): Promise<number> {
    const { db, now } = this.deps;
    const wrong = () => new BusinessError('codeWrong', { field: 'code' });
    const row = await withAccount(db)
      .selectFrom('verification_codes')
      .select(['id', 'code_hash', 'expires_at', 'tries'])
      .where('address', '=', contact.address)
      .where('scene', '=', scene)
      .where('consumed_at', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!row || row.expires_at <= now()) throw wrong();

    const counted = await withAccount(db)
      .updateTable('verification_codes')
      .set((eb) => ({ tries: eb('tries', '+', 1) }))
      .where('id', '=', row.id)
      .where('tries', '<', CODE_MAX_TRIES)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) throw new BusinessError('codeTooManyTries', { field: 'code' });

    if (!sameDigest(row.code_hash, codeHash(contact, scene, code))) {
      throw row.tries + 1 >= CODE_MAX_TRIES ? new BusinessError('codeTooManyTries', { field: 'code' }) : wrong();
    }
    return row.id;
  }

  /** Uses up a checked code inside the caller's transaction; a code consumed meanwhile counts as wrong. */
  async consume(trx: Kysely<Database>, id: number): Promise<void> {
    const result = await withAccount(trx)
      .updateTable('verification_codes')
      .set({ consumed_at: this.deps.now() })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new BusinessError('codeWrong', { field: 'code' });
  }
}

/** The one-per-minute limit has its own message; the hourly caps share the generic one. Both carry retry_after. */
function rateLimitError(refusal: Refusal, resend: Limit): BusinessError {
  const data = { retry_after: secondsCeil(refusal.retryAfterMs) };
  return new BusinessError(refusal.limit === resend ? 'codeRateLimited' : 'rateLimited', { data });
}
