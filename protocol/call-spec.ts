import { z } from 'zod/mini';

/**
 * One /api call: method, whether it needs a session, the request schema (form fields, all strings) and the schema
 * of `data` in the ok envelope. Each area's module lists its own calls (`accountCalls`, `marketCalls`, ...), so a
 * client chunk that makes a call carries only its area's schemas; the server's domain that handles an area names its
 * table in its contract, and the domain list composes the table the server serves (server/domains/compose.ts).
 */
export interface CallSpec<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  method: 'GET' | 'POST' | 'PUT';
  auth: boolean;
  request: Req;
  response: Res;
}

/** Calls by path (relative to /api). */
export type CallTable = Readonly<Record<string, CallSpec>>;

/** The form a call of `T` takes at `P`, as its caller writes it. */
export type CallRequest<T extends CallTable, P extends keyof T> = z.input<T[P]['request']>;

/** `data` of the ok envelope a call of `T` answers at `P`. */
export type CallData<T extends CallTable, P extends keyof T> = z.output<T[P]['response']>;

export const call = <Req extends z.ZodMiniType, Res extends z.ZodMiniType>(
  method: CallSpec['method'],
  auth: boolean,
  request: Req,
  response: Res,
): CallSpec<Req, Res> => ({ method, auth, request, response });

/** Calls that take no fields. */
export const none = z.object({});

/** An ok answer without data of its own. */
export const emptyResponse = z.looseObject({});
