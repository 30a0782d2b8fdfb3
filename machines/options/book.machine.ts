import { EMPTY } from 'rxjs';
import { type ActorRefFrom, enqueueActions, fromEventObservable, type SnapshotFrom, setup } from 'xstate';
import type { OptionAccount, OptionContract } from '../../protocol/options';
import { type LiveRow, rowChanges } from '../live-rows';
import { optionContractMachine } from './contract.machine';

/**
 * One option book as the page draws it, alive outside React (DESIGN "The data flow, one way"): the book's open
 * contracts come from the contracts stream, the price gate from the quotes' freshness, each contract change from the
 * stream's changes; the ticket and every open contract is a child contract machine (its countdown on server time),
 * spawned when its row appears, told each newer copy and the gate, and stopped when the contract leaves the open
 * list. The sources are named actors, provided by the live controller (machines/options/live.ts) or a test.
 */

export type OptionBookEvent =
  | { type: 'OPEN'; contracts: OptionContract[] }
  /** A contract changed (any book's): the ticket follows the contract it bought by request id. */
  | { type: 'CHANGE'; contract: OptionContract }
  | { type: 'PRICES_FRESH' }
  | { type: 'PRICES_STALE' };

export type OptionContractRef = ActorRefFrom<typeof optionContractMachine>;
type Row = LiveRow<OptionContract, OptionContractRef>;

export interface OptionBookContext {
  book: OptionAccount;
  makeId: () => string;
  serverNow: () => number;
  /** The book's open contracts, newest first; null until the stream's first list. */
  open: OptionContract[] | null;
  /** Stale until the feed proves itself (streams/freshness.ts). */
  fresh: boolean;
  ticket: OptionContractRef;
  rows: Readonly<Record<number, Row>>;
}

export interface OptionBookInput {
  book: OptionAccount;
  makeId: () => string;
  /** Server time (core/clock.ts serverNow): the only clock the contract machines read. */
  serverNow: () => number;
}

export interface BookSourceInput {
  book: OptionAccount;
}

export const optionBookMachine = setup({
  types: {} as { context: OptionBookContext; input: OptionBookInput; events: OptionBookEvent },
  actors: {
    contract: optionContractMachine,
    /** OPEN with the book's open contracts, as the contracts stream has them. */
    open: fromEventObservable<OptionBookEvent, BookSourceInput>(() => EMPTY),
    /** CHANGE for every contract change the stream tells once. */
    changes: fromEventObservable<OptionBookEvent, BookSourceInput>(() => EMPTY),
    /** PRICES_FRESH / PRICES_STALE from the quotes' freshness. */
    gate: fromEventObservable<OptionBookEvent, BookSourceInput>(() => EMPTY),
  },
  actions: {
    /** The gate is the book's and every machine's: purchases stop at once while prices are stale. */
    tellGate: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PRICES_FRESH' && event.type !== 'PRICES_STALE') return;
      enqueue.assign({ fresh: event.type === 'PRICES_FRESH' });
      enqueue.sendTo(context.ticket, { type: event.type });
      for (const row of Object.values(context.rows)) enqueue.sendTo(row.ref, { type: event.type });
    }),
  },
}).createMachine({
  id: 'optionBook',
  context: ({ input, spawn }) => ({
    book: input.book,
    makeId: input.makeId,
    serverNow: input.serverNow,
    open: null,
    fresh: false,
    ticket: spawn('contract', { id: 'ticket', input: { makeId: input.makeId, serverNow: input.serverNow } }),
    rows: {},
  }),
  invoke: [
    { src: 'open', input: ({ context }) => ({ book: context.book }) },
    { src: 'changes', input: ({ context }) => ({ book: context.book }) },
    { src: 'gate', input: ({ context }) => ({ book: context.book }) },
  ],
  on: {
    OPEN: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { gone, newer, added } = rowChanges(context.rows, event.contracts);
        for (const ref of gone) enqueue.stopChild(ref);
        for (const { ref, record } of newer) enqueue.sendTo(ref, { type: 'CONTRACT_UPDATE', contract: record });
        enqueue.assign(({ spawn }) => {
          const rows: Record<number, Row> = {};
          for (const contract of event.contracts) {
            const ref =
              context.rows[contract.id]?.ref ??
              spawn('contract', {
                id: `row-${contract.id}`,
                input: { makeId: context.makeId, serverNow: context.serverNow, contract },
              });
            rows[contract.id] = { ref, record: contract };
          }
          return { rows, open: event.contracts };
        });
        // A new row's machine starts stale, like the ticket; it learns the gate as the others did.
        if (context.fresh) {
          for (const contract of added) {
            enqueue.sendTo(({ context: now }) => (now.rows[contract.id] as Row).ref, { type: 'PRICES_FRESH' });
          }
        }
      }),
    },
    CHANGE: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.sendTo(context.ticket, { type: 'CONTRACT_UPDATE', contract: event.contract });
      }),
    },
    PRICES_FRESH: { actions: 'tellGate' },
    PRICES_STALE: { actions: 'tellGate' },
  },
});

export type OptionBookSnapshot = SnapshotFrom<typeof optionBookMachine>;
