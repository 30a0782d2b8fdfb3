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
  run(words: readonly string[], ctx: OpsContext): Promise<number>;
}

export type CommandLine =
  | { kind: 'help' }
  | { kind: 'run'; command: string; words: string[] }
  | { kind: 'mistake'; message: string };

/**
 * Reads the command line with util.parseArgs: `-h`/`--help` anywhere asks for help; any other option is a mistake
 * (commands take words, not options); `--` ends options, so a rejection reason may start with a dash.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed: ReturnType<
    typeof parseArgs<{ options: { help: { type: 'boolean'; short: 'h' } }; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return { kind: 'mistake', message: err instanceof Error ? err.message : String(err) };
  }
  const [command, ...words] = parsed.positionals;
  if (parsed.values.help || command === undefined || command === 'help') return { kind: 'help' };
  return { kind: 'run', command, words };
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
  const line = parseCommandLine(argv);
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
  return command.run(line.words, ctx);
}
