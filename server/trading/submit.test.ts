import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withLedger } from '../ledger';
import { Ledger } from '../ledger/ledger';
import { migrateToLatest } from '../migrations';
import type { DatabaseHandle } from '../platform/db/connect';
import { withBigId } from '../platform/db/migration-kit';
import type { Database } from '../platform/db/schema';
import { BusinessError } from '../platform/errors';
import { errorBody } from '../platform/http/envelope';
import { translate } from '../platform/i18n/messages';
import { claimRequestId, withRequestClaim } from '../platform/request-ids';
import { insertUser, openMemoryDatabase, openPostgresSchema } from '../testing';
import { type HoldPlan, type Submission, submitTrade } from './submit';

/**
 * The shared submission lifecycle, driven by a made-up product whose rows live in a table of the test's own: what it
 * promises every product (a retry answers the same and holds once, other arguments under the id are refused with
 * their reason, a failing hand-over leaves nothing) without any product's terms in the way. SQLite always; PostgreSQL
 * (where racing requests run on connections of their own) when TEST_DATABASE_URL is set.
 */

type Opened = { handle: DatabaseHandle; close: () => Promise<void> };
const targets: Array<[string, () => Promise<Opened>]> = [
  [
    'sqlite',
    async () => {
      const handle = await openMemoryDatabase();
      return { handle, close: () => handle.db.destroy() };
    },
  ],
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  targets.push([
    'postgres',
    async () => {
      const opened = await openPostgresSchema(pgUrl);
      await migrateToLatest(opened.handle);
      return opened;
    },
  ]);
}

const AT = 1_700_000_000_000;

interface TradeRow {
  id: number;
  user_id: number;
  request_id: string;
  request_digest: string;
  hold_id: number;
  accepted_at: number;
}

interface TradeArgs {
  amount: string;
  side: 'up' | 'down';
}

/** Ledger minor units of USDT (scale 6 in the ledger) of a whole-number amount. */
const units = (whole: string) => BigInt(whole) * 1_000_000n;

