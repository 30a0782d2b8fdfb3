import type { Kysely } from 'kysely';
import { type Poll, votePercent } from '../../../protocol/polls';
import { currentOperator } from '../../platform/audit';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { translate } from '../../platform/i18n/messages';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { closePoll, createPoll, listPollsForOps, PollInputError, type PollOptionInput } from './polls';

const USAGE = [
  'usage: npm run ops -- polls list | add <closes-in-days> <SYMBOL:Name>... | close <id>',
  '  polls add 14 ATOM:Cosmos "NEAR:NEAR Protocol" ARB:Arbitrum   opens now, closes in 14 days (1-90)',
  '  2 to 10 coins the market does not list yet; a vote is final and earns nothing',
].join('\n');

const ID_RE = /^[1-9]\d{0,9}$/;

class UsageError extends Error {}

function optionOf(word: string): PollOptionInput {
  const colon = word.indexOf(':');
  if (colon <= 0) throw new UsageError(`not SYMBOL:Name: ${word}`);
  return { symbol: word.slice(0, colon), name: word.slice(colon + 1) };
}

function printPoll(p: Poll, out: Out): void {
  const ended = p.closed_at !== null ? `closed early ${new Date(p.closed_at).toISOString()}` : '';
  out(
    `poll ${p.id}  ${p.status.padEnd(8)}  opens ${new Date(p.opens_at).toISOString()}  closes ` +
      `${new Date(p.closes_at).toISOString()}  ${p.total_votes} votes${ended ? `  ${ended}` : ''}`,
  );
  for (const o of p.options) {
    out(
      `  ${o.symbol.padEnd(10)} ${o.name.padEnd(24)} ${String(o.votes).padStart(6)}  ${votePercent(o.votes, p.total_votes)}%`,
    );
  }
}

async function run(words: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, ...rest] = words;
  const action = { operator: currentOperator() };
  if (sub === 'list') {
    if (rest.length > 0) throw new UsageError('`polls list` takes no words');
    const polls = await listPollsForOps(db, Date.now());
    if (polls.length === 0) out('no polls');
    for (const p of polls) printPoll(p, out);
    return 0;
  }
  if (sub === 'add') {
    const [days, ...options] = rest;
    if (!days || !/^\d{1,3}$/.test(days))
      throw new UsageError(`the days until it closes are needed, not ${days ?? 'nothing'}`);
    const id = await createPoll(db, { closesInDays: Number(days), options: options.map(optionOf) }, action);
    out(`poll ${id} is open for ${days} days (npm run ops -- polls list)`);
    return 0;
  }
  if (sub === 'close') {
    const [word] = rest;
    if (!word || !ID_RE.test(word) || rest.length > 1)
      throw new UsageError(`a poll id is needed, not ${word ?? 'nothing'}`);
    const poll = await closePoll(db, Number(word), action);
    out(`poll ${poll.id} closed with ${poll.total_votes} votes`);
    printPoll(poll, out);
    return 0;
  }
  throw new UsageError(sub === undefined ? 'a subcommand is needed' : `unknown subcommand: ${sub}`);
}

/**
 * `polls ...`: the listing polls. Opening and closing are audited under the operator running the command
 * (OPS_OPERATOR or the OS user); a refusal prints the reason and exits 1, a usage mistake exits 2. There is no
 * command that adds, moves or removes a vote.
 */
export async function runPollsCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  try {
    return await run(args, db, out);
  } catch (err) {
    if (err instanceof UsageError) {
      out(err.message);
      out(USAGE);
      return 2;
    }
    if (err instanceof PollInputError) {
      out(`refused: ${err.message}`);
      return 1;
    }
    if (err instanceof BusinessError) {
      out(`refused: ${translate('en', err.key)}${err.field ? ` (${err.field})` : ''}`);
      return 1;
    }
    throw err;
  }
}

export const pollOps: OpsCommand[] = [
  {
    name: 'polls',
    help: [
      ['polls list', 'every listing poll with its state and tallies'],
      ['polls add <closes-in-days> <SYMBOL:Name>...', 'open a poll on the next coin to list (2 to 10 coins)'],
      ['polls close <id>', 'close a poll before its time (votes so far stand)'],
    ],
    run: (words, { db, out }) => runPollsCommand(words, db, out),
  },
];
