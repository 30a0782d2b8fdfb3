import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../../server/app';
import { ensurePlatformInviteCode } from '../../server/domains/account/invite';
import { PasswordHasher, PRODUCTION_HASH_COST } from '../../server/domains/account/passwords';
import { migrateToLatest } from '../../server/migrations';
import { openSqlite } from '../../server/platform/db/connect';

/**
 * Account path costs on this machine, over real loopback HTTP with the production argon2 cost:
 * - a protected call (session lookup + user read) against a baseline call that touches no database;
 * - login (one argon2 verify) and the bare argon2 hash, which bounds logins per second per core.
 * Figures are printed as ratios to the baseline measured in the same run.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = 16;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-account-'));
const database = openSqlite(path.join(dir, 'app.db'));
await migrateToLatest(database);
await ensurePlatformInviteCode(database.db, 'BENCH');
const app = await buildApp({
  database,
  staticDir: false,
  limits: {
    codePerIp: { max: 1e9, windowMs: 3_600_000 },
    loginPerIp: { max: 1e9, windowMs: 3_600_000 },
  },
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });

async function api(call: string, fields: Record<string, string>, token?: string, method = 'POST') {
  const headers: Record<string, string> = { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' };
  if (token) headers.authorization = token;
  const body = new URLSearchParams(fields).toString();
  const res = await fetch(`${base}/api/${call}${method === 'GET' ? `?${body}` : ''}`, {
    method,
    headers,
    body: method === 'GET' ? undefined : body,
  });
  return (await res.json()) as { type: string | number; data?: unknown; message: string };
}

/** Runs `op` from CONCURRENCY loops for SECONDS; returns requests per second and latency percentiles in ms. */
async function load(op: () => Promise<unknown>) {
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { rps: latencies.length / SECONDS, p50: pct(0.5), p99: pct(0.99) };
}

const email = 'bench@example.com';
await api('email_send', { email, scene: 'register' });
const { rows } = await sql<{ code: string }>`select code from code_outbox where address = ${email}`.execute(
  database.db,
);
const registered = (await api('user/register', {
  type: 'email',
  email,
  code: rows[0]?.code ?? '',
  password: 'secret1',
  repassword: 'secret1',
  invite_code: 'BENCH',
  agree: '1',
})) as { data: { token: string } };
const token = registered.data.token;

/** Timing figures for the console (not money): a fixed number of fraction digits. */
const fig = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });

const line = (name: string, r: { rps: number; p50: number; p99: number }, baseline?: number) =>
  console.log(
    `${name.padEnd(34)} ${fig(r.rps, 0).padStart(7)} req/s  p50 ${fig(r.p50)} ms  p99 ${fig(r.p99)} ms` +
      (baseline ? `  (${fig(r.rps / baseline)}x baseline)` : ''),
  );

console.log(
  `loopback HTTP, ${CONCURRENCY} concurrent loops, ${SECONDS} s each, SQLite, argon2id m=${PRODUCTION_HASH_COST.memoryCost} t=${PRODUCTION_HASH_COST.timeCost}`,
);
const baseline = await load(() => api('get/lang', {}));
line('baseline get/lang (no database)', baseline);
line('user/center (session + user read)', await load(() => api('user/center', {}, token, 'GET')), baseline.rps);
line(
  'user/login (argon2 verify)',
  await load(() => api('user/login', { account: email, password: 'secret1' })),
  baseline.rps,
);

const hasher = new PasswordHasher(PRODUCTION_HASH_COST);
const t0 = performance.now();
const HASHES = 20;
for (let i = 0; i < HASHES; i++) await hasher.hash(`password-${i}`);
console.log(`argon2id hash, one at a time          ${fig((performance.now() - t0) / HASHES, 1)} ms each`);

await app.close();
await database.db.destroy();
fs.rmSync(dir, { recursive: true, force: true });
