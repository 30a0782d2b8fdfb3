import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { map } from 'rxjs';
import { submitOptionContract } from '../../../../core/api/options';
import { serverNow } from '../../../../core/clock';
import { newRequestId } from '../../../../core/ids';
import type { OptionContractRef } from '../../../../machines/options/book.machine';
import { contractView, optionContractMachine, submitContractWith } from '../../../../machines/options/contract.machine';
import { type OptionLive, startOptionLive } from '../../../../machines/options/live';
import type { OptionAccount } from '../../../../protocol/options';
import { tradingGate } from '../../../../streams/freshness';
import { coinQuotes } from '../../../../streams/market';
import { optionContracts } from '../../../../streams/options/contracts';
import { realtime } from '../../../../streams/socket';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { optionKeys } from '../keys';

/**
 * The contract machine with the real purchase call: the ticket and every row run this one. A refusal for a missing
 * verification is the submission machine's to recognise (reason `verificationRequired`), not the page's.
 */
const contractMachine = optionContractMachine.provide({
  actors: { submitContract: submitContractWith(submitOptionContract) },
});

/**
 * The book's live controller (machines/options/live.ts) with the app's streams and calls, started while the page
 * shows the book. Null before the first effect.
 */
export function useOptionLive(book: OptionAccount): OptionLive | null {
  const client = useQueryClient();
  const [live, setLive] = useState<OptionLive | null>(null);
  useEffect(() => {
    const started = startOptionLive(book, {
      contracts: optionContracts(),
      fresh$: tradingGate(coinQuotes().freshness).pipe(map((gate) => gate.allowed)),
      reconnected$: realtime().reconnected$,
      contract: contractMachine,
      makeId: newRequestId,
      serverNow,
      onChange: () => afterChange(client),
      inspect: traceActor(
        'option-contract',
        (c: { contract: { id: number } | null }) => c.contract?.id,
        'optionContract',
      ),
    });
    setLive(started);
    return () => started.stop();
  }, [book, client]);
  // Between a change of book and the effect that starts its controller, the stopped one of the old book is not drawn.
  return live?.book === book ? live : null;
}

/** Stakes held, payouts and releases move balances; a settled contract belongs to the recent results now. */
function afterChange(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: keys.assetLists });
  void client.invalidateQueries({ queryKey: optionKeys.practice });
  void client.invalidateQueries({ queryKey: [...optionKeys.all, 'settled'] });
}

/**
 * What one contract machine of the live book shows at server time `now` (the ticket's or a row's), and how to tell it
 * what the user did. The machine lives in the book, fed by the streams; the component draws it.
 */
export function useContractActor(ref: OptionContractRef, now: number) {
  const snapshot = useSelector(ref, (s) => s);
  return { view: contractView(snapshot, now), snapshot, send: ref.send };
}
