import { describe, expect, it } from 'vitest';
import { deviceOf } from './devices';

describe('deviceOf', () => {
  it('names browser with its major version, system and kind from the User-Agent', () => {
    expect(
      deviceOf(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome 156', os: 'Android', mobile: true });
    expect(
      deviceOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari 18', os: 'iOS', mobile: true });
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toEqual({
      browser: 'Firefox 133',
      os: 'Windows',
      mobile: false,
    });
  });

  it('says nothing it cannot read', () => {
    expect(deviceOf(null)).toEqual({ browser: null, os: null, mobile: false });
    expect(deviceOf('')).toEqual({ browser: null, os: null, mobile: false });
    expect(deviceOf('curl/8.5.0')).toMatchObject({ mobile: false });
  });
});
