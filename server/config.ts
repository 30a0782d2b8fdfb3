import path from 'node:path';

/** Everything the server reads from the environment, parsed once at start. */
export interface Config {
  port: number;
  host: string;
  /** Holds the embedded SQLite database (`app.db`) when no DATABASE_URL is given. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** When set, socket.io shares rooms across processes through Redis. */
  redisUrl: string | undefined;
  /** nodemailer connection URL; without it codes go to the `code_outbox` table. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Platform invite code to use instead of a random one. */
  inviteCode: string | undefined;
  logLevel: string;
  /**
   * TRUST_PROXY: behind a reverse proxy, whom to believe about the client's IP (X-Forwarded-For), so per-IP limits
   * see clients, not the proxy: a hop count ('1'), proxy addresses ('10.0.0.1, 10.0.0.0/8'), or 'true' for any.
   */
  trustProxy: boolean | number | string;
  /**
   * DATA_KEY: the key that encrypts bank card data at rest, 32 bytes as hex or base64 (checked where it is used,
   * domains/bank-cards/data-key.ts). Unset: the key file DATA_DIR/data.key, created on first start.
   */
  dataKey: string | undefined;
  /** PUBLIC_ORIGIN: comma-separated origins the app is served at (wallet login names them in its messages). */
  publicOrigins: string[];
  /** STATIC_DIR: the built client to serve (default `dist`), so a test run can serve a build of its own. */
  staticDir: string | undefined;
  /**
   * CLOCK_HOOK=1, for browser tests only: the server's clock and market are moved by the process that started it,
   * over its IPC channel (server/clock-hook/hook.ts).
   */
  clockHook: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Empty strings count as unset, so `FOO= npm start` behaves like leaving FOO out. */
const optional = (v: string | undefined): string | undefined => (v?.trim() ? v.trim() : undefined);

const resolved = (dir: string | undefined): string | undefined => (dir === undefined ? undefined : path.resolve(dir));

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(optional(env.PORT) ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0..65535, got ${env.PORT}`);
  const logLevel = optional(env.LOG_LEVEL) ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    port,
    host: optional(env.HOST) ?? '127.0.0.1',
    dataDir: path.resolve(optional(env.DATA_DIR) ?? 'data'),
    databaseUrl: optional(env.DATABASE_URL),
    redisUrl: optional(env.REDIS_URL),
    smtpUrl: optional(env.SMTP_URL),
    smtpFrom: optional(env.SMTP_FROM) ?? 'TradeWave <no-reply@localhost>',
    inviteCode: optional(env.INVITE_CODE),
    logLevel,
    trustProxy: readTrustProxy(optional(env.TRUST_PROXY)),
    dataKey: optional(env.DATA_KEY),
    publicOrigins: readPublicOrigins(optional(env.PUBLIC_ORIGIN)),
    staticDir: resolved(optional(env.STATIC_DIR)),
    clockHook: readFlag('CLOCK_HOOK', optional(env.CLOCK_HOOK)),
  };
}

/** A switch: `1` or `true` on, unset, `0` or `false` off; anything else is a mistake worth stopping for. */
function readFlag(name: string, raw: string | undefined): boolean {
  const value = raw?.toLowerCase();
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`${name} must be 1 or 0, got ${raw}`);
}

/** `https://trade.example.com, https://www.example.com` → the origins, each checked and spelled as the URL parser does. */
function readPublicOrigins(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw.split(',').map((part) => {
    const text = part.trim();
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username;
    if (!url || !bare || !['http:', 'https:'].includes(url.protocol)) {
      throw new Error(`PUBLIC_ORIGIN must list origins such as https://trade.example.com, got ${text}`);
    }
    return url.origin;
  });
}

function readTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (!/^[0-9a-fA-F.:/,\s]+$/.test(raw)) {
    throw new Error(`TRUST_PROXY must be a hop count, proxy addresses or true/false, got ${raw}`);
  }
  return raw;
}
