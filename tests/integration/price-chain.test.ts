import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { MAX_CHAIN_LINKS } from '../../protocol/price-record';
import { batchDigest, chainHash, GENESIS_HASH, symbolDigest, verifyLinks } from '../../protocol/rules/price-record';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { runOps } from '../../server/ops/cli';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase } from './harness';

/** Polls `check` until it holds (the recorder is a job on a timer); fails after `limitMs`. */
async function eventually<T>(check: () => Promise<T | undefined | null | false>, limitMs = 10_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(DATABASES)('price record hash chain over HTTP on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let sim: MarketSimulator;
  let feed: MarketFeed;
  let now = Date.UTC(2024, 5, 4, 12);
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    sim = new MarketSimulator({ seed: 'chain-it', now: () => now, backfillDays: 0, alwaysOpen: true });
    feed = new MarketFeed(sim, () => now);
    // A short flush interval keeps the test quick; the chain is the same as with the default second.
    t = await startTestApp(database.handle, { market: { feed, record: { now: () => now, flushMs: 50 } } });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  const advance = (ms: number) => {
    now += ms;
    sim.advanceTo(now);
  };

  async function ok<P extends CallPath>(path: P, fields: Record<string, string> = {}) {
    const { status, body } = await t.call(path, fields);
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
    return okEnvelope(calls[path].response).parse(body).data as CallData<P>;
  }

  it('the public head advances as the recorder seals batches', async () => {
    // Nothing published yet: an empty record has a head of nulls.
    expect(await ok('market/chain/head')).toEqual({ batch_id: null, hash: null, to_ts: null });
    advance(3_000);
    const head1 = await eventually(async () => {
      const head = await ok('market/chain/head');
      return head.batch_id === null ? undefined : head;
    });
    expect(head1.hash).toMatch(/^[0-9a-f]{64}$/);
    advance(2_000);
    const head2 = await eventually(async () => {
      const head = await ok('market/chain/head');
      return (head.batch_id ?? 0) > (head1.batch_id ?? 0) ? head : undefined;
    });
    expect(head2.to_ts).toBe(now);
  });

  it("a tick's record and the links after it recompute to the head with the published rule code", async () => {
    advance(1_000);
    const seq = feed.quote('BTC')?.seq;
    if (seq === undefined) throw new Error('no BTC quote');
    const record = await eventually(async () => {
      const { body } = await t.call('market/chain/record', { symbol: 'btc', seq: String(seq) });
      return body.type === 'ok' ? okEnvelope(calls['market/chain/record'].response).parse(body).data : undefined;
    });
    expect(record.ticks.map((x) => x.seq)).toContain(seq);
    expect(record.ticks.every((x) => x.symbol === 'BTC')).toBe(true);
    // The client's check: its own symbol's digest from the ticks, the others' as given, then the link.
    const own = record.parts.find((p) => p.symbol === 'BTC');
    expect(own?.digest).toBe(symbolDigest(record.ticks));
    expect(batchDigest(record.parts)).toBe(record.batch.digest);
    expect(chainHash(record.batch.prev_hash, record.batch.digest)).toBe(record.batch.hash);

    // More batches on top, then fold from this batch up to the head.
    advance(2_000);
    const head = await eventually(async () => {
      const h = await ok('market/chain/head');
      return (h.batch_id ?? 0) > record.batch.id ? h : undefined;
    });
    const links = await ok('market/chain/links', {
      from_id: String(record.batch.id),
      to_id: String(head.batch_id),
    });
    expect(links.map((l) => l.id)).toEqual(
      Array.from({ length: (head.batch_id ?? 0) - record.batch.id }, (_, k) => record.batch.id + 1 + k),
    );
    expect(
      verifyLinks(
        record.batch.hash,
        links.map((l) => l.digest),
      ),
    ).toBe(head.hash);
    // And the whole chain from genesis.
    const all = await ok('market/chain/links', { from_id: '0', to_id: String(head.batch_id) });
    expect(
      verifyLinks(
        GENESIS_HASH,
        all.map((l) => l.digest),
      ),
    ).toBe(head.hash);
  });

  it("market/chain/ticks gives a symbol's newest recorded ticks and a range of them, oldest first", async () => {
    advance(3_000);
    const seq = feed.quote('BTC')?.seq;
    if (seq === undefined) throw new Error('no BTC quote');
    const recent = await eventually(async () => {
      const r = await ok('market/chain/ticks', { symbol: 'btc' });
      return r.ticks.at(-1)?.seq === seq ? r : undefined;
    });
    expect(recent.symbol).toBe('BTC');
    expect(recent.step).toBe(1);
    const seqs = recent.ticks.map((x) => x.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // The same ticks the chain's record holds for that seq.
    const record = await ok('market/chain/record', { symbol: 'BTC', seq: String(seq) });
    expect(recent.ticks).toEqual(expect.arrayContaining(record.ticks));
    const first = recent.ticks[0];
    if (!first) throw new Error('no BTC ticks');
    const range = await ok('market/chain/ticks', { symbol: 'BTC', from_seq: String(first.seq), to_seq: String(seq) });
    expect(range.ticks).toEqual(recent.ticks.filter((x) => x.seq >= first.seq));
    // A range needs both ends, in order.
    expect((await t.call('market/chain/ticks', { symbol: 'BTC', from_seq: '5' })).body).toMatchObject({
      type: 'error',
      field: 'to_seq',
    });
    expect((await t.call('market/chain/ticks', { symbol: 'BTC', from_seq: '5', to_seq: '4' })).body).toMatchObject({
      type: 'error',
      field: 'to_seq',
    });
  });

  it('answers clear errors: a tick not recorded, a range too long, bad numbers', async () => {
    const missing = await t.call('market/chain/record', { symbol: 'BTC', seq: '999999999' });
    expect(missing.body).toMatchObject({
      type: 'error',
      field: 'seq',
      message: 'This price is not sealed in the price record yet – please try again in a few seconds',
    });
    const german = await t.call('market/chain/record', { symbol: 'BTC', seq: '999999999' }, { lang: 'de' });
    expect(german.body.message).toMatch(/Preisaufzeichnung/);
    const long = await t.call('market/chain/links', { from_id: '0', to_id: String(MAX_CHAIN_LINKS + 1) });
    expect(long.body).toMatchObject({ type: 'error', field: 'to_id', message: expect.stringMatching(/3,600/) });
    expect((await t.call('market/chain/links', { from_id: '5', to_id: '4' })).body).toMatchObject({
      type: 'error',
      field: 'to_id',
    });
    expect((await t.call('market/chain/links', { from_id: '-1', to_id: '4' })).body).toMatchObject({
      type: 'error',
      field: 'from_id',
    });
    expect((await t.call('market/chain/record', { symbol: 'BTC', seq: '1.5' })).body).toMatchObject({
      type: 'error',
      field: 'seq',
    });
    // Exactly the limit is fine.
    await ok('market/chain/links', { from_id: '0', to_id: String(MAX_CHAIN_LINKS) });
  });

  it('`market verify` passes on the record and exits 1 once a tick price is changed in the database', async () => {
    const lines: string[] = [];
    expect(await runOps(['market', 'verify'], t.db, (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toMatch(/matches its hash chain/);
    const victim = await withPriceRecord(t.db)
      .selectFrom('price_ticks')
      .select(['id', 'batch_id'])
      .where('batch_id', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await withPriceRecord(t.db).updateTable('price_ticks').set({ price: '1.00' }).where('id', '=', victim.id).execute();
    lines.length = 0;
    expect(await runOps(['market', 'verify'], t.db, (line) => lines.push(line))).toBe(1);
    expect(lines.join('\n')).toContain(`DIFFERENCE: batch ${victim.batch_id}: its ticks do not match its digest`);
  });
});
