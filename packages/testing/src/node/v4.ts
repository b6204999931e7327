/**
 * The v4 forms of the chain's transactions: v3's, but a Move output's events carry their hashes
 * (EventV4: guid an object, sequence number decimal text, `hash`), and, when asked for, a transaction's
 * inclusion proof. The proofs are Merkle paths of the stub's own making, consistent with themselves (a
 * path folds to its root with `merkleParent`) but not with Supra's hashing: each block's transactions are
 * the leaves of one tree certified at that block's height, each transaction's events the leaves of its
 * events tree. Nothing real verifies against them; tests can check their shape and their arithmetic.
 */
import { sha256Hex } from '../random.ts';
import { liveBlockHeader, liveTransaction } from './live.ts';
import { eventV4, type RecordEvent } from './event-forms.ts';
import type { LedgerBlock } from './ledger.ts';
import type { TxView } from './views.ts';

type Body = Record<string, unknown>;

/** The stub's hash of two Merkle nodes (`0x` + 64 hex digits). */
export const merkleParent = (left: string, right: string): string => `0x${sha256Hex('merkle-node', left, right)}`;
/** The leaf that pads a level to an even width. */
const PLACEHOLDER = `0x${sha256Hex('merkle-placeholder')}`;

/** The root of a tree over `leaves` and the path of sibling hashes, from the leaf's level up, of leaf `index`. */
export function merklePath(leaves: readonly string[], index: number): { root: string; siblings: string[] } {
  let level = [...leaves];
  let i = index;
  const siblings: string[] = [];
  while (level.length > 1) {
    if (level.length % 2 === 1) level.push(PLACEHOLDER);
    siblings.push(level[i ^ 1] as string);
    const up: string[] = [];
    for (let k = 0; k < level.length; k += 2) up.push(merkleParent(level[k] as string, level[k + 1] as string));
    level = up;
    i >>= 1;
  }
  return { root: level[0] ?? PLACEHOLDER, siblings };
}

/** The leaf of a transaction in its block's accumulator tree. */
const transactionLeaf = (hash: string): string => `0x${sha256Hex('transaction-leaf', hash)}`;
/** An event's hash: the stub's stand-in for the keccak256 of its RLP encoding. */
export const eventHash = (transactionHash: string, index: number): string => `0x${sha256Hex('event', transactionHash, index)}`;

/** The hashes of a block's transactions in execution order: its account transactions, or its one block-metadata transaction. */
export function blockTransactionHashes(block: LedgerBlock, metadataHash: (height: number) => string): string[] {
  return block.txs.length === 0 ? [metadataHash(block.info.height)] : block.txs.map((tx) => tx.hash);
}

/** The inclusion proof of transaction `hash` among its block's `hashes`, with its events tree when it has events. */
export function inclusionProof(hashes: readonly string[], hash: string, height: number, events: readonly string[]): Body {
  const index = hashes.indexOf(hash);
  const { root, siblings } = merklePath(hashes.map(transactionLeaf), index);
  return {
    proof: { siblings },
    leaf_hash_value: transactionLeaf(hash),
    merkle_root_hash_value: root,
    leaf_index: index,
    events_tree_merkle_root_hash_value: events.length === 0 ? null : merklePath(events, 0).root,
    events_leaves_hash_values: events.length === 0 ? null : [...events],
    certified_at_height: height,
  };
}

/** What a v4 rendering needs beyond the transaction: whether it is inside its block's answer, and its block's transaction hashes for a proof. */
export interface V4Rendering {
  readonly live: boolean;
  readonly inBlock: boolean;
  /** Given: the transaction carries its inclusion proof among these hashes. */
  readonly proofAmong?: readonly string[] | undefined;
}

/** The events of a documented record's Move output, if any. */
const eventsOf = (record: Body): RecordEvent[] => {
  const output = record.output as { Move?: { events?: RecordEvent[] } } | string | null;
  return typeof output === 'object' && output !== null ? (output.Move?.events ?? []) : [];
};

/** The event hashes of a transaction, in emission order. */
export function transactionEventHashes(tx: TxView): string[] {
  return eventsOf(tx.render('v2')).map((_, i) => eventHash(tx.hash, i));
}

/** A user transaction as v4 answers it (TransactionV4, `txn_type: user`). */
export function transactionV4(tx: TxView, { live, inBlock, proofAmong }: V4Rendering): Body {
  const rendered = tx.render('v2');
  const record: Body = { ...rendered };
  if (inBlock) record.block_header = null;
  const output = rendered.output as { Move?: Body } | string | null;
  if (typeof output === 'object' && output !== null && output.Move !== undefined) {
    record.output = { Move: { ...output.Move, events: eventsOf(rendered).map((e, i) => eventV4(e, eventHash(tx.hash, i))) } };
  }
  if (proofAmong !== undefined) record.inclusion_proof = inclusionProof(proofAmong, tx.hash, tx.height, transactionEventHashes(tx));
  return live ? { txn_type: 'user', ...liveTransaction(record) } : { ...record, txn_type: 'user' };
}

/** The block-metadata transaction of a block without account transactions (v4): nothing executed, no events. */
export function metadataTransactionV4(hash: string, height: number, header: Body | null, { live, proofAmong }: V4Rendering): Body {
  const record: Body = { hash, block_header: header === null ? null : live ? liveBlockHeader(header) : header, output: 'Empty', status: 'Success' };
  if (proofAmong !== undefined) record.inclusion_proof = inclusionProof(proofAmong, hash, height, []);
  return live ? { txn_type: 'block_metadata', ...record } : { ...record, txn_type: 'block_metadata' };
}

/** The proof that event `index` of a transaction whose event hashes are `events` is a leaf of its events tree. */
export function eventEmissionProof(events: readonly string[], index: number): Body {
  const { root, siblings } = merklePath(events, index);
  return { proof: { siblings }, merkle_root_hash_value: root, leaf_hash_value: events[index], leaf_index: index };
}
