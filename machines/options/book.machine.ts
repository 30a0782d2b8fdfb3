import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { OptionAccount, OptionContract } from '../../protocol/options';
import { type BookEvent, createBookMachine } from '../live-book';
import { optionContractMachine } from './contract.machine';

/**
 * One option book as the page draws it (machines/live-book.ts): its open contracts, newest first, from the contracts
 * stream, one contract machine per row (its countdown on server time), the ticket a contract machine too.
 */

/** LIST is the book's open contracts; CHANGE a contract change (any book's), which the ticket follows. */
export type OptionBookEvent = BookEvent<OptionContract[], OptionContract>;

export type OptionContractRef = ActorRefFrom<typeof optionContractMachine>;

export interface OptionBookInput {
  book: OptionAccount;
  makeId: () => string;
  /** Server time (core/clock.ts serverNow): the only clock the contract machines read. */
  serverNow: () => number;
}

export const optionBookMachine = createBookMachine({
  id: 'optionBook',
  listKey: 'open',
  row: optionContractMachine,
  records: (contracts: OptionContract[]) => contracts,
  ticketInput: (input: OptionBookInput) => ({ makeId: input.makeId, serverNow: input.serverNow }),
  rowInput: (input, contract) => ({ makeId: input.makeId, serverNow: input.serverNow, contract }),
  update: (contract) => ({ type: 'CONTRACT_UPDATE' as const, contract }),
});

export type OptionBookSnapshot = SnapshotFrom<typeof optionBookMachine>;
