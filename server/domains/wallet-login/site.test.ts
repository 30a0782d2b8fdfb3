import { describe, expect, it } from 'vitest';
import { BusinessError } from '../../platform/errors';
import { walletSiteOf } from './site';

// Which site a wallet message may name: one of PUBLIC_ORIGIN's origins, or without it a loopback host.

describe('walletSiteOf', () => {
  it('names a loopback host as the request spelled it when no public origin is configured', () => {
    expect(walletSiteOf({ scheme: 'http', host: '127.0.0.1:8080' }, [])).toEqual({
      domain: '127.0.0.1:8080',
      uri: 'http://127.0.0.1:8080',
    });
    expect(walletSiteOf({ scheme: 'http', host: 'LOCALHOST:80' }, [])).toEqual({
      domain: 'localhost',
      uri: 'http://localhost',
    });
  });

  it('takes only the configured origins once there are any, scheme and port included', () => {
    const origins = ['https://trade.example.com', 'http://10.0.0.5:8080'];
    expect(walletSiteOf({ scheme: 'https', host: 'trade.example.com:443' }, origins)).toEqual({
      domain: 'trade.example.com',
      uri: 'https://trade.example.com',
    });
    expect(walletSiteOf({ scheme: 'http', host: '10.0.0.5:8080' }, origins).uri).toBe('http://10.0.0.5:8080');
    for (const site of [
      { scheme: 'http', host: 'trade.example.com' },
      { scheme: 'https', host: 'trade.example.com:8443' },
      { scheme: 'http', host: '127.0.0.1:8080' },
      { scheme: 'https', host: 'evil.example' },
    ]) {
      expect(() => walletSiteOf(site, origins), JSON.stringify(site)).toThrow(BusinessError);
    }
  });

  it('refuses other hosts, a broken Host header and a request without one', () => {
    expect(() => walletSiteOf({ scheme: 'http', host: 'evil.example' }, [])).toThrow('walletSiteRefused');
    expect(() => walletSiteOf({ scheme: 'http', host: 'a b' }, [])).toThrow('walletSiteRefused');
    expect(() => walletSiteOf(undefined, [])).toThrow('walletSiteRefused');
  });
});
