/**
 * The chain as blocks: every height from 0 to the latest is a block. The blocks that hold account
 * transactions (the seeded chain's and the test's own accounts') are the ones their `block_header`s name;
 * every other height is a block of its own, made from its neighbours when asked (timestamps between
 * theirs, rounds on from theirs), holding one block-metadata transaction. After the last transaction
 * block, blocks go on with the stub's clock, so that the latest block advances as it does.
 *
 * Hashes: up to the last transaction block, a block's hash is the one transactions have always carried
 * (sha256 of the seed and height; `parent` is the hash of the height below), found again by a map built
 * on first use. Above it, and for every block-metadata transaction, the hash ends in a keyed permutation
 * of the height: it still looks random, and a lookup by hash needs no table of the ever-growing chain.
 */
import { hash4, sha256Hex } from '../random.ts';
import { blockAuthor, blockHash, type BlockInfo, type Chain } from './chain.ts';
import type { AccountView, TxView } from './views.ts';

/** Blocks after the last transaction block: 0.8 s apart on average, each 0.4 to 1.2 s after the one before. */
const BLOCK_STEP_US = 800_000;
const BLOCK_JITTER_US = 400_000;
/** Blocks before the first transaction block: one second apart, back from it (the chain's quiet start). */
const EARLY_STEP_US = 1_000_000;
/** Blocks an epoch lasts after the last transaction block: about two hours of them (BlockResource's `epoch_interval`). */
const EPOCH_BLOCKS = 7_200;
/** The parent of block 0. */
const GENESIS_PARENT = `0x${'0'.repeat(64)}`;

/** A block of the ledger: its height, time, round and epoch, and the account transactions it holds. */
export interface LedgerBlock {
  readonly info: BlockInfo;
  /** Account transactions in execution order; none: the block holds one block-metadata transaction instead. */
  readonly txs: readonly TxView[];
}

/** A transaction found by hash: an account's, or the block-metadata transaction of a block without any. */
export type LedgerTx = { readonly tx: TxView } | { readonly metadataOf: number };

export interface Ledger {
  /** The height of the last block that holds account transactions. */
  readonly lastTxHeight: number;
  /** The blocks that hold account transactions, by ascending height. */
  txBlocks(): readonly LedgerBlock[];
  /** The latest height when the clock reads `nowMs` (Unix ms): never below the last transaction block. */
  latest(nowMs: number): number;
  /** The block at `height` (any height; whether it exists yet is the latest's to say). */
  block(height: number): LedgerBlock;
  /** The BlockHeaderInfo of a block, its chain id the stub's. */
  header(block: LedgerBlock, chainId: number): Record<string, unknown>;
  /** The height whose block has this hash (`0x` + 64 lowercase hex digits), whether or not it exists yet. */
  heightOfHash(hash: string): number | undefined;
  /** The hash of the block-metadata transaction of a block without account transactions. */
  metadataHash(height: number): string;
  /** A transaction by hash (`0x` + 64 lowercase hex digits), whether or not its block exists yet. */
  transaction(hash: string): LedgerTx | undefined;
}

// --- a keyed permutation of heights, for hashes that can be looked up ------------------------------------

const ROUNDS = 4;
const roundKey = (key: number, i: number, x: number): number => Math.floor(hash4(key, i, x, 0x6c656467) * 2 ** 32) >>> 0;
const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

/** A Feistel permutation of a height's 64 bits, keyed: 16 hex digits that look random and give the height back. */
function permute(key: number, height: number): string {
  let l = Math.floor(height / 2 ** 32) >>> 0;
  let r = height >>> 0;
  for (let i = 0; i < ROUNDS; i++) [l, r] = [r, (l ^ roundKey(key, i, r)) >>> 0];
  return hex8(l) + hex8(r);
}

function unpermute(key: number, hex16: string): number | undefined {
  let l = Number.parseInt(hex16.slice(0, 8), 16);
  let r = Number.parseInt(hex16.slice(8), 16);
  for (let i = ROUNDS - 1; i >= 0; i--) [l, r] = [(r ^ roundKey(key, i, l)) >>> 0, l];
  const height = l * 2 ** 32 + r;
  return Number.isSafeInteger(height) ? height : undefined;
}

/** A hash of `label` at `height` whose last 16 hex digits give the height back. */
const tailHash = (label: string, key: number, seed: number, height: number): string =>
  `0x${sha256Hex(label, seed, height).slice(0, 48)}${permute(key, height)}`;

// --- the seeded chain's block hashes, by hash (per seed: they depend on nothing else) ----------------------

const seededHeights = new Map<number, Map<string, number>>();

function seededHeightOf(chain: Chain, hash: string): number | undefined {
  let byHash = seededHeights.get(chain.seed);
  if (byHash === undefined) {
    byHash = new Map();
    const last = (chain.blocks[chain.blocks.length - 1] as BlockInfo).height;
    for (let h = 0; h <= last; h++) byHash.set(blockHash(chain.seed, h), h);
    seededHeights.set(chain.seed, byHash);
  }
  return byHash.get(hash);
}

/**
 * The ledger of one stub: the seeded chain (`txView` gives its transactions as the accounts' listings have
 * them) and the test's own accounts (`users`), whose transactions each have a block after the seeded chain.
 */
