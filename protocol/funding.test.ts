import { describe, expect, it } from 'vitest';
import { canonicalHash, chargeRequest, isHashOnChain, isWholeAmount, withdrawRequest } from './funding';

describe('funding protocol', () => {
  it('tells transaction hashes per chain', () => {
    const hex = 'ab'.repeat(32);
    expect(isHashOnChain('ERC20', `0x${hex}`)).toBe(true);
    expect(isHashOnChain('ERC20', hex)).toBe(false);
    expect(isHashOnChain('ERC20', `0x${hex}0`)).toBe(false);
    expect(isHashOnChain('OMNI', hex)).toBe(true);
    expect(isHashOnChain('OMNI', `0x${hex}`)).toBe(false);
    expect(isHashOnChain('OMNI', `${hex.slice(1)}g`)).toBe(false);
    expect(canonicalHash(` 0x${hex.toUpperCase()} `)).toBe(`0x${hex}`);
  });

  it('takes whole amounts only for deposits', () => {
    expect(isWholeAmount('100')).toBe(true);
    expect(isWholeAmount('10.0')).toBe(false);
    expect(isWholeAmount('-1')).toBe(false);
    expect(isWholeAmount('1e3')).toBe(false);
  });

  it('checks a crypto deposit for coin, chain and hash, a bank deposit for the card', () => {
    const base = { amount: '10', proof: '5', request_id: 'x' };
    const issue = (fields: Record<string, string>) => {
      const r = chargeRequest.safeParse({ ...base, ...fields });
      return r.success ? null : r.error.issues[0]?.message;
    };
    expect(issue({ coin: 'usdt', chain: 'omni', hash: 'a'.repeat(64) })).toBeNull();
    expect(issue({ coin: 'BTC', chain: 'ERC20', hash: `0x${'a'.repeat(64)}` })).toBe('chainInvalid');
    expect(issue({ coin: 'USDT', chain: 'ERC20' })).toBe('depositHashRequired');
    expect(issue({ coin: 'USDT', chain: 'ERC20', hash: 'nope' })).toBe('depositHashInvalid');
    expect(issue({ method: 'bank' })).toBe('depositBankCardRequired');
    expect(issue({ method: 'bank', bank_card_id: '3' })).toBeNull();
    expect(issue({ method: 'bank', bank_card_id: '3', proof: '' })).toBe('depositProofRequired');
  });

  it('reads an empty address id as none and a blank remark as null', () => {
    const r = withdrawRequest.parse({
      coin: 'USDT',
      chain: 'ERC20',
      address_id: ' ',
      amount: '10',
      fund_password: '123456',
      remark: '  ',
      request_id: 'x',
    });
    expect(r.address_id).toBeUndefined();
    expect(r.remark).toBeNull();
  });
});
