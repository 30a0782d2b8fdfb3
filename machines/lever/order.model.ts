import { type LeverPhase, type LeverPosition, STATUS_OF_PHASE } from '../../protocol/lever';
import type { MachineWalks } from '../model';
import type {
  LeverCallResult,
  LeverOrderDraft,
  LeverOrderEvent,
  LeverOrderSnapshot,
  leverOrderMachine,
} from './order.machine';

/**
 * The lever order machine's model: the server's positions and answers the model-based test sends
 * (order.machine.test.ts), and the walks it takes through the machine with them. The QA view lists the same walks
 * (machines/registry.ts), so the paths QA reads are the paths the test replays.
 */

export const draft: LeverOrderDraft = {
  symbol: 'BTC',
  side: 'long',
  type: 'limit',
  margin_mode: 'isolated',
  lots: '2',
  leverage: '10',
  price: '50000',
  account: 'simulator',
};

const tick = (seq: number, price: string) => ({ symbol: 'BTC', seq, ts: seq * 100, price });

/** A position as the server would send it in `phase`; the model's server times follow the lifecycle. */
export const position = (phase: LeverPhase, updatedAt: number, extra: Partial<LeverPosition> = {}): LeverPosition => {
  const opened = phase === 'holding' || phase === 'closing' || phase === 'closed';
  return {
    id: 7,
    order_no: 'L000007',
    symbol: 'BTC',
    direction: 'long',
    type: 'limit',
    margin_mode: 'isolated',
    account_type: 'simulator',
    status: STATUS_OF_PHASE[phase],
    phase,
    lots: 2,
    quantity: '0.02',
    contract_size: '0.01',
    leverage: 10,
    mmr: '0.005',
    fee_rate: '0.0005',
    limit_price: '50000',
    entry_price: opened ? '50000' : null,
    close_offset_price: null,
    profit_take_price: null,
    stop_loss_price: null,
    initial_margin: opened ? '100' : null,
    additional_margin: '0',
    amount: opened ? '1000' : null,
    commission: opened ? '0.5' : '0',
    open_fee: opened ? '0.5' : null,
    close_fee: null,
    Liquidation_Price: opened ? '45226.13' : null,
    Liquidation_Time: null,
    floating_profit_or_loss: phase === 'holding' ? '0' : null,
    unrealized_pnl_percent: phase === 'holding' ? '0' : null,
    realized_pnl: null,
    realized_pnl_percent: null,
    total_profit_or_loss: null,
    insurance: null,
    close_reason: null,
    cancel_reason: null,
    entry: opened ? tick(40, '50000') : null,
    exit: null,
    mark: opened ? tick(41, '50000') : null,
    open_position_time: opened ? 4_000 : null,
    time_to_close_position: null,
    // The model's request id is one constant (MODEL_ID); updates match by position id once the submission answered.
    request_id: 'req-1',
    created_at: 1_000,
    updated_at: updatedAt,
    ...extra,
  };
};

export const closedBy = (
  reason: LeverPosition['close_reason'],
  updatedAt = 7_000,
  extra: Partial<LeverPosition> = {},
) =>
  position('closed', updatedAt, {
    close_reason: reason,
    exit: tick(60, '51000'),
    close_offset_price: '51000',
    realized_pnl: '20',
    commission: '1',
    close_fee: '0.5',
    total_profit_or_loss: '19',
    time_to_close_position: 6_900,
    ...extra,
  });

export const liquidatedAt = (updatedAt = 7_000) =>
  closedBy('liquidation', updatedAt, {
    exit: tick(61, '45200'),
    close_offset_price: '45200',
    realized_pnl: '-96',
    commission: '0.5',
    close_fee: '0',
    total_profit_or_loss: '-96.7',
    insurance: '0.2',
    Liquidation_Time: 6_950,
  });

export const done = (actor: string, output: LeverCallResult) =>
  ({ type: `xstate.done.actor.${actor}`, output }) as const;
const broke = (actor: string) => ({ type: `xstate.error.actor.${actor}`, error: new Error('offline') }) as const;
const refused = (message: string, field?: string) =>
  ({ ok: false, message, answered: true, ...(field ? { field } : {}) }) as const;

/**
 * The events the model may take. Done and error events of the invoked calls stand for the server's answers; the
 * server times follow the lifecycle (waiting 1 s, pending 2 s, cancelled 3 s, holding 4 s, …), so a copy from an
 * earlier phase is late news wherever the walk is.
 */
