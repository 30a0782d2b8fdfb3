import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

describe('readConfig', () => {
  it('has defaults for everything', () => {
    expect(readConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      smtpUrl: undefined,
      smtpFrom: 'TradeWave <no-reply@localhost>',
      inviteCode: undefined,
      logLevel: 'info',
      trustProxy: false,
      publicOrigins: [],
      staticDir: undefined,
      clockHook: false,
    });
  });

  it('reads CLOCK_HOOK as a switch and refuses anything else', () => {
    expect(readConfig({ CLOCK_HOOK: '1' }).clockHook).toBe(true);
    expect(readConfig({ CLOCK_HOOK: '0' }).clockHook).toBe(false);
    expect(() => readConfig({ CLOCK_HOOK: 'yes' })).toThrow(/CLOCK_HOOK/);
  });

  it('reads STATIC_DIR as an absolute folder', () => {
    expect(readConfig({ STATIC_DIR: 'build/e2e' }).staticDir).toBe(path.resolve('build/e2e'));
    expect(readConfig({ STATIC_DIR: ' ' }).staticDir).toBeUndefined();
  });

  it('reads PUBLIC_ORIGIN as a list of origins and refuses anything else', () => {
    expect(readConfig({ PUBLIC_ORIGIN: 'https://Trade.example.com, http://localhost:8080/' }).publicOrigins).toEqual([
      'https://trade.example.com',
      'http://localhost:8080',
    ]);
    expect(() => readConfig({ PUBLIC_ORIGIN: 'trade.example.com' })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => readConfig({ PUBLIC_ORIGIN: 'https://trade.example.com/app' })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => readConfig({ PUBLIC_ORIGIN: 'ftp://trade.example.com' })).toThrow(/PUBLIC_ORIGIN/);
  });

  it('reads TRUST_PROXY as a hop count, addresses or a yes/no, and refuses anything else', () => {
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy).toBe('10.0.0.1, 10.0.0.0/8');
    expect(() => readConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('reads the environment; empty values count as unset', () => {
    const config = readConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/tw',
      DATABASE_URL: 'postgres://x@y/z',
      REDIS_URL: ' ',
      SMTP_URL: 'smtp://mail:25',
      SMTP_FROM: 'a@b.c',
      INVITE_CODE: 'WELCOME',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/tmp/tw',
      databaseUrl: 'postgres://x@y/z',
      redisUrl: undefined,
      smtpUrl: 'smtp://mail:25',
      smtpFrom: 'a@b.c',
      inviteCode: 'WELCOME',
      logLevel: 'warn',
    });
  });

  it('refuses nonsense', () => {
    expect(() => readConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => readConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
