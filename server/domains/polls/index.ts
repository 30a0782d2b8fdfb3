/** The public surface of this module: other code imports it only through this file. */

export { pollHandlers } from './calls';
export { pollsDomain } from './domain';
export * from './migrations/0023_polls';
export { pollOps, runPollsCommand } from './ops';
export {
  addSamplePoll,
  closePoll,
  createPoll,
  listPollsForOps,
  type NewPoll,
  type PollAction,
  PollInputError,
  readCurrentPolls,
  readPoll,
} from './polls';
export { castVote, type PollServices } from './vote';
