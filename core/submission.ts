import { newRequestId } from './ids';

/**
 * The client request id of a money-moving submission (withdraw, deposit report, transfer): made once per submission,
 * kept while the same submission is retried (a lost answer, a timeout, a refusal the user answers by pressing submit
 * again), replaced when anything in it changes, and dropped once the server accepted it. The server applies one id
 * once, so however often the same submission is sent, it happens once.
 */
export interface Submission {
  /** The id for a submission whose content is `content` (compared by JSON; leave secrets out). */
  requestId(content: unknown): string;
  /** The server accepted it: the next submission, even an identical one, is a new one. */
  accepted(): void;
}

export function createSubmission(makeId: () => string = newRequestId): Submission {
  let pending: { key: string; id: string } | null = null;
  return {
    requestId(content) {
      const key = JSON.stringify(content);
      if (pending?.key !== key) pending = { key, id: makeId() };
      return pending.id;
    },
    accepted() {
      pending = null;
    },
  };
}
