import type { Kysely } from 'kysely';
import {
  LEVER_POSITION_EVENT,
  leverPosition,
  POSITIONS_TOPIC,
  type PositionsTopicMessage,
  positionsTopicMessage,
} from '../../../protocol/lever';
import type { Database } from '../../platform/db/schema';
import type { PrivateTopic } from '../../platform/realtime/private-topics';
import { openPositions, toWire } from './positions';

/** The private `positions` topic: the user's open orders and positions (both books), then every change of any. */
export function positionsTopic(db: Kysely<Database>): PrivateTopic<PositionsTopicMessage> {
  return {
    name: POSITIONS_TOPIC,
    schema: positionsTopicMessage,
    summary: 'Lever orders and positions of both books: the open ones, then every change.',
    snapshot: async (userId) => ({
      kind: 'snapshot',
      positions: (await openPositions(db, userId)).map((row) => toWire(row)),
    }),
    events: [LEVER_POSITION_EVENT],
    fromEvent: (_kind, data) => ({ kind: 'position', position: leverPosition.parse(data) }),
  };
}
