import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Operator commands (`npm run ops -- <command> ...`). Each module offers its own; server/ops/cli.ts composes them.
 * A command gets its words after the command name (options already taken out by util.parseArgs) and returns the
 * process exit code: 0 done, 1 refused (the output says why), 2 a usage mistake.
 */
export type Out = (line: string) => void;

export interface OpsContext {
  db: Kysely<Database>;
  out: Out;
  /** INVITE_CODE from the environment, for the platform invite code's first creation. */
  inviteCode?: string | undefined;
}

export interface OpsCommand {
  name: string;
  /** Lines of the help text: `usage` then what it does, aligned by the help printer. */
  help: ReadonlyArray<readonly [usage: string, description: string]>;
  /** The names of the string options the command takes (`['roles']` for `--roles`); any other option is a mistake. */
  options?: readonly string[];
  run(words: readonly string[], ctx: OpsContext, options?: CommandOptions): Promise<number>;
}

/** Options a command takes besides its words (`--roles a,b`), read by util.parseArgs: strings only. */
export type CommandOptions = Readonly<Record<string, string | undefined>>;

export type CommandLine =
  | { kind: 'help' }
  | { kind: 'run'; command: string; words: string[]; options?: CommandOptions }
  | { kind: 'mistake'; message: string };

/**
 * Reads the command line with util.parseArgs: `-h`/`--help` anywhere asks for help; any other option is a mistake
 * (commands take words, not options); `--` ends options, so a rejection reason may start with a dash.
 */
export function parseCommandLine(
  argv: readonly string[],
  optionsOf: (command: string) => readonly string[] = () => [],
): CommandLine {
  // A command's own options (`operators add <name> --roles a,b`) are known once its name is: the first word.
  const end = argv.indexOf('--');
  const first = argv.slice(0, end === -1 ? argv.length : end).find((a) => !a.startsWith('-'));
  const own = first === undefined ? [] : optionsOf(first).filter((name) => name !== 'help');
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(own.map((name) => [name, { type: 'string' as const }])),
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return { kind: 'mistake', message: err instanceof Error ? err.message : String(err) };
  }
  const [command, ...words] = parsed.positionals;
  if (parsed.values.help || command === undefined || command === 'help') return { kind: 'help' };
  const options: Record<string, string> = {};
  for (const name of own) {
    const value = parsed.values[name];
    if (typeof value === 'string') options[name] = value;
  }
  return own.length > 0 ? { kind: 'run', command, words, options } : { kind: 'run', command, words };
}

/** The help text of a set of commands. */
export function helpText(commands: readonly OpsCommand[], footer: string): string {
  const width = 36;
  const lines = commands
    .flatMap((c) => c.help)
    .map(([usage, description]) =>
      usage.length + 2 > width
        ? `  ${usage}\n  ${' '.repeat(width)}${description}`
        : `  ${usage.padEnd(width)}${description}`,
    );
  return [
    'usage: npm run ops -- <command>',
    '',
    'commands:',
    ...lines,
    `  ${'help'.padEnd(width)}this text`,
    '',
    footer,
  ].join('\n');
}

/** Runs the command line against `commands`; returns the exit code. */
export async function runCommandLine(
  commands: readonly OpsCommand[],
  argv: readonly string[],
  ctx: OpsContext,
  footer: string,
): Promise<number> {
  const line = parseCommandLine(argv, (name) => commands.find((c) => c.name === name)?.options ?? []);
  const help = helpText(commands, footer);
  if (line.kind === 'help') {
    ctx.out(help);
    return 0;
  }
  if (line.kind === 'mistake') {
    ctx.out(`${line.message}\n\n${help}`);
    return 2;
  }
  const command = commands.find((c) => c.name === line.command);
  if (!command) {
    ctx.out(`unknown command: ${line.command}\n\n${help}`);
    return 2;
  }
  return line.options ? command.run(line.words, ctx, line.options) : command.run(line.words, ctx);
}
