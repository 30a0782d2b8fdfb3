import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The hash chain of the price record (RULES.md "Common ground"), as pure functions: the server computes it when it
 * writes a batch and `npm run ops -- market verify` recomputes it; the client runs the same code to re-check a fill
 * against the public head hash.
 *
 * Encoding (all text is UTF-8, every hash is sha256 written as 64 lowercase hex digits):
 *
 * - A tick is the line `SYMBOL|seq|ts|price`: the symbol as recorded (upper case), the sequence number and the
 *   server time in ms as base-10 integers without leading zeros or sign, the price as the exact decimal string
 *   that was published (its digits are part of the record: '1.50' and '1.5' hash differently).
 * - symbolDigest = sha256 of one instrument's ticks of a batch, sorted by seq, as lines joined by '\n' (no
 *   trailing newline).
 * - batchDigest = sha256 of the batch's parts, sorted by symbol, as lines `SYMBOL|symbolDigest` joined by '\n'.
 *   Two levels so that a client checks one instrument's ticks without downloading every instrument's: it
 *   recomputes its symbol's digest and takes the other symbols' digests as given.
 * - chainHash = sha256 of `prevHash + '\n' + batchDigest`; batch 1's prevHash is GENESIS_HASH (64 zeros).
 *
 * Changing any of this changes every hash: the encoding is part of the published record and never changes.
 */

export interface ChainTick {
  symbol: string;
  seq: number;
  ts: number;
  price: string;
}

export interface DigestPart {
  symbol: string;
  digest: string;
}

/** The prev_hash of batch 1. */
export const GENESIS_HASH = '0'.repeat(64);

const hashText = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

const INTEGER_RE = /^(0|[1-9]\d*)$/;
const PRICE_RE = /^\d+(\.\d+)?$/;
const SYMBOL_RE = /^[A-Z0-9]{1,16}$/;
const HEX_RE = /^[0-9a-f]{64}$/;

/** A tick's line; refuses what the encoding cannot carry unambiguously (a '|' or newline in a field). */
function tickLine(t: ChainTick): string {
  const seq = String(t.seq);
  const ts = String(t.ts);
  if (!SYMBOL_RE.test(t.symbol) || !INTEGER_RE.test(seq) || !INTEGER_RE.test(ts) || !PRICE_RE.test(t.price)) {
    throw new Error(`price record: tick ${t.symbol}:${seq} cannot be encoded`);
  }
  return `${t.symbol}|${seq}|${ts}|${t.price}`;
}

const hex = (value: string, what: string): string => {
  if (!HEX_RE.test(value)) throw new Error(`price record: ${what} is not 64 lowercase hex digits`);
  return value;
};

/** The digest of one instrument's ticks in a batch (sorted by seq here, so the order they came in does not matter). */
export function symbolDigest(ticks: readonly ChainTick[]): string {
  const sorted = [...ticks].sort((a, b) => a.seq - b.seq);
  for (let k = 1; k < sorted.length; k++) {
    const [prev, cur] = [sorted[k - 1], sorted[k]] as [ChainTick, ChainTick];
    if (cur.symbol !== prev.symbol) throw new Error('price record: symbolDigest of more than one symbol');
    if (cur.seq === prev.seq) throw new Error(`price record: ${cur.symbol}:${cur.seq} twice`);
  }
  return hashText(sorted.map(tickLine).join('\n'));
}

/** The digest of a batch from its per-symbol digests (sorted by symbol here). */
export function batchDigest(parts: readonly DigestPart[]): string {
  const sorted = [...parts].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k]?.symbol === sorted[k - 1]?.symbol) throw new Error(`price record: ${sorted[k]?.symbol} twice`);
  }
  return hashText(sorted.map((p) => `${p.symbol}|${hex(p.digest, `digest of ${p.symbol}`)}`).join('\n'));
}

/** A batch's parts: its ticks grouped by symbol, each with its digest, sorted by symbol. */
export function digestParts(ticks: readonly ChainTick[]): DigestPart[] {
  const bySymbol = new Map<string, ChainTick[]>();
  for (const t of ticks) {
    const list = bySymbol.get(t.symbol);
    if (list) list.push(t);
    else bySymbol.set(t.symbol, [t]);
  }
  return [...bySymbol.keys()].sort().map((symbol) => ({ symbol, digest: symbolDigest(bySymbol.get(symbol) ?? []) }));
}

/** The digest of a whole batch from its ticks (any order). */
export const ticksDigest = (ticks: readonly ChainTick[]): string => batchDigest(digestParts(ticks));

/** A batch's hash from the previous batch's hash and its own digest. */
export function chainHash(prevHash: string, digest: string): string {
  return hashText(`${hex(prevHash, 'prev hash')}\n${hex(digest, 'digest')}`);
}

/** Folds batch digests, in batch order, onto `fromHash`: the hash of the last batch (fromHash for none). */
export function verifyLinks(fromHash: string, digests: readonly string[]): string {
  return digests.reduce((hash, digest) => chainHash(hash, digest), hex(fromHash, 'from hash'));
}