export const EVENTS = {
  submit: { type: 'SUBMIT', draft },
  review: { type: 'REVIEW', draft },
  confirm: { type: 'CONFIRM' },
  back: { type: 'BACK' },
  accepted: done('submitOrder', { ok: true, position: position('waiting', 1_000) }),
  refused: done('submitOrder', refused('Insufficient balance', 'lots')),
  verify: done('submitOrder', { ...refused('Account not authenticated'), reason: 'verificationRequired' }),
  lost: broke('submitOrder'),
  dismiss: { type: 'DISMISS' },
  rests: { type: 'POSITION', position: position('pending', 2_000) },
  noTick: { type: 'POSITION', position: position('cancelled', 3_000, { cancel_reason: 'no_tick' }) },
  opened: { type: 'POSITION', position: position('holding', 4_000) },
  markMoved: { type: 'POSITION', position: position('holding', 5_000, { floating_profit_or_loss: '4' }) },
  closeStarted: { type: 'POSITION', position: position('closing', 6_000) },
  closedByUser: { type: 'POSITION', position: closedBy('user') },
  takeProfit: { type: 'POSITION', position: closedBy('take_profit') },
  liquidation: { type: 'POSITION', position: liquidatedAt() },
  cancel: { type: 'CANCEL' },
  cancelled: done('cancelOrder', { ok: true, position: position('cancelled', 3_000, { cancel_reason: 'user' }) }),
  cancelRefused: done('cancelOrder', refused('This order can no longer be cancelled')),
  cancelLost: broke('cancelOrder'),
  close: { type: 'CLOSE' },
  reviewClose: { type: 'REVIEW_CLOSE' },
  closeAccepted: done('closePosition', { ok: true, position: position('closing', 6_000) }),
  closeRefused: done('closePosition', refused('This position can no longer be closed')),
  closeLost: broke('closePosition'),
  reviewReverse: { type: 'REVIEW_REVERSE' },
  reverseAccepted: done('reversePosition', { ok: true, position: position('closing', 6_000, { reverse: true }) }),
  reverseRefused: done('reversePosition', refused('This position can no longer be closed')),
  reverseLost: broke('reversePosition'),
  setStop: { type: 'SET_STOP', stops: { take_profit: '52000', stop_loss: '48000' } },
  stopSet: done('setStops', {
    ok: true,
    position: position('holding', 5_000, { profit_take_price: '52000', stop_loss_price: '48000' }),
  }),
  stopRefused: done('setStops', refused('The stop-loss must be above the liquidation price', 'stop_loss')),
  stopLost: broke('setStops'),
  addMargin: { type: 'ADD_MARGIN', amount: '50' },
  marginAdded: done('addMargin', {
    ok: true,
    position: position('holding', 5_000, { additional_margin: '50', Liquidation_Price: '42964.82' }),
  }),
  marginRefused: done('addMargin', refused('Insufficient balance', 'amount')),
  marginLost: broke('addMargin'),
  newOrder: { type: 'NEW_ORDER' },
  stale: { type: 'PRICES_STALE' },
  fresh: { type: 'PRICES_FRESH' },
} as const;

export type ModelEvent = LeverOrderEvent | (typeof EVENTS)[keyof typeof EVENTS];

/**
 * The walk's events as the path generators type them (EventFromLogic, the machine's declared LeverOrderEvent). The
 * done and error events of the invoked calls reach the machine too (XState sends them when a call settles), but they
 * are not among the events it declares, so the list is narrowed here, in one place, to the declared type.
 */
const asMachineEvents = (events: readonly ModelEvent[]) => events as readonly LeverOrderEvent[];

/**
 * The model's request id is always `req-1` (the positions it sends carry it): the walk and each replay then agree on
 * which updates are news of the submission. Ids across retries are tested on their own (order.machine.test.ts).
 */
export const MODEL_ID = () => 'req-1';

/**
 * A node of the walk: the state and the phase of the position held. The phase decides where an answer or a failure
 * goes (cancelling returns to waiting or pending), so two nodes with one state value but different phases must not
 * be merged, or a path would be stitched from steps that do not follow each other. Both are finite, so the walk ends.
 */
export const nodeKey = (snapshot: LeverOrderSnapshot) =>
  JSON.stringify({ ...(snapshot.value as object), phase: snapshot.context.position?.phase ?? null });

// createTestModel refuses machines that invoke; the path generators (getShortestPaths, getSimplePaths) walk the same
// graph without that check, so each walk is their traversal options.
export const leverOrderWalks = {
  /** Every event in every node, the price gate included: the shortest paths reach each state in both price states. */
  shortest: {
    input: { makeId: MODEL_ID },
    events: asMachineEvents(Object.values(EVENTS)),
    serializeState: nodeKey,
  },
  /**
   * The simple paths walk the lifecycle with prices going fresh once and staying so: with the gate toggling at every
   * step they run to hundreds of thousands. The gate is walked by the shortest paths (every node in both price
   * states) and by the focused tests.
   */
  lifecycle: {
    input: { makeId: MODEL_ID },
    events: asMachineEvents(
      Object.entries(EVENTS)
        .filter(([name]) => name !== 'stale')
        .map(([, event]) => event),
    ),
    serializeState: nodeKey,
  },
} satisfies MachineWalks<typeof leverOrderMachine>;
