import { z } from 'zod/mini';
import { decimalString } from './market';

/**
 * The simulator book (RULES "Simulator book"), shared by the option and lever simulators: real money and practice
 * funds live in separate books of the ledger and never cross.
 */

/** The book an order is placed on. */
export const TRADE_BOOKS = ['real', 'simulator'] as const;
export type TradeBook = (typeof TRADE_BOOKS)[number];

/** The practice funds granted on first use and restored by a reset. */
export const SIMULATOR_FUNDS = '10000' as const;
export const SIMULATOR_CURRENCY = 'USDT' as const;

/**
 * microtrade/simulator and lever/simulator (additions, for the simulator pages): the caller's available practice
 * funds, granted (SIMULATOR_FUNDS) on first use; the `/reset` calls put them back to SIMULATOR_FUNDS by a ledger entry.
 */
export const simulatorBalanceResponse = z.object({
  currency: z.literal(SIMULATOR_CURRENCY),
  balance: decimalString,
});
export type SimulatorBalance = z.infer<typeof simulatorBalanceResponse>;
