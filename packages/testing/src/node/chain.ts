/**
 * The seed-dependent part of the synthetic chain: the global order of every sent transaction, blocks
 * (height, timestamp, round, epoch), amounts, gas and event sequence numbers. Built once per seed from the
 * fixed plans in accounts.ts, in a few milliseconds; JSON is rendered lazily per request (render.ts).
 */
import { mulberry32, randInt, sha256Hex, shuffle } from '../random.ts';
import { CHAIN_ACCOUNTS, PLANS, STUB_ACCOUNTS, type ChainAccountName, type Intent } from './accounts.ts';

/** Chain id in transaction headers and in every block's `view.epoch_id`. */
export const CHAIN_ID = 6;
/** Gas unit price of every transaction. */
export const GAS_UNIT_PRICE = 100;
/** Balance every account starts with (in the smallest unit). */
export const INITIAL_BALANCE = 1_000_000_000_000_000;

export interface BlockInfo {
  height: number;
  /** Microseconds since the Unix epoch. */
  timestampUs: number;
  epoch: number;
  round: number;
  /** Index of the first transaction of the block in `Chain.txs`. */
  firstTx: number;
  txCount: number;
}

export interface TxInfo {
  /** Index in `Chain.txs` (global, time order). */
  gi: number;
  sender: ChainAccountName;
  seq: number;
  intent: Intent;
  block: number;
  /** Zero-based index of the transaction in its block. */
  indexInBlock: number;
  /** Coin cursor: block timestamp (µs) + index in block. */
  cursor: number;
  amount: number;
  gasUsed: number;
  expirationUs: number;
  /** Sequence number of the sender's WithdrawEvent (successful transfers). */
  withdrawSeq: number;
  /** Sequence number of the recipient's DepositEvent (successful transfers). */
  depositSeq: number;
  /** Sequence number of the sender's counter event (calls). */
  callSeq: number;
}

export interface AccountState {
  name: ChainAccountName;
  address: string;
  /** `gi` of sent transactions, by sequence number. */
  sent: number[];
  /** `gi` of coin transactions (successful transfers sent or received), ascending cursor. */
  coin: number[];
  balance: number;
  withdrawCount: number;
  depositCount: number;
  callCount: number;
}

export interface Chain {
  seed: number;
  genesisUs: number;
  blocks: BlockInfo[];
  txs: TxInfo[];
  accounts: Record<ChainAccountName, AccountState>;
  /** Canonical address → account. */
  byAddress: Map<string, AccountState>;
  /** Validator identities (block authors). */
  validators: string[];
}

/** Size of the validator set that authors the blocks (a mainnet-sized committee). */
export const VALIDATOR_COUNT = 128;

/** 2024-10-01T00:00:00Z in µs: the chain's genesis is this plus up to a day, from the seed. */
const GENESIS_BASE_US = 1_727_740_800_000_000;

