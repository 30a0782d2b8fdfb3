import type { Kysely } from 'kysely';
import {
  OPTION_CONTRACT_EVENT,
  OPTIONS_TOPIC,
  type OptionsTopicMessage,
  optionContract,
  optionsTopicMessage,
} from '../../../protocol/options';
import type { Database } from '../../platform/db/schema';
import type { PrivateTopic } from '../../platform/realtime/private-topics';
import { openContracts } from './contracts';

/** The private `options` topic: the user's open contracts (both books), then every change of any contract. */
export function optionsTopic(db: Kysely<Database>): PrivateTopic<OptionsTopicMessage> {
  return {
    name: OPTIONS_TOPIC,
    schema: optionsTopicMessage,
    summary: 'Option contracts of both books: the open ones, then every change.',
    snapshot: async (userId) => ({ kind: 'snapshot', contracts: await openContracts(db, userId) }),
    events: [OPTION_CONTRACT_EVENT],
    fromEvent: (_kind, data) => ({ kind: 'contract', contract: optionContract.parse(data) }),
  };
}