export function createLedger(chain: Chain, txView: (gi: number) => TxView, users: ReadonlyMap<string, AccountView>): Ledger {
  const seed = chain.seed;
  const blockKey = (seed ^ 0x0b10c4a5) >>> 0;
  const metadataKey = (seed ^ 0x6d657461) >>> 0;
  const seededLast = (chain.blocks[chain.blocks.length - 1] as BlockInfo).height;
  const userTxs = [...users.values()].flatMap((u) => u.sent).sort((a, b) => a.height - b.height);
  const lastTxHeight = userTxs.length > 0 ? (userTxs[userTxs.length - 1] as TxView).height : seededLast;

  let blocks: LedgerBlock[] | undefined;
  const txBlocks = (): LedgerBlock[] =>
    (blocks ??= [
      ...chain.blocks.map((info) => ({ info, txs: Array.from({ length: info.txCount }, (_, k) => txView(info.firstTx + k)) })),
      ...userTxs.map((tx) => ({ info: tx.block, txs: [tx] })),
    ]);

  const last = (): BlockInfo => (txBlocks()[txBlocks().length - 1] as LedgerBlock).info;
  /** The time of the k-th block after the last transaction block (k >= 1). */
  const after = (k: number): number => last().timestampUs + k * BLOCK_STEP_US + Math.floor(hash4(seed, Math.floor(k / 2 ** 32), k >>> 0, 0x7153) * BLOCK_JITTER_US);
  const made = (height: number, timestampUs: number, round: number, epoch: number): LedgerBlock => ({
    info: { height, timestampUs, round, epoch, firstTx: -1, txCount: 0 },
    txs: [],
  });

  const block = (height: number): LedgerBlock => {
    const list = txBlocks();
    // The first transaction block at or above `height`.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((list[mid] as LedgerBlock).info.height < height) lo = mid + 1;
      else hi = mid;
    }
    const above = list[lo];
    if (above !== undefined && above.info.height === height) return above;
    const below = list[lo - 1];
    if (above === undefined) {
      const b = (below as LedgerBlock).info;
      const k = height - b.height;
      return made(height, after(k), b.round + k, b.epoch + Math.floor(k / EPOCH_BLOCKS));
    }
    const a = above.info;
    if (below === undefined) {
      const k = a.height - height;
      return made(height, a.timestampUs - k * EARLY_STEP_US, a.round - k, a.epoch);
    }
    // Between two transaction blocks: time and rounds spread evenly between theirs.
    const b = below.info;
    const share = (from: number, to: number): number => from + Math.floor(((to - from) * (height - b.height)) / (a.height - b.height));
    return made(height, share(b.timestampUs, a.timestampUs), share(b.round, a.round), b.epoch);
  };

  const hash = (height: number): string => (height <= lastTxHeight ? blockHash(seed, height) : tailHash('block', blockKey, seed, height));

  let userHeights: Map<string, number> | undefined;
  const heightOfHash = (h: string): number | undefined => {
    const tail = unpermute(blockKey, h.slice(-16));
    if (tail !== undefined && tail > lastTxHeight && tailHash('block', blockKey, seed, tail) === h) return tail;
    const seeded = seededHeightOf(chain, h);
    if (seeded !== undefined) return seeded;
    if (userHeights === undefined) {
      userHeights = new Map();
      for (let height = seededLast + 1; height <= lastTxHeight; height++) userHeights.set(blockHash(seed, height), height);
    }
    return userHeights.get(h);
  };

  const metadataHash = (height: number): string => tailHash('block-metadata', metadataKey, seed, height);

  let byHash: Map<string, TxView> | undefined;
  const transaction = (h: string): LedgerTx | undefined => {
    byHash ??= new Map(txBlocks().flatMap((b) => b.txs.map((tx) => [tx.hash, tx] as const)));
    const tx = byHash.get(h);
    if (tx !== undefined) return { tx };
    const height = unpermute(metadataKey, h.slice(-16));
    if (height === undefined || metadataHash(height) !== h || block(height).txs.length > 0) return undefined;
    return { metadataOf: height };
  };

  const latest = (nowMs: number): number => {
    const nowUs = nowMs * 1000;
    // Also when the clock reads NaN: the chain's history is never taken back.
    if (!(nowUs >= after(1))) return lastTxHeight;
    let k = Math.min(Math.floor((nowUs - last().timestampUs) / BLOCK_STEP_US), Number.MAX_SAFE_INTEGER - lastTxHeight);
    if (after(k) > nowUs) k--;
    return lastTxHeight + k;
  };

  const header = ({ info: b }: LedgerBlock, chainId: number): Record<string, unknown> => ({
    author: blockAuthor(chain, b.round),
    hash: hash(b.height),
    height: b.height,
    parent: b.height === 0 ? GENESIS_PARENT : hash(b.height - 1),
    timestamp: { timestamp: b.timestampUs },
    view: { epoch_id: { chain_id: chainId, epoch: b.epoch }, round: b.round },
  });

  return { lastTxHeight, txBlocks, latest, block, header, heightOfHash, metadataHash, transaction };
}
