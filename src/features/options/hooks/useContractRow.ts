import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { serverNow } from '../../../../core/clock';
import { newRequestId } from '../../../../core/ids';
import { contractView, optionContractMachine } from '../../../../machines/options/contract.machine';
import type { OptionContract } from '../../../../protocol/options';

/**
 * One running contract's machine: the same lifecycle as the ticket's, started in the contract's state, so its row
 * counts down on server time and turns to "settling" at E until the server posts the result. Every newer copy the
 * list holds (the merged contracts stream) is fed to it.
 */
export function useContractRow(contract: OptionContract, now: number) {
  const [snapshot, send] = useMachine(optionContractMachine, {
    input: { makeId: newRequestId, serverNow, contract },
  });
  useEffect(() => {
    send({ type: 'CONTRACT_UPDATE', contract });
  }, [contract, send]);
  return contractView(snapshot, now);
}
