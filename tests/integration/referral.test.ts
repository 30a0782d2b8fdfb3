import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inviteLinkPath } from '../../protocol/referral';
import { formatRatio, parseRatio, rebateSplit } from '../../protocol/rules/referral';
import type { SpotOrder } from '../../protocol/spot';
import { approveVerification } from '../../server/domains/identity';
import { leverLedgerIds } from '../../server/domains/lever/submit';
import {
  defaultShare,
  maskedName,
  payRebates,
  REBATES_AFTER_KEY,
  referralLedgerIds,
  TRADING_FEE_ENTRIES,
  withReferral,
} from '../../server/domains/referral';
import { ledgerIds as spotLedgerIds } from '../../server/domains/spot/place';
import { withLedger } from '../../server/ledger';
import { formatAmount, parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { runOps } from '../../server/ops/cli';
import { apiChecks } from './api-checks';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/**
 * Referrals and partners over HTTP on every database (RULES "Referral and partners"): a user's invite code, link,
 * invitees (masked) and the leaderboard of verified invitees; rebates of real-book trading fees (spot trades through
 * the engine, lever fees as the lever module files them) paid once per fee, from the fee account, by the referrer's
 * terms; partners granted and changed by audited ops commands; a partner's bonus never above its ratio. Simulator and
 * withdrawal fees earn nothing, nobody sees another user's data, and junk input is refused in the envelope.
 */
describe.each(DATABASES)('referral on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  const T0 = Date.now();
  const sim = new MarketSimulator({
    seed: 'referral',
    now: () => T0,
    backfillDays: 0,
    alwaysOpen: true,
    stepMs: 1_000,
  });
  const feed = new MarketFeed(sim, () => T0);
  // The job's own timer stays out of the way: each test pays its rebates by calling the round itself.
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: false }, referralRebatesMs: 3_600_000 },
  );
  let marketTime = T0;
  beforeAll(() => {
    sim.advanceTo(T0);
    ledger = new Ledger(t.handle);
  });
  afterAll(() => feed.close());
  const { ok, refused } = apiChecks(() => t);
  const services = () => ({ database: t.handle, ledger, now: t.clock.now });
  const rebate = () => payRebates(services());

  let seeds = 0;
  async function fund(userId: number, amount: string, to: 'coin' | 'contract' = 'coin', book?: 'simulator') {
    const parsed = parseAmount('USDT', amount);
    if (!parsed.ok) throw new Error(parsed.error);
    await ledger.credit({
      userId,
      requestId: `seed-${++seeds}`,
      kind: book ? 'simulator_grant' : 'deposit',
      currency: 'USDT',
      amount: parsed.units,
      from: book ? 'simulator_funding' : 'deposits_clearing',
      to,
      ...(book ? { book } : {}),
    });
  }

  async function verify(token: string) {
    const submitted = await ok(
      'user/real_name',
      { country: 'DE', name: 'Test Trader', id_number: 'T0000001', address: 'Street 1', consent: '1' },
      token,
    );
    const review = await approveVerification(t.db, submitted.id, { operator: 'test' });
    if (!review.ok) throw new Error(review.problem);
  }

  async function user(inviteCode?: string, verified = false) {
    const s = await t.registerByEmail(uniqueEmail('ref'), 'secret1', inviteCode ? { invite_code: inviteCode } : {});
    if (verified) await verify(s.token);
    return { token: s.token, id: s.user.id, username: s.user.username, code: s.user.invite_code };
  }

  async function usdt(userId: number) {
    const row = (await ledger.balances(userId)).find((b) => b.type === 'coin' && b.currency === 'USDT');
    return row?.balance ?? 0;
  }

  /** A lever opening fee as the lever module files it (lever/settle.ts), from the contract account to `fees`. */
  let leverIds = 900_000;
  async function leverFee(userId: number, units: number, book: 'real' | 'simulator' = 'real') {
    await fund(userId, '1000', 'contract', book === 'simulator' ? 'simulator' : undefined);
    const id = ++leverIds;
    const receipt = await ledger.debit({
      userId,
      requestId: leverLedgerIds.fee(id),
      kind: 'fee',
      book,
      currency: 'USDT',
      amount: units,
      from: 'contract',
      to: 'fees',
    });
    return feePostingOf(receipt.entryId);
  }

  async function feePostingOf(entryId: number): Promise<number> {
    const row = await withLedger(t.db)
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select('p.id')
      .where('p.entry_id', '=', entryId)
      .where('a.type', '=', 'fees')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function rebateRow(postingId: number) {
    return withReferral(t.db)
      .selectFrom('referral_rebates')
      .selectAll()
      .where('fee_posting_id', '=', postingId)
      .executeTakeFirst();
  }

  async function auditActions() {
    return (await t.db.selectFrom('ops_audit').select('action').orderBy('id').execute()).map((r) => r.action);
  }

  const ops = async (...words: string[]) => {
    const lines: string[] = [];
    const code = await runOps(words, t.db, (l) => lines.push(l));
    return { code, lines };
  };

  function tick() {
    t.clock.advance(1_000);
    marketTime += 1_000;
    sim.advanceTo(Math.max(marketTime, t.clock.now()));
  }

  let requests = 0;
  async function spotTrade(token: string, side: 'buy' | 'sell') {
    const placed = await ok(
      'coin/trade',
      { symbol: 'BTC', side, type: 'market', qty: '0.01', request_id: `ref-${++requests}-${kind}` },
      token,
    );
    let order: SpotOrder | undefined;
    await vi.waitFor(
      async () => {
        tick();
        const history = await ok('coin/trade/list', { list: 'history' }, token);
        order = history.orders.find((o) => o.id === placed.id);
        expect(order?.state).toBe('completed');
      },
      { timeout: 15_000, interval: 100 },
    );
    if (!order) throw new Error('unreachable');
    return order;
  }

  it('names the trading-fee entries by the request ids the trading modules really use', () => {
    const prefixes = TRADING_FEE_ENTRIES.map(([p]) => p);
    for (const id of [
      spotLedgerIds.fillHold(7),
      spotLedgerIds.fillLegs(7),
      leverLedgerIds.fee(7),
      leverLedgerIds.close(7),
    ]) {
      expect(
        prefixes.some((p) => id.startsWith(p)),
        id,
      ).toBe(true);
    }
    for (const id of [
      spotLedgerIds.hold('x'),
      spotLedgerIds.release(7),
      leverLedgerIds.margin(7, 1),
      'withdrawal:7:post',
    ]) {
      expect(
        prefixes.some((p) => id.startsWith(p)),
        id,
      ).toBe(false);
    }
  });

  it("shows a user's own code, link, invitees (masked, paged) and the share in force", async () => {
    const a = await user();
    const b = await user(a.code, true);
    const c = await user(a.code, true);
    const d = await user(a.code);
    const info = await ok('user/invite', {}, a.token);
    expect(info).toEqual({
      invite_code: a.code,
      link_path: `/pages/user/register?invite=${a.code}`,
      invitees: 3,
      verified_invitees: 2,
      share: { ratio: '0.2000', bonus: '0.0000', default_ratio: '0.2000' },
      partner: null,
    });
    expect(await ok('user/my_share', {}, a.token)).toEqual({ invite_code: a.code, link_path: inviteLinkPath(a.code) });
    const poster = await ok('user/my_poster', {}, a.token);
    expect(poster).toEqual({
      invite_code: a.code,
      link_path: inviteLinkPath(a.code),
      display_name: maskedName(a.username),
    });
    expect(poster.display_name).not.toBe(a.username);

    const first = await ok('user/my_invite_list', { limit: '2' }, a.token);
    expect(first.items.map((i) => i.id)).toEqual([d.id, c.id]);
    expect(first.items.map((i) => i.verified)).toEqual([false, true]);
    for (const item of first.items) expect(item.name).toMatch(/\*\*\*/);
    expect(first.items[0]?.name).toBe(maskedName(d.username));
    expect(first.next_before_id).toBe(c.id);
    const second = await ok('user/my_invite_list', { limit: '2', before_id: String(c.id) }, a.token);
    expect(second.items.map((i) => [i.id, i.verified])).toEqual([[b.id, true]]);
    expect(second.next_before_id).toBeNull();

    // An invitee sees their own (empty) lists, never their referrer's.
    expect(await ok('user/invite', {}, b.token)).toMatchObject({
      invitees: 0,
      verified_invitees: 0,
      invite_code: b.code,
    });
    expect((await ok('user/my_invite_list', {}, b.token)).items).toEqual([]);
    // Without a session the own-data calls are refused.
    for (const path of ['user/invite', 'user/my_invite_list', 'user/my_account_return', 'user/my_poster'] as const) {
      const { body } = await t.call(path, {});
      expect(body.type).not.toBe('ok');
    }
  });

  it('ranks the top 10 by verified invitees only, names masked, equal counts by earlier registration', async () => {
    const top = await user();
    for (let i = 0; i < 4; i++) await user(top.code, true);
    await user(top.code);
    const tied = await user();
    const tiedLater = await user();
    for (const r of [tied, tiedLater]) {
      await user(r.code, true);
      await user(r.code, true);
      await user(r.code, true);
    }
    const unverifiedOnly = await user();
    await user(unverifiedOnly.code);
    await user(unverifiedOnly.code);
    const board = await ok('user/invite_list', {});
    expect(board.items.length).toBeLessThanOrEqual(10);
    expect(board.items.map((i) => i.rank)).toEqual(board.items.map((_, k) => k + 1));
    const counts = board.items.map((i) => i.verified_invitees);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    expect(counts.every((n) => n > 0)).toBe(true);
    const names = board.items.map((i) => i.name);
    expect(names.slice(0, 3)).toEqual([
      maskedName(top.username),
      maskedName(tied.username),
      maskedName(tiedLater.username),
    ]);
    expect(board.items.slice(0, 3).map((i) => i.verified_invitees)).toEqual([4, 3, 3]);
    expect(names).not.toContain(maskedName(unverifiedOnly.username));
    for (const u of [top, tied, tiedLater]) expect(names).not.toContain(u.username);
  });

  it('pays the referrer 20% of each real spot fee once, from the fee account, and lists it', async () => {
    const a = await user();
    const b = await user(a.code);
    await fund(b.id, '1000');
    const before = await usdt(a.id);
    const bought = await spotTrade(b.token, 'buy');
    const sold = await spotTrade(b.token, 'sell');
    const fees = [bought, sold].map((o) => parseAmount('USDT', o.fill?.fee ?? '0'));
    const units = fees.map((f) => (f.ok ? BigInt(f.units) : 0n));
    expect(units.every((f) => f > 0n)).toBe(true);
    await rebate();
    const expected = units.reduce((sum, f) => sum + rebateSplit(f, 2000n).referrer, 0n);
    expect(await usdt(a.id)).toBe(before + Number(expected));
    // A second round (and the job's next) pays nothing more.
    await rebate();
    await rebate();
    expect(await usdt(a.id)).toBe(before + Number(expected));

    const rows = await withReferral(t.db)
      .selectFrom('referral_rebates')
      .selectAll()
      .where('payer_id', '=', b.id)
      .orderBy('id')
      .execute();
    expect(
      rows.map((r) => [r.source, r.referrer_id, Number(r.fee), r.ratio_bp, r.bonus_bp, Number(r.invitee_amount)]),
    ).toEqual(units.map((f) => ['spot', a.id, Number(f), 2000, 0, 0]));
    const entries = await withLedger(t.db)
      .selectFrom('ledger_entries')
      .select(['user_id', 'request_id', 'kind'])
      .where(
        'request_id',
        'in',
        rows.map((r) => referralLedgerIds.referrer(Number(r.fee_posting_id))),
      )
      .execute();
    expect(entries.map((e) => [e.user_id, e.kind])).toEqual(rows.map(() => [a.id, 'rebate']));

    const mine = await ok('user/my_account_return', {}, a.token);
    expect(mine.totals).toEqual([{ currency: 'USDT', amount: formatAmount('USDT', expected) }]);
    expect(mine.items.map((i) => [i.role, i.source, i.invitee, i.fee_posting_id])).toEqual(
      [...rows].reverse().map((r) => ['referral', 'spot', maskedName(b.username), Number(r.fee_posting_id)]),
    );
    // The invitee earns nothing from a non-partner's referral, and sees none of the referrer's rebates.
    expect(await ok('user/my_account_return', {}, b.token)).toEqual({ totals: [], items: [], next_before_id: null });
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('partners: granted by an audited command, bonus set by the partner within its ratio, both paid', async () => {
    const a = await user();
    const b = await user(a.code);
    const outsider = await user();
    const granted = await ops('partners', 'grant', String(a.id), '30%');
    expect(granted.code, granted.lines.join('\n')).toBe(0);
    expect((await auditActions()).at(-1)).toBe('referral_partner.grant');
    const info = await ok('user/invite', {}, a.token);
    expect(info.partner).toMatchObject({ status: 'active', ratio: '0.3000', bonus: '0.0000' });
    expect(info.partner?.auth_code).toMatch(/^P[A-Z2-9]{9}$/);
    expect(info.share).toMatchObject({ ratio: '0.3000', bonus: '0.0000' });
    expect((await ops('partners', 'grant', String(a.id), '10%')).code).toBe(1);

    await refused('bonus/setBonus', { bonus: '0.31' }, a.token, 'referralBonusAboveRatio', 'bonus');
    await refused('bonus/setBonus', { bonus: 'abc' }, a.token, 'referralRatioInvalid', 'bonus');
    await refused('bonus/setBonus', { bonus: '0.12345' }, a.token, 'referralRatioInvalid', 'bonus');
    await refused('bonus/setBonus', { bonus: '0.1' }, outsider.token, 'referralNotPartner');
    await refused('bonus/setBonus', { bonus: '0.1' }, b.token, 'referralNotPartner');
    expect((await ok('user/invite', {}, a.token)).partner?.bonus).toBe('0.0000');
    const set = await ok('bonus/setBonus', { bonus: '0.1' }, a.token);
    expect(set).toMatchObject({ status: 'active', ratio: '0.3000', bonus: '0.1000' });

    const [aBefore, bBefore] = [await usdt(a.id), await usdt(b.id)];
    const posting = await leverFee(b.id, 1_234_567);
    await rebate();
    // 30% of 1.234567 = 0.370370; 10% = 0.123456 to the invitee; the partner keeps 0.246914.
    expect(await rebateRow(posting)).toMatchObject({ source: 'lever', ratio_bp: 3000, bonus_bp: 1000 });
    expect(await usdt(a.id)).toBe(aBefore + 246_914);
    expect(await usdt(b.id)).toBe(bBefore + 123_456);
    const bonus = await ok('user/my_account_return', {}, b.token);
    expect(bonus.items).toMatchObject([
      { role: 'bonus', amount: '0.123456', source: 'lever', fee_posting_id: posting },
    ]);

    // Lowering the ratio below the bonus lowers the bonus; revoking returns to the default share.
    expect((await ops('partners', 'ratio', String(a.id), '0.05')).code).toBe(0);
    expect((await ok('user/invite', {}, a.token)).partner).toMatchObject({ ratio: '0.0500', bonus: '0.0500' });
    expect((await ops('partners', 'revoke', a.username)).code).toBe(0);
    expect((await ok('user/invite', {}, a.token)).partner?.status).toBe('revoked');
    await refused('bonus/setBonus', { bonus: '0' }, a.token, 'referralNotPartner');
    const later = await leverFee(b.id, 1_000_000);
    await rebate();
    expect(await rebateRow(later)).toMatchObject({ ratio_bp: 2000, bonus_bp: 0, referrer_amount: 200_000 });
    const listed = await ops('partners', 'list');
    expect(listed.lines.some((l) => l.includes(a.username) && l.includes('revoked'))).toBe(true);
    expect((await auditActions()).slice(-2)).toEqual(['referral_partner.ratio', 'referral_partner.revoke']);
  });

  it('never pays more than ratio × fee, whatever the ratios and bonuses (many fees)', async () => {
    const a = await user();
    const b = await user(a.code);
    expect((await ops('partners', 'grant', String(a.id), '0.5')).code).toBe(0);
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const postings: number[] = [];
    for (let i = 0; i < 30; i++) {
      const ratio = random(5001);
      const bonus = random(ratio + 1);
      expect((await ops('partners', 'ratio', String(a.id), formatRatio(BigInt(ratio)))).code).toBe(0);
      await ok('bonus/setBonus', { bonus: formatRatio(BigInt(bonus)) }, a.token);
      postings.push(await leverFee(b.id, 1 + random(50_000_000)));
      await rebate();
    }
    for (const posting of postings) {
      const row = await rebateRow(posting);
      if (!row) throw new Error(`no rebate of ${posting}`);
      const split = rebateSplit(BigInt(row.fee), BigInt(row.ratio_bp), BigInt(row.bonus_bp));
      expect([BigInt(row.referrer_amount), BigInt(row.invitee_amount)]).toEqual([split.referrer, split.invitee]);
      expect(
        (BigInt(row.referrer_amount) + BigInt(row.invitee_amount)) * 10_000n <= BigInt(row.fee) * BigInt(row.ratio_bp),
      ).toBe(true);
    }
    // Every rebate entry moved exactly its row's amounts out of the fee account.
    const rows = await withReferral(t.db).selectFrom('referral_rebates').selectAll().execute();
    const paid = rows.reduce((sum, r) => sum + Number(r.referrer_amount) + Number(r.invitee_amount), 0);
    const credited = await withLedger(t.db)
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select((eb) => eb.fn.sum<number | string>('p.amount').as('n'))
      .where('e.kind', '=', 'rebate')
      .where('a.type', '=', 'coin')
      .executeTakeFirstOrThrow();
    expect(Number(credited.n)).toBe(paid);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('pays nothing on simulator fees, withdrawal fees or fees of users without a referrer', async () => {
    const a = await user();
    const b = await user(a.code);
    const loner = await user();
    const simulated = await leverFee(b.id, 5_000_000, 'simulator');
    const unreferred = await leverFee(loner.id, 5_000_000);
    // A withdrawal fee as the funding module files it: another request id, not a trading fee.
    await fund(b.id, '10');
    const withdrawal = await ledger.debit({
      userId: b.id,
      requestId: 'withdrawal:999:post',
      kind: 'fee',
      currency: 'USDT',
      amount: 1_000_000,
      from: 'coin',
      to: 'fees',
    });
    const before = await usdt(a.id);
    await rebate();
    expect(await rebateRow(simulated)).toBeUndefined();
    expect(await rebateRow(unreferred)).toBeUndefined();
    expect(await rebateRow(await feePostingOf(withdrawal.entryId))).toBeUndefined();
    expect(await usdt(a.id)).toBe(before);
    expect((await ok('user/my_account_return', {}, a.token)).items).toEqual([]);
  });

  it('pays nothing on fees posted before rebates began (the starting point the migration set)', async () => {
    // The migration recorded the last posting before rebates began; an empty ledger gave 0 (none skipped).
    const start = await t.db
      .selectFrom('platform_settings')
      .select('value')
      .where('key', '=', REBATES_AFTER_KEY)
      .executeTakeFirstOrThrow();
    expect(start.value).toMatch(/^\d+$/);
    const a = await user();
    const b = await user(a.code);
    const before = await leverFee(b.id, 4_000_000);
    // As if this fee had been posted before the release: the starting point moves past it.
    await t.db
      .updateTable('platform_settings')
      .set({ value: String(before) })
      .where('key', '=', REBATES_AFTER_KEY)
      .execute();
    const after = await leverFee(b.id, 4_000_000);
    await rebate();
    expect(await rebateRow(before)).toBeUndefined();
    expect((await rebateRow(after))?.fee_posting_id).toBe(after);
  });

  it('changes the default share by an audited command; refuses a share out of range', async () => {
    expect((await ops('referral', 'share', 'set', '60%')).code).toBe(1);
    expect((await ops('referral', 'share', 'set', 'lots')).code).toBe(1);
    expect(await defaultShare(t.db)).toBe(2000n);
    const set = await ops('referral', 'share', 'set', '25%');
    expect(set.code, set.lines.join('\n')).toBe(0);
    expect((await auditActions()).at(-1)).toBe('referral_share.set');
    const shown = await ops('referral', 'share');
    expect(shown.lines[0]).toContain('25%');
    const a = await user();
    const b = await user(a.code);
    expect((await ok('user/invite', {}, a.token)).share).toEqual({
      ratio: '0.2500',
      bonus: '0.0000',
      default_ratio: '0.2500',
    });
    const posting = await leverFee(b.id, 1_000_000);
    const round = await ops('referral', 'rebates');
    expect(round.code).toBe(0);
    expect(await rebateRow(posting)).toMatchObject({ ratio_bp: 2500, referrer_amount: 250_000 });
    expect((await ops('referral', 'share', 'set', String(formatRatio(parseRatio('0.2') ?? 0n)))).code).toBe(0);
    expect((await ops('partners', 'grant', 'nobody-here', '10%')).code).toBe(1);
    expect((await ops('partners', 'frobnicate')).code).toBe(2);
  });

  it('refuses junk paging input in the envelope and changes nothing', async () => {
    const a = await user();
    const junk: Record<string, string>[] = [
      { limit: '0' },
      { limit: 'abc' },
      { limit: '1000' },
      { before_id: '-1' },
      { before_id: 'x' },
    ];
    for (const fields of junk) {
      await refused('user/my_invite_list', fields, a.token, 'invalidInput');
      await refused('user/my_account_return', fields, a.token, 'invalidInput');
    }
    const { status, body } = await t.call('bonus/setBonus', {}, { token: a.token, lang: 'de' });
    expect(status).toBeLessThan(500);
    expect(body.type).not.toBe('ok');
    expect(body.message).toBeTruthy();
  });
});
