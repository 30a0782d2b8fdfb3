import { z } from 'zod/mini';

/**
 * SPEC 9: the chains each coin moves on (USDT ERC20 or OMNI, USDC ERC20, BTC OMNI, ETH ERC20). Withdrawal
 * addresses, deposits and withdrawals all take their coin and chain from here (what an address on each chain looks
 * like is in chains.ts).
 */
export const CHAIN_COINS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
export type ChainCoin = (typeof CHAIN_COINS)[number];

export const CHAINS = ['ERC20', 'OMNI'] as const;
export type Chain = (typeof CHAINS)[number];

export const CHAINS_BY_COIN: Readonly<Record<ChainCoin, readonly Chain[]>> = {
  USDT: ['ERC20', 'OMNI'],
  USDC: ['ERC20'],
  BTC: ['OMNI'],
  ETH: ['ERC20'],
};

/** SPEC 3: the base coins' ids. */
export const COIN_IDS: Readonly<Record<ChainCoin, number>> = { BTC: 1, ETH: 2, USDT: 3, USDC: 4 };

export const isChainCoin = (v: string): v is ChainCoin => (CHAIN_COINS as readonly string[]).includes(v);
export const isChainOf = (coin: ChainCoin, chain: string): chain is Chain =>
  (CHAINS_BY_COIN[coin] as readonly string[]).includes(chain);

/** Coin and chain as form fields (message keys of the `errors` namespace), read case-insensitively. */
export const coinField = z.pipe(
  z.string({ error: 'coinInvalid' }).check(z.trim(), z.toUpperCase()),
  z.enum(CHAIN_COINS, { error: 'coinInvalid' }),
);
export const chainField = z.pipe(
  z.string({ error: 'chainInvalid' }).check(z.trim(), z.toUpperCase()),
  z.enum(CHAINS, { error: 'chainInvalid' }),
);
