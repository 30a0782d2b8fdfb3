import {
  type OptionAccount,
  type OptionContract,
  type OptionContractPage,
  type OptionList,
  type OptionSeconds,
  optionCalls,
  type SimulatorBalance,
  type SubmitOptionRequest,
} from '../../protocol/options';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(optionCalls);

/**
 * Options (microtrade/*). Reads show no global loading bar (the pages show their own); the open-contracts poll runs
 * beside the socket, so it is quiet: a failed poll is simply retried on schedule.
 */
const read = { loading: false } as const;
const background = { quiet: true, loading: false } as const;

/** The terms in force for new contracts (periods with ratio and minimum stake per currency) and the instruments. */
export function fetchOptionTerms(opts: CallOptions = read): Promise<OptionSeconds | false> {
  return callApi('microtrade/seconds', {}, opts);
}

/**
 * What a submission answered. `answered` is false when no answer came at all (offline, timeout, a body that is not
 * an envelope): the server may still have bought the contract, so a retry must carry the same request id.
 */
export type OptionSubmitResult = { ok: true; contract: OptionContract } | Refusal;

/**
 * Buys a contract; send the same `request_id` again to retry the same purchase (the server applies one id once).
 * Quiet: the ticket shows the refusal beside its buttons instead of a toast.
 */
export async function submitOptionContract(body: SubmitOptionRequest): Promise<OptionSubmitResult> {
  const r = await callApiResult('microtrade/submit', body, { quiet: true });
  if (r.ok) return { ok: true, contract: r.data };
  return refusal(r);
}

export interface ContractPageQuery {
  list: OptionList;
  account: OptionAccount;
  beforeId?: number | null | undefined;
  limit?: number | undefined;
}

/** One page of the user's open (waiting, running) or settled contracts of one book, newest first. */
export function fetchOptionContracts(
  query: ContractPageQuery,
  opts: CallOptions = read,
): Promise<OptionContractPage | false> {
  return callApi(
    'microtrade/lists',
    {
      list: query.list,
      account: query.account,
      limit: String(query.limit ?? 20),
      ...(query.beforeId ? { before_id: String(query.beforeId) } : {}),
    },
    opts,
  );
}

/** One contract of the user's (option/info). */
export function fetchOptionContract(id: number, opts: CallOptions = read): Promise<OptionContract | false> {
  return callApi('microtrade/info', { id: String(id) }, opts);
}

/** One contract's latest state, asked for in the background (one that left the open list unseen: its result). */
export const pollOptionContract = (id: number): Promise<OptionContract | false> => fetchOptionContract(id, background);

/**
 * The open contracts of both books, polled beside the private `options` topic (streams/options/contracts.ts), which
 * carries both books too. False when either poll failed: a half list would look like closed contracts.
 */
export async function pollOpenContracts(): Promise<OptionContract[] | false> {
  const [real, practice] = await Promise.all(
    (['real', 'simulator'] as const).map((account) =>
      fetchOptionContracts({ list: 'open', account, limit: 100 }, background),
    ),
  );
  if (real === false || practice === undefined || real === undefined || practice === false) return false;
  return [...real.contracts, ...practice.contracts];
}

/** The practice funds available on the simulator book (granted on first use). */
export function fetchPracticeBalance(opts: CallOptions = read): Promise<SimulatorBalance | false> {
  return callApi('microtrade/simulator', {}, opts);
}

/** Puts the practice funds back to 10,000 USDT (a ledger entry on the simulator book; real money never moves). */
export function resetPracticeFunds(): Promise<SimulatorBalance | false> {
  return callApi('microtrade/simulator/reset', {});
}
