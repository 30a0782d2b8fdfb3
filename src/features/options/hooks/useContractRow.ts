import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { serverNow } from '../../../../core/clock';
import { newRequestId } from '../../../../core/ids';
import { contractView, optionContractMachine } from '../../../../machines/options/contract.machine';
import type { OptionContract } from '../../../../protocol/options';
import { traceActor } from '../../../app/actor-traces';

/**
 * One running contract's machine: the same lifecycle as the ticket's, started in the contract's state, so its row
 * counts down on server time and turns to "settling" at E until the server posts the result. Every newer copy the
 * list holds (the merged contracts stream) is fed to it, and the page's price gate too: its drawing ("show order
 * flow") marks the price region as the ticket's does.
 */
export function useContractRow(contract: OptionContract, now: number, fresh: boolean) {
  const [snapshot, send] = useMachine(optionContractMachine, {
    input: { makeId: newRequestId, serverNow, contract },
    inspect: traceActor('option-contract', (c: { contract: { id: number } | null }) => c.contract?.id),
  });
  useEffect(() => {
    send({ type: 'CONTRACT_UPDATE', contract });
  }, [contract, send]);
  useEffect(() => {
    send({ type: fresh ? 'PRICES_FRESH' : 'PRICES_STALE' });
  }, [fresh, send]);
  return { ...contractView(snapshot, now), snapshot };
}
