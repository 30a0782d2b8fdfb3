import type { OptionContract } from '../../protocol/options';
import type { MachineWalks } from '../model';
import type { ContractDraft, ContractEvent, ContractSnapshot, optionContractMachine } from './contract.machine';

/**
 * The walks of the option contract machine's model-based tests (contract.machine.test.ts), and the fixtures they
 * send: the tests replay every path of these walks on a live actor, and the QA view (machines/registry.ts) lists the
 * same ones.
 */

export const draft: ContractDraft = {
  symbol: 'BTC',
  direction: 'up',
  seconds: '30',
  stake: '10',
  account: 'simulator',
};

/** The server's clock in the model: fixed, 10 s after the entry tick (20 s of the 30 s left). */
export const ENTRY_TS = 100_000;
export const SERVER_NOW = ENTRY_TS + 10_000;
export const EXPIRY = ENTRY_TS + 30_000;

export const contract = (state: OptionContract['state'], updatedAt: number, extra: Partial<OptionContract> = {}) =>
  ({
    id: 7,
    symbol: 'BTC',
    direction: 'up',
    seconds: 30,
    ratio: '0.80',
    currency: 'USDT',
    stake: '10',
    account: 'simulator',
    state,
    entry: state === 'waiting' || state === 'cancelled' ? null : { symbol: 'BTC', seq: 41, ts: ENTRY_TS, price: '100' },
    expiry_ts: state === 'waiting' || state === 'cancelled' ? null : EXPIRY,
    exit: null,
    payout: null,
    request_id: 'req-1',
    created_at: ENTRY_TS - 200,
    updated_at: updatedAt,
    settled_at: null,
    ...extra,
  }) satisfies OptionContract;

export const exitTick = { symbol: 'BTC', seq: 99, ts: EXPIRY - 100, price: '101' };

/** The delayed transition's event: what the timer delivers at E (the test delivers it like any other). */
export const EXPIRED = 'xstate.after.untilExpiry.optionContract.contract.running';

/** Request ids req-1, req-2, … (the app's newRequestId stands in for this). */
export function counter(): () => string {
  let n = 0;
  return () => `req-${++n}`;
}

const EVENTS = {
  submit: { type: 'SUBMIT', draft },
  accepted: { type: 'xstate.done.actor.submitContract', output: { ok: true, contract: contract('waiting', 1) } },
  refused: {
    type: 'xstate.done.actor.submitContract',
    output: { ok: false, message: 'Insufficient balance', field: 'stake', answered: true },
  },
  verify: {
    type: 'xstate.done.actor.submitContract',
    output: { ok: false, message: 'Account not authenticated', answered: true, reason: 'verificationRequired' },
  },
  lost: { type: 'xstate.error.actor.submitContract', error: new Error('offline') },
  dismiss: { type: 'DISMISS' },
  entered: { type: 'CONTRACT_UPDATE', contract: contract('running', 2) },
  expired: { type: EXPIRED },
  won: {
    type: 'CONTRACT_UPDATE',
    contract: contract('won', 3, { exit: exitTick, payout: '18', settled_at: EXPIRY + 500 }),
  },
  lostBet: {
    type: 'CONTRACT_UPDATE',
    contract: contract('lost', 3, { exit: { ...exitTick, price: '99' }, payout: '0', settled_at: EXPIRY + 500 }),
  },
  flat: {
    type: 'CONTRACT_UPDATE',
    contract: contract('flat', 3, { exit: { ...exitTick, price: '100' }, payout: '10', settled_at: EXPIRY + 500 }),
  },
  refunded: { type: 'CONTRACT_UPDATE', contract: contract('refunded', 3, { payout: '10', settled_at: EXPIRY + 500 }) },
  noTick: { type: 'CONTRACT_UPDATE', contract: contract('cancelled', 3, { payout: '10', settled_at: 11_000 }) },
  newContract: { type: 'NEW_CONTRACT' },
  stale: { type: 'PRICES_STALE' },
  fresh: { type: 'PRICES_FRESH' },
} as const;

/**
 * The model's events as the machine's event type. The cast is XState's: the machine reacts to its invoked call's
 * done and error events (`xstate.done.actor.submitContract`, …) and to its timer's event (EXPIRED), but its event
 * type lists only the events it declares (ContractEvent), so those cannot be typed as its events without it.
 */
const events = Object.values(EVENTS) as readonly ContractEvent[];

export const optionContractWalks = {
  /**
   * Every state of the contract in both price states, by the fewest events (the tests also walk its simple paths).
   * createTestModel refuses machines that invoke; the path generators walk the same graph without that check.
   * States are serialised by value, so the walk ends. The server clock is fixed at SERVER_NOW; the request-id
   * counter is made once with the walk and shared by every traversal of it, as when the test defined it inline.
   */
  shortest: {
    input: { makeId: counter(), serverNow: () => SERVER_NOW },
    events,
    serializeState: (snapshot: ContractSnapshot) => JSON.stringify(snapshot.value),
  },
} satisfies MachineWalks<typeof optionContractMachine>;
