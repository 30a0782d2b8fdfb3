import type { CallTable } from '../../protocol/call-spec';
import type { DomainMigration } from '../platform/db/migration-kit';
import type { CallContext, CallRoute } from '../platform/http/calls';
import { addMessages } from '../platform/i18n/messages';
import type { OpsCommand } from '../platform/ops/commands';
import type {
  AccountGuard,
  CallsOf,
  Domain,
  DomainContext,
  OrderOwnership,
  RunningParts,
  TracedOrderOwners,
} from './contract';

/*
 * The loops that compose domains (contract.ts) into the app, the migrator and the operator CLI: each is written once,
 * here, whatever the list holds.
 */

/**
 * A handler as the loops hold it: of some call's input, unknown to them. `never` takes any domain's handler; the
 * router hands each the input its own call's schema parsed.
 */
type AnyHandler = (input: never, ctx: CallContext) => Promise<unknown>;

/** A domain's running parts as the loops see them. */
export type AnyParts = RunningParts & { handlers?: Readonly<Record<string, AnyHandler>> | undefined };

/** A domain of any name and calls as the loops see it: they never touch its tables (typed per domain). */
export interface AnyDomain extends Omit<Domain, 'tables' | 'calls' | 'start'> {
  calls?: CallTable;
  start?: (ctx: DomainContext) => AnyParts | Promise<AnyParts>;
}

/**
 * Starts each domain in list order (a later one may use what an earlier one set up, like the upload store's readers):
 * one entry per domain, in the list's order (empty for a domain with nothing to start).
 */
export async function startDomains(domains: readonly AnyDomain[], ctx: DomainContext): Promise<AnyParts[]> {
  const started: AnyParts[] = [];
  for (const domain of domains) started.push(domain.start ? await domain.start(ctx) : {});
  return started;
}

/** Every domain's calls as one table, typed path by path; a path two domains both name stops the build. */
export function callTable<const D extends readonly AnyDomain[]>(domains: D): CallsOf<D[number]> {
  const table: Record<string, CallTable[string]> = {};
  for (const domain of domains) {
    for (const [path, spec] of Object.entries(domain.calls ?? {})) {
      if (Object.hasOwn(table, path)) throw new Error(`call ${path} is named by two domains`);
      table[path] = spec;
    }
  }
  // Each path above came from exactly one domain's own table, which is what CallsOf intersects.
  return table as CallsOf<D[number]>;
}

/**
 * The routes of every call: each domain's table with the handlers its start returned (`parts`, as startDomains gave
 * them). A call without a handler, or a handler without a call, stops the start; the contract's types say the same.
 */
export function callRoutes(domains: readonly AnyDomain[], parts: readonly AnyParts[]): CallRoute[] {
  return domains.flatMap((domain, i) => {
    const calls = domain.calls ?? {};
    const handlers = parts[i]?.handlers ?? {};
    const stray = Object.keys(handlers).filter((path) => !Object.hasOwn(calls, path));
    if (stray.length > 0) throw new Error(`${domain.name} handles calls it does not name: ${stray.join(', ')}`);
    return Object.entries(calls).map(([path, spec]) => {
      const handler = handlers[path];
      if (!handler) throw new Error(`${domain.name} names ${path} but has no handler for it`);
      // The router hands over only what this call's own request schema parsed: the input this handler was typed for.
      return { path, spec, handle: handler as (input: unknown, ctx: CallContext) => Promise<unknown> };
    });
  });
}

/** Adds every domain's messages to the server's tables (translate, the API documents' list of reasons). */
export const composeMessages = (domains: readonly AnyDomain[]): void =>
  addMessages(domains.flatMap((d) => (d.errors ? [d.errors] : [])));

/** Every domain's account guards, for the context every domain starts with (the wallet asks them). */
export const accountGuardsOf = (domains: readonly AnyDomain[]): AccountGuard[] =>
  domains.flatMap((d) => d.accountGuards ?? []);

/** Every domain's traced orders' owners; a machine two domains claim stops the start. */
export function tracedOrdersOf(domains: readonly AnyDomain[]): TracedOrderOwners {
  const owners: TracedOrderOwners = {};
  for (const domain of domains) {
    for (const [machine, owns] of Object.entries(domain.tracedOrders ?? {}) as [
      keyof TracedOrderOwners,
      OrderOwnership,
    ][]) {
      if (owners[machine]) throw new Error(`traced machine ${machine} is claimed by two domains`);
      owners[machine] = owns;
    }
  }
  return owners;
}

/** Every domain's migrations (the migrator runs them in name order, whatever this order). */
export const migrationsOf = (domains: readonly AnyDomain[]): DomainMigration[] =>
  domains.flatMap((d) => d.migrations ?? []);

/**
 * Every domain's operator commands in list order. A word another domain adds under a command (`fees spot` under
 * funding's `fees`) makes that command dispatch on its first word; a name two domains both claim stops the CLI.
 */
export function opsCommands(domains: readonly AnyDomain[]): OpsCommand[] {
  const sealed = domains.flatMap((d) => d.sealed ?? []);
  const entries = domains.flatMap((d) => (typeof d.ops === 'function' ? d.ops({ sealed }) : (d.ops ?? [])));
  const words = new Map<string, { word: string; command: OpsCommand }[]>();
  const commands: OpsCommand[] = [];
  for (const entry of entries) {
    if ('under' in entry) {
      words.set(entry.under, [...(words.get(entry.under) ?? []), { word: entry.word, command: entry.command }]);
      continue;
    }
    if (commands.some((c) => c.name === entry.name)) throw new Error(`ops command ${entry.name} is defined twice`);
    commands.push(entry);
  }
  for (const under of words.keys()) {
    if (!commands.some((c) => c.name === under)) throw new Error(`ops words under ${under}, a command nobody defines`);
  }
  return commands.map((command) => {
    const extra = words.get(command.name);
    return extra ? withWords(command, extra) : command;
  });
}

/** `command` with sub-commands by first word: a line starting with one of `words` goes there, any other to it. */
function withWords(command: OpsCommand, words: readonly { word: string; command: OpsCommand }[]): OpsCommand {
  return {
    name: command.name,
    help: [...command.help, ...words.flatMap((w) => w.command.help)],
    run: (args, ctx, options) => {
      const sub = words.find((w) => w.word === args[0]);
      return sub ? sub.command.run(args.slice(1), ctx, options) : command.run(args, ctx, options);
    },
  };
}