describe.each(targets)('submitTrade on %s', (_kind, open) => {
  let opened: Opened;
  let handle: DatabaseHandle;
  let ledger: Ledger;
  let userId: number;
  let accepted: TradeRow[];
  let holdsComputed: number;

  // One database per dialect, one user per test: request ids are per user, so the tests cannot meet.
  beforeAll(async () => {
    opened = await open();
    handle = opened.handle;
    ledger = new Ledger(handle, () => AT);
    await handle.db.schema
      .createTable('test_trades')
      .$call(withBigId(handle.kind))
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('request_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('hold_id', 'bigint', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('test_trades_request', ['user_id', 'request_id'])
      .execute();
  });
  afterAll(() => opened.close());

  beforeEach(async () => {
    userId = await insertUser(handle);
    await ledger.credit({
      userId,
      requestId: 'seed',
      kind: 'deposit',
      currency: 'USDT',
      amount: Number(units('100')),
      from: 'deposits_clearing',
      to: 'option',
    });
    accepted = [];
    holdsComputed = 0;
  });

  const find = async (db: Kysely<Database>, requestId: string) =>
    (await sql<TradeRow>`select * from test_trades where user_id = ${userId} and request_id = ${requestId}`.execute(db))
      .rows[0];

  /** The made-up product's submission of `args` under `requestId`. */
  function trade(
    requestId: string,
    args: TradeArgs,
    overrides: Partial<Submission<TradeRow, TradeRow>> = {},
  ): Submission<TradeRow, TradeRow> {
    return {
      userId,
      requestId,
      digest: JSON.stringify([args.amount, args.side]),
      holdRequestId: `test:${requestId}`,
      find: (db) => find(db, requestId),
      hold: (): HoldPlan => {
        holdsComputed++;
        return {
          book: 'real',
          type: 'option',
          currency: 'USDT',
          amount: units(args.amount),
          ref: 'test',
          field: 'amount',
        };
      },
      handOver: async (trx, placed) => {
        await sql`insert into test_trades (user_id, request_id, request_digest, hold_id, accepted_at)
          values (${userId}, ${requestId}, ${JSON.stringify([args.amount, args.side])}, ${placed.holdId}, ${placed.at})`.execute(
          trx,
        );
        const row = await find(trx, requestId);
        if (!row) throw new Error('the trade row was not written');
        return row;
      },
      event: 'test_trade',
      toWire: (row) => row,
      accepted: (row) => accepted.push(row),
      ...overrides,
    };
  }

  const services = () => ({ database: handle, ledger, now: () => AT });
  const submit = (sub: Submission<TradeRow, TradeRow>) => submitTrade(services(), sub);
  const holds = () =>
    withLedger(handle.db)
      .selectFrom('ledger_holds as h')
      .innerJoin('ledger_accounts as a', 'a.id', 'h.account_id')
      .select(['h.id', 'h.amount', 'h.state'])
      .where('a.user_id', '=', userId)
      .orderBy('h.id')
      .execute();
  const available = async () =>
    (await ledger.balances(userId)).find((b) => b.type === 'option' && b.currency === 'USDT')?.available ?? 0;
  const events = () => handle.db.selectFrom('user_events').select('kind').where('user_id', '=', userId).execute();
  const claims = () => handle.db.selectFrom('request_ids').select('applied').where('user_id', '=', userId).execute();
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('the submission was not refused');
      },
      (err: unknown) => {
        if (!(err instanceof BusinessError)) throw err;
        return errorBody('en', err.key, { field: err.field });
      },
    );

  it('answers a retry with the same id and arguments as the first time, holding once', async () => {
    const args: TradeArgs = { amount: '30', side: 'up' };
    const first = await submit(trade('r1', args));
    expect(first).toMatchObject({ request_id: 'r1', accepted_at: AT });
    const again = await submit(trade('r1', args));
    expect(again).toEqual(first);
    expect(holdsComputed).toBe(1);
    expect(await holds()).toMatchObject([{ id: first.hold_id, amount: Number(units('30')), state: 'open' }]);
    expect(await available()).toBe(Number(units('70')));
    // The engine hears of the order and the user of the event once, for the request that placed it.
    expect(accepted).toEqual([first]);
    expect(await events()).toEqual([{ kind: 'test_trade' }]);
  });

  it('answers the same for two racing requests with one id, holding once', async () => {
    const args: TradeArgs = { amount: '30', side: 'up' };
    // Both requests look for an earlier answer before either writes one (a latch, not luck: on PostgreSQL's pool the
    // second could otherwise look after the first committed and take the plain retry path instead of the race).
    let looked = 0;
    let bothLooked: () => void = () => undefined;
    const latch = new Promise<void>((resolve) => {
      bothLooked = resolve;
    });
    const racing = (): Submission<TradeRow, TradeRow> => {
      let first = true;
      return trade('r1', args, {
        find: async (db) => {
          const row = await find(db, 'r1');
          if (first) {
            first = false;
            looked += 1;
            if (looked === 2) bothLooked();
            await latch;
          }
          return row;
        },
      });
    };
    const [a, b] = await Promise.all([submit(racing()), submit(racing())]);
    expect(b).toEqual(a);
    expect(holdsComputed).toBe(2);
    expect(await holds()).toHaveLength(1);
    expect(await available()).toBe(Number(units('70')));
    expect(accepted).toEqual([a]);
  });

  it('refuses the same id with other arguments, with its reason, holding nothing more', async () => {
    const first = await submit(trade('r1', { amount: '30', side: 'up' }));
    for (const other of [
      { amount: '40', side: 'up' },
      { amount: '30', side: 'down' },
    ] as const) {
      expect(await refusal(submit(trade('r1', other)))).toEqual({
        type: 'error',
        code: 0,
        message: translate('en', 'requestIdReused'),
        reason: 'requestIdReused',
      });
    }
    expect(await holds()).toEqual([expect.objectContaining({ id: first.hold_id })]);
    expect(await available()).toBe(Number(units('70')));
  });

  it('refuses other arguments that race the first request under its id, even for the same hold', async () => {
    const sides = ['up', 'down'] as const;
    const outcomes = await Promise.allSettled(sides.map((side) => submit(trade('r1', { amount: '30', side }))));
    // Either may hold first (PostgreSQL runs them on two connections); the other is refused.
    const won = outcomes.findIndex((o) => o.status === 'fulfilled');
    expect(outcomes[1 - won]).toMatchObject({ status: 'rejected', reason: { key: 'requestIdReused' } });
    const row = await find(handle.db, 'r1');
    expect(row?.request_digest).toBe(JSON.stringify(['30', sides[won]]));
    expect(await holds()).toHaveLength(1);
  });

  it('rolls the hold, the event and the confirmed claim back when the hand-over fails', async () => {
    const claim = { userId, requestId: 'r1', path: 'test/trade', digest: 'd', at: AT };
    await claimRequestId(handle.db, claim);
    const failing = trade(
      'r1',
      { amount: '30', side: 'up' },
      {
        handOver: async (trx) => {
          await sql`insert into test_trades (user_id, request_id, request_digest, hold_id, accepted_at)
            values (${userId}, 'r1', 'x', 0, 0)`.execute(trx);
          throw new Error('the engine refused the order');
        },
      },
    );
    await expect(withRequestClaim(claim, () => submit(failing))).rejects.toThrow('the engine refused the order');
    expect(await holds()).toEqual([]);
    expect(await available()).toBe(Number(units('100')));
    expect(
      await withLedger(handle.db)
        .selectFrom('ledger_entries')
        .select('request_id')
        .where('user_id', '=', userId)
        .execute(),
    ).toEqual([{ request_id: 'seed' }]);
    expect(await find(handle.db, 'r1')).toBeUndefined();
    expect(await events()).toEqual([]);
    expect(await claims()).toEqual([{ applied: 0 }]);
    expect(accepted).toEqual([]);
    // Nothing was left behind: the retry places the order.
    const retried = await withRequestClaim(claim, () => submit(trade('r1', { amount: '30', side: 'up' })));
    expect(await holds()).toMatchObject([{ id: retried.hold_id, state: 'open' }]);
    expect(await claims()).toEqual([{ applied: 1 }]);
  });

  it('refuses what the funds cannot cover with the product’s reason and field', async () => {
    const short = trade(
      'r1',
      { amount: '130', side: 'up' },
      {
        hold: () => ({
          book: 'real',
          type: 'option',
          currency: 'USDT',
          amount: units('130'),
          ref: 'test',
          field: 'stake',
          short: 'insufficientSellable',
        }),
      },
    );
    expect(await refusal(submit(short))).toMatchObject({ reason: 'insufficientSellable', field: 'stake' });
    expect(await holds()).toEqual([]);
  });

  it('answers funds spent between the check and the hold like the check would', async () => {
    const raced = trade(
      'r1',
      { amount: '80', side: 'up' },
      {
        hold: () => ({
          book: 'real',
          type: 'option',
          currency: 'USDT',
          amount: units('80'),
          ref: 'test',
          field: 'stake',
          // Another order of the user's takes the funds after the check passed.
          admit: async () => {
            await ledger.placeHold({
              userId,
              requestId: 'elsewhere',
              kind: 'order',
              type: 'option',
              currency: 'USDT',
              amount: Number(units('50')),
            });
          },
        }),
      },
    );
    expect(await refusal(submit(raced))).toMatchObject({
      reason: 'insufficientBalance',
      message: translate('en', 'insufficientBalance'),
      field: 'stake',
    });
    expect(await holds()).toHaveLength(1);
  });

  it('grants the practice funds on first use and holds from the simulator book', async () => {
    const practice = trade(
      'r1',
      { amount: '30', side: 'up' },
      {
        hold: () => ({
          book: 'simulator',
          type: 'option',
          currency: 'USDT',
          amount: units('30'),
          ref: 'test',
          field: 'stake',
        }),
      },
    );
    await submit(practice);
    const simulator = (await ledger.balances(userId, 'simulator')).find((b) => b.type === 'option');
    expect(simulator).toMatchObject({ balance: Number(units('10000')), held: Number(units('30')) });
    expect(await available()).toBe(Number(units('100')));
  });
});
