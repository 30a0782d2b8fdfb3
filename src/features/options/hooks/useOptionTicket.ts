import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { submitOptionContract } from '../../../../core/api/options';
import { serverNow } from '../../../../core/clock';
import { newRequestId } from '../../../../core/ids';
import {
  type ContractView,
  contractView,
  optionContractMachine,
  type SubmitCallResult,
} from '../../../../machines/options/contract.machine';
import type { SubmitOptionRequest } from '../../../../protocol/options';
import type { TradingGate } from '../../../../streams/freshness';
import type { ContractStream } from '../../../../streams/options/contracts';
import { traceActor } from '../../../app/actor-traces';
import { keys } from '../../../data/keys';
import { optionKeys } from '../keys';

/**
 * The server answers a real-account purchase without verified identity with `optionVerifyRequired` (SPEC 8): the
 * envelope's reason, whatever the language of its message.
 */
async function submit(input: SubmitOptionRequest): Promise<SubmitCallResult> {
  const r = await submitOptionContract(input);
  if (!r.ok && r.answered && r.reason === 'optionVerifyRequired') return { ...r, verifyRequired: true };
  return r;
}

/**
 * The ticket's contract machine, fed by the app: the real call, the server clock, the user's contract updates (the
 * merged `options` stream) and the price gate (stale prices stop new contracts). Every contract change refreshes the
 * balances and the recent results.
 */
export function useOptionTicket(contracts: ContractStream, gate: TradingGate, now: number) {
  const client = useQueryClient();
  const machine = useMemo(
    () => optionContractMachine.provide({ actors: { submitContract: fromPromise(({ input }) => submit(input)) } }),
    [],
  );
  const [snapshot, send] = useMachine(machine, {
    input: { makeId: newRequestId, serverNow },
    inspect: traceActor('option-contract', (c: { contract: { id: number } | null }) => c.contract?.id),
  });

  useEffect(() => {
    send({ type: gate.allowed ? 'PRICES_FRESH' : 'PRICES_STALE' });
  }, [gate.allowed, send]);

  useEffect(() => {
    const sub = contracts.changes$.subscribe((change) => {
      if (change.kind === 'contract') send({ type: 'CONTRACT_UPDATE', contract: change.contract });
      // Stakes held, payouts and releases move balances; a settled contract belongs to the recent results now.
      void client.invalidateQueries({ queryKey: keys.assetLists });
      void client.invalidateQueries({ queryKey: optionKeys.practice });
      void client.invalidateQueries({ queryKey: [...optionKeys.all, 'settled'] });
    });
    return () => sub.unsubscribe();
  }, [contracts, send, client]);

  const view: ContractView = contractView(snapshot, now);
  return { view, send };
}
