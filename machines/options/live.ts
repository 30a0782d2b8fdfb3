import { distinctUntilChanged, map, type Observable } from 'rxjs';
import { type Actor, createActor, type InspectionEvent } from 'xstate';
import type { OptionAccount } from '../../protocol/options';
import type { ContractChange, ContractStream } from '../../streams/options/contracts';
import { bookSources } from '../live-book';
import { sameRecords } from '../live-rows';
import { optionBookMachine } from './book.machine';
import type { optionContractMachine } from './contract.machine';

/** What the live option book is made of: the app's streams and calls (or a test's subjects). */
export interface OptionLiveSources {
  /** The user's open contracts and their changes (streams/options/contracts.ts optionContracts). */
  contracts: Pick<ContractStream, 'open$' | 'changes$'>;
  /** Whether prices are fresh enough to trade (streams/freshness.ts tradingGate). */
  fresh$: Observable<boolean>;
  /** Each return of the socket after a drop: a submission left waiting asks again (streams/socket.ts). */
  reconnected$?: Observable<unknown>;
  /** The contract machine with the real purchase call. */
  contract: typeof optionContractMachine;
  makeId: () => string;
  serverNow: () => number;
  /** Told each contract change once, after the machines were: the page's refreshes. */
  onChange?: (change: ContractChange) => void;
  /** XState inspection of the whole book (the QA traces of its contract machines). */
  inspect?: (event: InspectionEvent) => void;
}

export interface OptionLive {
  readonly book: OptionAccount;
  readonly actor: Actor<typeof optionBookMachine>;
  stop(): void;
}

/**
 * Starts the live path of one option book outside React: the book machine with its sources. A page starts it when it
 * mounts, draws what it holds, and stops it when it leaves.
 */
export function startOptionLive(book: OptionAccount, sources: OptionLiveSources): OptionLive {
  const machine = optionBookMachine.provide({
    actors: {
      row: sources.contract,
      ticket: sources.contract,
      ...bookSources({
        list$: sources.contracts.open$.pipe(
          map((open) => open.filter((c) => c.account === book)),
          // The other book's changes leave this one's list as it was.
          distinctUntilChanged(sameRecords),
        ),
        changes$: sources.contracts.changes$,
        recordOf: (change) => (change.kind === 'contract' ? change.contract : null),
        onChange: sources.onChange,
        fresh$: sources.fresh$,
        reconnected$: sources.reconnected$,
      }),
    },
  });
  const actor = createActor(machine, {
    input: { book, makeId: sources.makeId, serverNow: sources.serverNow },
    ...(sources.inspect ? { inspect: sources.inspect } : {}),
  });
  actor.start();
  return { book, actor, stop: () => actor.stop() };
}
