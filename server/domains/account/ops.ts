import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { Sessions } from '../../platform/security/sessions';
import { ensurePlatformInviteCode } from './invite';
import { withAccount } from './tables';

async function printCodes(db: Kysely<Database>, address: string | undefined, out: Out): Promise<void> {
  let query = withAccount(db).selectFrom('code_outbox').selectAll().orderBy('id', 'desc').limit(20);
  if (address) query = query.where('address', '=', address.includes('@') ? address.toLowerCase() : address);
  const rows = await query.execute();
  if (rows.length === 0) out('no codes in the outbox');
  for (const row of rows) {
    out(
      `${new Date(row.created_at).toISOString()}  ${row.code}  ${row.scene.padEnd(8)}  ${row.channel.padEnd(5)}  ${row.address}`,
    );
  }
}

async function revokeSessions(db: Kysely<Database>, who: string | undefined, out: Out): Promise<number> {
  if (!who) {
    out('usage: npm run ops -- sessions revoke <userId|username>');
    return 2;
  }
  const user = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where(/^\d+$/.test(who) ? 'id' : 'username', '=', /^\d+$/.test(who) ? Number(who) : who.toLowerCase())
    .executeTakeFirst();
  if (!user) {
    out(`no user ${who}`);
    return 1;
  }
  const revoked = await new Sessions(db, Date.now).revokeAll(user.id);
  out(`revoked ${revoked} session(s) of user ${user.id} (${user.username})`);
  return 0;
}

/** The account module's operator commands. */
export const accountOps: OpsCommand[] = [
  {
    name: 'invite',
    help: [['invite', 'print the platform invite code']],
    run: async (_words, { db, out, inviteCode }) => {
      out(await ensurePlatformInviteCode(db, inviteCode));
      return 0;
    },
  },
  {
    name: 'codes',
    help: [
      [
        'codes [address]',
        'latest verification codes from the outbox (all, or one e-mail / phone such as +4915112345678)',
      ],
    ],
    run: async (words, { db, out }) => {
      await printCodes(db, words[0], out);
      return 0;
    },
  },
  {
    name: 'sessions',
    help: [['sessions revoke <userId|username>', 'end every session of a user']],
    run: async (words, { db, out }) => {
      if (words[0] === 'revoke') return revokeSessions(db, words[1], out);
      out('usage: npm run ops -- sessions revoke <userId|username>');
      return 2;
    },
  },
];
