import { pollOpenContracts, pollOptionContract } from '../../core/api/options';
import {
  OPTIONS_TOPIC,
  type OptionContract,
  type OptionsTopicMessage,
  optionsTopicMessage,
} from '../../protocol/options';
import {
  createPrivateRecordStream,
  type PrivateRecordStream,
  type PrivateRecordsSource,
  type RecordKind,
  type RecordStreamOptions,
} from '../private-records';
import { realtime } from '../socket';

/**
 * The user's option contracts: the private `options` topic (a snapshot of the open contracts of both books, then
 * each changed contract) merged with polling of microtrade/lists (list=open, both books), as
 * streams/private-records.ts merges any private records.
 */

/** What this stream needs of the tab's socket (RealtimeSocket, or a fake in tests). */
export type ContractsSource = PrivateRecordsSource;

export const isOpenContract = (c: OptionContract): boolean => c.state === 'waiting' || c.state === 'running';

export type ContractStreamOptions = RecordStreamOptions<OptionContract>;

export type ContractChange = { kind: 'contract'; contract: OptionContract } | { kind: 'closed' };

/**
 * The open contracts (waiting and running) of both books, newest first, shared and replayed to late observers; and
 * each contract as it changes (bought, entered, settled), once per change, `closed` when open ones left unseen.
 */
export type ContractStream = PrivateRecordStream<OptionContract, ContractChange>;

const contracts: RecordKind<OptionContract, OptionsTopicMessage, ContractChange> = {
  topic: OPTIONS_TOPIC,
  schema: optionsTopicMessage,
  read: (message) => (message.kind === 'snapshot' ? { open: message.contracts } : { record: message.contract }),
  isOpen: isOpenContract,
  change: (contract) => ({ kind: 'contract', contract }),
};

export function createContractStream(options: ContractStreamOptions): ContractStream {
  return createPrivateRecordStream(contracts, options);
}

let shared: ContractStream | undefined;

/** The tab's contract stream, created on first use and shared by every view. */
export function optionContracts(): ContractStream {
  shared ??= createContractStream({ source: realtime(), poll: pollOpenContracts, fetchOne: pollOptionContract });
  return shared;
}