export function buildChain(seed: number): Chain {
  const rng = mulberry32(seed ^ 0x0c4a1b5e);
  const accounts = {} as Record<ChainAccountName, AccountState>;
  for (const name of CHAIN_ACCOUNTS) {
    accounts[name] = {
      name,
      address: STUB_ACCOUNTS[name],
      sent: [],
      coin: [],
      balance: INITIAL_BALANCE,
      withdrawCount: 0,
      depositCount: 0,
      callCount: 0,
    };
  }

  // Interleave every account's sent transactions (each sender's order is kept: sequence numbers ascend in time).
  const slots: ChainAccountName[] = [];
  for (const name of CHAIN_ACCOUNTS) for (let i = 0; i < PLANS[name].length; i++) slots.push(name);
  shuffle(rng, slots);

  const genesisUs = GENESIS_BASE_US + Math.floor(rng() * 86_400) * 1_000_000;
  const blocks: BlockInfo[] = [];
  const txs: TxInfo[] = [];
  let height = 1000 + randInt(rng, 0, 5000);
  let round = height + randInt(rng, 0, 100);
  let timestampUs = genesisUs;
  const epochBase = randInt(rng, 1, 40);

  let next = 0;
  while (next < slots.length) {
    // Empty blocks in between move height, round and time on.
    const gap = rng() < 0.3 ? randInt(rng, 1, 3) : 0;
    for (let g = 0; g <= gap; g++) {
      height++;
      round += rng() < 0.05 ? 2 : 1;
      timestampUs += randInt(rng, 400_000, 1_200_000) + randInt(rng, 0, 999);
    }
    // A block holds at most one transaction of an ordinary account, as on a real chain where an
    // account's transactions land in blocks far apart; only the busy account sends bursts that share
    // a block (up to 7 transactions in all).
    const limit = randInt(rng, 1, 7);
    let size = 0;
    const inBlock = new Set<ChainAccountName>();
    while (size < limit && next + size < slots.length) {
      const sender = slots[next + size] as ChainAccountName;
      if (inBlock.has(sender) && sender !== 'busy') break;
      inBlock.add(sender);
      size++;
    }
    const blockIndex = blocks.length;
    blocks.push({ height, timestampUs, epoch: epochBase + Math.floor(height / 20_000), round, firstTx: txs.length, txCount: size });
    for (let k = 0; k < size; k++) {
      const sender = slots[next++] as ChainAccountName;
      const s = accounts[sender];
      const seq = s.sent.length;
      const intent = PLANS[sender][seq] as Intent;
      const gi = txs.length;
      const tx: TxInfo = {
        gi,
        sender,
        seq,
        intent,
        block: blockIndex,
        indexInBlock: k,
        cursor: timestampUs + k,
        amount: 0,
        gasUsed: 0,
        expirationUs: timestampUs - randInt(rng, 200_000, 3_000_000) + 300_000_000,
        withdrawSeq: 0,
        depositSeq: 0,
        callSeq: 0,
      };
      s.sent.push(gi);
      switch (intent.kind) {
        case 'transfer': {
          tx.amount = randInt(rng, 1, 5_000) * 1_000_000 + randInt(rng, 0, 999_999);
          tx.gasUsed = randInt(rng, 9, 14);
          if (intent.ok) {
            const r = accounts[intent.to];
            tx.withdrawSeq = s.withdrawCount++;
            tx.depositSeq = r.depositCount++;
            s.balance -= tx.amount;
            r.balance += tx.amount;
            s.coin.push(gi);
            if (intent.to !== sender) r.coin.push(gi);
          } else {
            tx.amount = INITIAL_BALANCE * 4 + tx.amount; // more than anyone has: EINSUFFICIENT_BALANCE
            tx.gasUsed = randInt(rng, 5, 8);
          }
          break;
        }
        case 'call':
          tx.callSeq = s.callCount++;
          tx.gasUsed = randInt(rng, 4, 30);
          break;
        case 'publish':
          tx.gasUsed = randInt(rng, 800, 6000);
          break;
        default:
          tx.gasUsed = 0;
      }
      s.balance -= tx.gasUsed * GAS_UNIT_PRICE;
      txs.push(tx);
    }
  }

  const byAddress = new Map<string, AccountState>();
  for (const name of CHAIN_ACCOUNTS) byAddress.set(accounts[name].address, accounts[name]);
  const validators = Array.from({ length: VALIDATOR_COUNT }, (_, i) => `0x${sha256Hex('validator', seed, i)}`);
  return { seed, genesisUs, blocks, txs, accounts, byAddress, validators };
}

const cache = new Map<number, Chain>();

/** The chain of a seed, built on first use and shared by every stub with that seed. */
export function chainFor(seed: number): Chain {
  let chain = cache.get(seed);
  if (chain === undefined) {
    chain = buildChain(seed);
    cache.set(seed, chain);
  }
  return chain;
}

export function blockHash(seed: number, height: number): string {
  return `0x${sha256Hex('block', seed, height)}`;
}

export function txHash(seed: number, gi: number): string {
  return `0x${sha256Hex('tx', seed, gi)}`;
}

/**
 * The author (leader) of a round: drawn from the validator set by a hash of the round, as a
 * reputation-based leader election looks from outside (no fixed rotation a page could repeat).
 */
export function blockAuthor(chain: Chain, round: number): string {
  const pick = Number.parseInt(sha256Hex('leader', chain.seed, round).slice(0, 8), 16) % chain.validators.length;
  return chain.validators[pick] as string;
}

export function authKey(address: string): string {
  return `0x${sha256Hex('auth-key', address)}`;
}
