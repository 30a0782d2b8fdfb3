import type { Kysely } from 'kysely';
import { formatRatio, ratioPercent } from '../../../protocol/rules/referral';
import { Ledger } from '../../ledger';
import { currentOperator } from '../../platform/audit';
import { handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import {
  defaultShare,
  grantPartner,
  listPartners,
  type PartnerResult,
  revokePartner,
  setDefaultShare,
  setPartnerRatio,
} from './partners';
import { payRebates } from './rebates';

const PARTNERS_USAGE = [
  'usage: npm run ops -- partners list',
  '       npm run ops -- partners grant <user id|username|e-mail|+phone> <ratio>',
  '       npm run ops -- partners ratio <user> <ratio>',
  '       npm run ops -- partners revoke <user>',
  '  a ratio is a fraction or a percentage from 0 to 50%: 0.3 or 30%',
].join('\n');

const REFERRAL_USAGE = [
  'usage: npm run ops -- referral share [set <ratio>]',
  '       npm run ops -- referral rebates',
].join('\n');

const pct = (bp: bigint | number) => `${ratioPercent(BigInt(bp))}%`;

function report(result: PartnerResult, out: Out, done: string): number {
  if (!result.ok) {
    out(
      result.problem === 'bad ratio'
        ? 'bad ratio: a fraction or percentage from 0 to 50% (0.3 or 30%)'
        : result.problem,
    );
    return 1;
  }
  const p = result.partner;
  out(
    `user ${result.userId} ${done}: ${p.status}, code ${p.auth_code}, ratio ${ratioPercent(p.ratio)}%, bonus ${ratioPercent(p.bonus)}%`,
  );
  return 0;
}

/** `partners …`: grant, change and revoke partner status; every change audited. */
export async function runPartnersCommand(words: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, who, ratio, ...extra] = words;
  const operator = { operator: currentOperator() };
  if (sub === 'list' && who === undefined) {
    const partners = await listPartners(db);
    if (partners.length === 0) out('no partners');
    for (const p of partners) {
      out(
        `${String(p.user_id).padStart(6)}  ${p.username.padEnd(20)}  ${p.status.padEnd(7)}  ${p.auth_code}  ratio ${pct(p.ratio_bp).padEnd(6)}  bonus ${pct(p.bonus_bp).padEnd(6)}  since ${new Date(p.granted_at).toISOString()}`,
      );
    }
    return 0;
  }
  if (sub === 'grant' && who && ratio && extra.length === 0) {
    return report(await grantPartner(db, who, ratio, operator), out, 'is a partner');
  }
  if (sub === 'ratio' && who && ratio && extra.length === 0) {
    return report(await setPartnerRatio(db, who, ratio, operator), out, 'has a new ratio');
  }
  if (sub === 'revoke' && who && ratio === undefined) {
    return report(await revokePartner(db, who, operator), out, 'is no longer a partner');
  }
  out(PARTNERS_USAGE);
  return sub === undefined || sub === 'help' ? 0 : 2;
}

/** `referral …`: the default share, and a rebate round on demand (the job does it every few seconds). */
export async function runReferralCommand(words: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, action, value, ...extra] = words;
  if (sub === 'share' && action === undefined) {
    const bp = await defaultShare(db);
    out(`default referral share: ${pct(bp)} (${formatRatio(bp)})`);
    return 0;
  }
  if (sub === 'share' && action === 'set' && value && extra.length === 0) {
    const result = await setDefaultShare(db, value, { operator: currentOperator() });
    if (!result.ok) {
      out('bad ratio: a fraction or percentage from 0 to 50% (0.2 or 20%)');
      return 1;
    }
    out(`default referral share: ${ratioPercent(result.share)}% (${result.share}), from the next rebate round on`);
    return 0;
  }
  if (sub === 'rebates' && action === undefined) {
    const handle = handleOf(db);
    const result = await payRebates({ database: handle, ledger: new Ledger(handle), now: Date.now });
    out(
      `referral rebates: ${result.fees} fee(s) rebated, ${result.entries} ledger entr${result.entries === 1 ? 'y' : 'ies'}`,
    );
    return 0;
  }
  out(REFERRAL_USAGE);
  return sub === undefined || sub === 'help' ? 0 : 2;
}

export const referralOps: OpsCommand[] = [
  {
    name: 'partners',
    help: [
      ['partners list', 'every referral partner with code, ratio and bonus'],
      ['partners grant <user> <ratio>', 'make a user a partner (0 to 50%) with a new authorisation code (audited)'],
      ['partners ratio <user> <ratio>', "change a partner's ratio; a bonus above it comes down (audited)"],
      ['partners revoke <user>', 'end a partner status: the default share applies again (audited)'],
    ],
    run: (words, { db, out }) => runPartnersCommand(words, db, out),
  },
  {
    name: 'referral',
    help: [
      ['referral share [set <ratio>]', "the referrers' default share of their invitees' trading fees (audited)"],
      ['referral rebates', 'pay the rebates of trading fees not rebated yet (the job does this)'],
    ],
    run: (words, { db, out }) => runReferralCommand(words, db, out),
  },
];
