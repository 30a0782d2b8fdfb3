import type { Kysely } from 'kysely';
import { IEO_COIN_SCALE, IEO_PAY_CURRENCY } from '../../../protocol/ieo';
import { ieoPayment } from '../../../protocol/rules/ieo';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';
import { currencyScale, isCurrency, Ledger, MAX_AMOUNT_UNITS } from '../../ledger';
import { instrumentBySymbol, listingParameters } from '../../market';
import { recordAudit } from '../../platform/audit';
import { handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { projectState } from './projects';
import { runIeoSteps } from './steps';
import { withIeo } from './tables';

const CREATE_USAGE =
  'usage: npm run ops -- ieo create coin=ABC name="ABC Token" price=0.05 listing=0.08 supply=1000000 cap=5000 ' +
  'total=100000000 circulating=20000000 start=+0m end=+1h allot=+1h pay=+2h list=+2h unlock=+1d [desc=...]\n' +
  '  times: ISO (2026-12-01T10:00:00Z) or relative to now (+30m, +2h, +1d)';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A time word: ISO 8601, or +N with s/m/h/d relative to `now`. */
export function parseTime(word: string | undefined, now: number): number | null {
  if (!word) return null;
  const relative = /^\+(\d{1,6})([smhd])$/.exec(word);
  if (relative) return now + Number(relative[1]) * (UNIT_MS[relative[2] ?? 's'] ?? 0);
  const ms = Date.parse(word);
  return Number.isNaN(ms) ? null : ms;
}

const DECIMAL_RE = /^\d{1,20}(\.\d{1,18})?$/;

/** `key=value` words (a value may hold spaces when quoted by the shell). */
function fieldsOf(words: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq > 0) fields.set(word.slice(0, eq), word.slice(eq + 1));
  }
  return fields;
}

async function createProject(db: Kysely<Database>, words: readonly string[], out: Out): Promise<number> {
  const f = fieldsOf(words);
  const now = Date.now();
  const coin = (f.get('coin') ?? '').toUpperCase();
  const problem = (text: string) => {
    out(text);
    out(CREATE_USAGE);
    return 1;
  };
  if (!/^[A-Z][A-Z0-9]{1,11}$/.test(coin)) return problem(`bad coin symbol: ${coin}`);
  if (isCurrency(coin)) return problem(`${coin} is already a currency`);
  const name = (f.get('name') ?? '').trim();
  if (name === '' || name.length > 64) return problem('a name of 1 to 64 characters');
  const prices = ['price', 'listing', 'total', 'circulating'].map((k) => f.get(k) ?? '');
  if (!prices.every((p) => DECIMAL_RE.test(p)) || /^0+(\.0+)?$/.test(prices[0] ?? '')) return problem('bad prices');
  const supply = toUnits(f.get('supply') ?? '', IEO_COIN_SCALE);
  const cap = toUnits(f.get('cap') ?? '', IEO_COIN_SCALE);
  if (supply === null || cap === null || supply <= 0n || cap <= 0n) return problem('bad supply or cap');
  // Everything a listing will post must be an amount the ledger takes: the supply in coins, a full cap's payment.
  if (supply > BigInt(MAX_AMOUNT_UNITS) || cap > supply)
    return problem('the cap is at most the supply, at most 10^7 coins');
  const fullPayment = ieoPayment(cap, prices[0] ?? '0', IEO_COIN_SCALE, currencyScale(IEO_PAY_CURRENCY));
  if (fullPayment > BigInt(MAX_AMOUNT_UNITS)) return problem('a full allotment at this price is too large to pay');
  // The coin must be listable as given (not a market instrument, a valid listing price): checked now, not at listing.
  if (instrumentBySymbol(coin)) return problem(`${coin} is already on the market`);
  try {
    listingParameters({ symbol: coin, name, startPrice: prices[1] ?? '', listedAt: Date.now() });
  } catch (err) {
    return problem(err instanceof Error ? err.message : String(err));
  }
  const times = ['start', 'end', 'allot', 'pay', 'list', 'unlock'].map((k) => parseTime(f.get(k), now));
  const [start, end, allotAt, payUntil, listAt, unlockAt] = times;
  if (times.some((t) => t === null)) return problem('every time is needed');
  if (
    !(
      (start ?? 0) < (end ?? 0) &&
      (end ?? 0) <= (allotAt ?? 0) &&
      (allotAt ?? 0) < (payUntil ?? 0) &&
      (payUntil ?? 0) <= (listAt ?? 0) &&
      (listAt ?? 0) <= (unlockAt ?? 0)
    )
  ) {
    return problem('times must follow start < end <= allot < pay <= list <= unlock');
  }
  return writeTransaction(handleOf(db), async (trx) => {
    const row = await withIeo(trx)
      .insertInto('ieo_projects')
      .values({
        coin,
        name,
        description: (f.get('desc') ?? '').slice(0, 1000),
        ieo_price: prices[0] ?? '',
        listing_price: prices[1] ?? '',
        total_supply: prices[2] ?? '',
        circulating_supply: prices[3] ?? '',
        supply: Number(supply),
        user_cap: Number(cap),
        starts_at: start ?? 0,
        ends_at: end ?? 0,
        allot_at: allotAt ?? 0,
        pay_until: payUntil ?? 0,
        list_at: listAt ?? 0,
        unlock_at: unlockAt ?? 0,
        demand: null,
        allotted_at: null,
        lapsed_at: null,
        listed_at: null,
        unlocked_at: null,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      action: 'ieo_project.create',
      subjectType: 'ieo_project',
      subjectId: row.id,
      detail: row,
    });
    out(`ieo project ${row.id} created: ${coin}`);
    return 0;
  });
}

/**
 * `ieo ...`: create a project (audited), list projects, and carry out the steps due now. There is deliberately no
 * command that sets an allotment or a subscription's state: they come from the subscriptions, the times and the rule.
 */
export async function runIeoCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub] = args;
  if (sub === 'create') return createProject(db, args.slice(1), out);
  if (sub === undefined || sub === 'projects') {
    const rows = await withIeo(db).selectFrom('ieo_projects').selectAll().orderBy('id').execute();
    if (rows.length === 0) out('no ieo projects');
    for (const r of rows) {
      out(
        `${String(r.id).padStart(4)} ${r.coin.padEnd(8)} ${projectState(r, Date.now()).padEnd(12)} price ${r.ieo_price}` +
          `  supply ${fromUnits(BigInt(r.supply), IEO_COIN_SCALE)}  list ${new Date(r.list_at).toISOString()}  ${r.name}`,
      );
    }
    return 0;
  }
  if (sub === 'steps') {
    const handle = handleOf(db);
    const r = await runIeoSteps({ database: handle, ledger: new Ledger(handle), now: Date.now });
    out(`ieo steps: ${r.allotted} allotted, ${r.lapsed} lapsed, ${r.listed} listed, ${r.unlocked} unlocked`);
    return 0;
  }
  out(CREATE_USAGE);
  return 2;
}

export const ieoOps: OpsCommand[] = [
  {
    name: 'ieo',
    help: [
      ['ieo projects', 'every project with its state'],
      ['ieo create coin=... name=... price=... ...', 'a new project (see `ieo create` for every field)'],
      ['ieo steps', 'carry out the allotments, lapses, listings and unlocks due now (the job does this)'],
    ],
    run: (words, { db, out }) => runIeoCommand(words, db, out),
  },
];
