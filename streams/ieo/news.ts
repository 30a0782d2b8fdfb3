import type { IeoOrder, IeoPhase } from '../../protocol/ieo';

/**
 * Which copy of a subscription is newer. An IEO order carries no `updated_at`; its phase only ever moves forward
 * (subscribed → failed | allotted → lapsed | paid → locked → unlocked), and nothing else about it changes within a
 * phase, so the phase's rank orders the copies: a higher rank is news, the same or a lower one a repeat or late news.
 */
export const IEO_PHASE_RANK: Readonly<Record<IeoPhase, number>> = {
  subscribed: 0,
  failed: 1,
  allotted: 1,
  lapsed: 2,
  paid: 2,
  locked: 3,
  unlocked: 4,
};

/** Whether `incoming` replaces `held` (both the same subscription): a later phase. */
export const isNewerIeoOrder = (held: IeoOrder | null | undefined, incoming: IeoOrder): boolean =>
  !held || IEO_PHASE_RANK[incoming.phase] > IEO_PHASE_RANK[held.phase];

/** The newer of two copies of the same subscription (ties keep what is held). */
export const newerIeoOrder = (held: IeoOrder | null | undefined, incoming: IeoOrder): IeoOrder =>
  held && !isNewerIeoOrder(held, incoming) ? held : incoming;
