import { type CallPath, calls } from '../../protocol';
import type { DomainMigration } from '../platform/db/migration-kit';
import type { CallHandlers } from '../platform/http/calls';
import { addMessages } from '../platform/i18n/messages';
import type { OpsCommand } from '../platform/ops/commands';
import type { AccountGuard, Domain, DomainContext, DomainParts, OrderOwnership, TracedOrderOwners } from './contract';

/*
 * The loops that compose domains (contract.ts) into the app, the migrator and the operator CLI: each is written once,
 * here, whatever the list holds.
 */

/** A domain of any name and calls as the loops see it: they never touch its tables (typed per domain). */
export type AnyDomain = Omit<Domain, 'tables'>;

/** Starts each domain in list order (a later one may use what an earlier one set up, like the upload store's readers). */
export async function startDomains(domains: readonly AnyDomain[], ctx: DomainContext): Promise<DomainParts[]> {
  const started: DomainParts[] = [];
  for (const domain of domains) if (domain.start) started.push(await domain.start(ctx));
  return started;
}

/** The handlers of every call, one per path: a path handled twice or not at all stops the build. */
export function callHandlers(parts: readonly DomainParts[]): CallHandlers {
  const merged: Record<string, unknown> = {};
  for (const handlers of parts.map((p) => p.handlers ?? {})) {
    for (const [path, handler] of Object.entries(handlers)) {
      if (Object.hasOwn(merged, path)) throw new Error(`call ${path} is handled by two domains`);
      merged[path] = handler;
    }
  }
  const missing = (Object.keys(calls) as CallPath[]).filter((path) => !Object.hasOwn(merged, path));
  if (missing.length > 0) throw new Error(`calls without a handler: ${missing.join(', ')}`);
  // Checked just above, path by path; the domain list's type check (domains/index.ts) says the same at compile time.
  return merged as unknown as CallHandlers;
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
