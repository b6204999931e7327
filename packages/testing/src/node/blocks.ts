/**
 * The v3 and v4 reads of blocks and of transactions by hash, over the ledger (ledger.ts): the latest block (which
 * the stub's clock moves on), a block by height or hash, a block's transaction hashes, and any transaction
 * by its hash. A block that does not exist yet is a 404, one below the oldest block the stub keeps a 410
 * (by height as the document says, and by hash alike: the node no longer has it).
 */
import { readU64 } from '@x/common';
import { errorResponse, jsonResponse, type StubResponse } from '../router.ts';
import { parseFlag, type ChainCall, type ChainHandler } from './handling.ts';
import type { Ledger, LedgerBlock, LedgerTx } from './ledger.ts';
import { liveBlockHeader } from './live.ts';
import { OLDEST_BLOCK_HEADER, TXN_TYPES, metadataTransactionV3, parseKind, transactionV3, type Kind } from './v3.ts';
import { blockTransactionHashes, metadataTransactionV4, transactionV4 } from './v4.ts';

type Body = Record<string, unknown>;

/** What the block reads read beyond the request. */
export interface BlocksContext {
  readonly ledger: Ledger;
  readonly chainId: number;
  /** The lowest block height the stub keeps (`oldestBlock`; 0: nothing pruned). */
  readonly oldestBlock: number;
}

/** A transaction or block hash of a path: 64 hex digits, `0x` or not, any case (the document's pattern). */
const HASH = /^(0x)?[0-9a-fA-F]{64}$/;

/** A hash as the ledger keys it (`0x` + lowercase), or a 400 naming the parameter. */
function parseHash(raw: string, name: string): { hash: string } | { response: StubResponse } {
  if (!HASH.test(raw)) return { response: errorResponse(400, `invalid_${name}`, `${name} must be 64 hex digits with or without 0x, got '${raw}'`) };
  return { hash: `0x${raw.slice(raw.length - 64).toLowerCase()}` };
}

/** What a node answers for what it has not (yet): `{ message }`, the document's ErrorMessage, in both shapes. */
const notFound = (message: string): StubResponse => jsonResponse(404, { message });

export function blockReads({ ledger, chainId, oldestBlock }: BlocksContext) {
  const pruned = (height: number): StubResponse =>
    jsonResponse(
      410,
      { message: `block ${height} is below block ${oldestBlock}, the oldest this node keeps: its history has been pruned` },
      { [OLDEST_BLOCK_HEADER]: String(oldestBlock) },
    );

  const header = (block: LedgerBlock, live: boolean): Body => {
    const h = ledger.header(block, chainId);
    return live ? liveBlockHeader(h) : h;
  };

  /** The counts and gas of a block's execution, from its transactions' records. */
  const statistics = (block: LedgerBlock): Body => {
    const records = block.txs.map((tx) => tx.render('v2') as { header: { gas_unit_price: number }; output?: { Move?: { gas_used?: number } } | string | null });
    const prices = records.map((r) => r.header.gas_unit_price);
    const gas = records.reduce((sum, r) => sum + (typeof r.output === 'object' && r.output !== null ? (r.output.Move?.gas_used ?? 0) : 0), 0);
    return {
      user_txn_count: block.txs.length,
      automated_txn_count: 0,
      automation_record_count: 0,
      // No automated transaction ran: no price was set for them.
      automated_txn_gas_unit_price: null,
      block_gas_unit_price_min: prices.length === 0 ? null : Math.min(...prices),
      block_gas_unit_price_max: prices.length === 0 ? null : Math.max(...prices),
      block_total_user_gas_used: gas,
      block_total_automated_gas_used: 0,
    };
  };

  /** A block's transactions in execution order, of one kind or all: its account transactions, or its block-metadata transaction. */
  const transactionsOf = (block: LedgerBlock, kind: Kind | undefined): Array<{ hash: string; render: (live: boolean) => Body }> => {
    if (block.txs.length === 0) {
      if (kind !== undefined && kind !== 'meta') return [];
      const hash = ledger.metadataHash(block.info.height);
      return [{ hash, render: (live) => metadataTransactionV3(hash, null, live) }];
    }
    if (kind !== undefined && kind !== 'user') return [];
    return block.txs.map((tx) => ({ hash: tx.hash, render: (live) => transactionV3(tx, live, true) }));
  };

  const executed = (block: LedgerBlock, live: boolean): Body => ({ header: header(block, live), execution_statistics: statistics(block) });

  /** The block with this hash, if it exists at the clock's reading and is kept. */
  const byHash = (call: ChainCall): LedgerBlock | StubResponse => {
    const parsed = parseHash(call.params.block_hash as string, 'block_hash');
    if ('response' in parsed) return parsed.response;
    const height = ledger.heightOfHash(parsed.hash);
    if (height === undefined || height > ledger.latest(call.now())) return notFound(`no block with hash ${parsed.hash}`);
    if (height < oldestBlock) return pruned(height);
    return ledger.block(height);
  };

  const getLatestBlock: ChainHandler = ({ live, now }) => jsonResponse(200, executed(ledger.block(ledger.latest(now())), live));

  /** The block at the path's height with the query's filters, or the 400, 404 or 410 a node answers (v3 and v4 alike). */
  const atHeight = ({ req, params, now }: ChainCall): { block: LedgerBlock; withTransactions: boolean; kind: Kind | undefined } | StubResponse => {
    const raw = params.height as string;
    const height = readU64(raw);
    if (height === undefined) return errorResponse(400, 'invalid_height', `height must be an unsigned 64-bit integer, got '${raw}'`);
    const withTransactions = parseFlag(req.query, 'with_finalized_transactions');
    if (!withTransactions.ok) return withTransactions.response;
    const kind = parseKind(req.query);
    if (!kind.ok) return kind.response;
    const latest = ledger.latest(now());
    if (height > BigInt(latest)) return notFound(`no block at height ${height} yet: the latest is ${latest}`);
    if (height < BigInt(oldestBlock)) return pruned(Number(height));
    return { block: ledger.block(Number(height)), withTransactions: withTransactions.value, kind: kind.value };
  };

  const getBlockByHeight: ChainHandler = (call) => {
    const found = atHeight(call);
    if (!('block' in found)) return found;
    const { block, withTransactions, kind } = found;
    const transactions = withTransactions ? transactionsOf(block, kind).map((t) => t.render(call.live)) : null;
    return jsonResponse(200, { ...executed(block, call.live), transactions });
  };

  /** v4: v3's block, its transactions in their v4 form, each with its inclusion proof when `include_proof` asks. */
  const getBlockByHeightV4: ChainHandler = (call) => {
    const proof = parseFlag(call.req.query, 'include_proof');
    if (!proof.ok) return proof.response;
    const found = atHeight(call);
    if (!('block' in found)) return found;
    const { block, withTransactions, kind } = found;
    const rendering = { live: call.live, inBlock: true, proofAmong: proof.value ? blockTransactionHashes(block, ledger.metadataHash) : undefined };
    let transactions: Body[] | null = null;
    if (withTransactions) {
      if (block.txs.length === 0) {
        transactions = kind === undefined || kind === 'meta' ? [metadataTransactionV4(ledger.metadataHash(block.info.height), block.info.height, null, rendering)] : [];
      } else {
        transactions = kind === undefined || kind === 'user' ? block.txs.map((tx) => transactionV4(tx, rendering)) : [];
      }
    }
    return jsonResponse(200, { ...executed(block, call.live), transactions });
  };

  const getBlock: ChainHandler = (call) => {
    const block = byHash(call);
    return 'info' in block ? jsonResponse(200, executed(block, call.live)) : block;
  };

  const getBlockTransactionHashes: ChainHandler = (call) => {
    const kind = parseKind(call.req.query);
    if (!kind.ok) return kind.response;
    const block = byHash(call);
    return 'info' in block ? jsonResponse(200, transactionsOf(block, kind.value).map((t) => t.hash)) : block;
  };

  const getTransaction: ChainHandler = ({ req, live, params, now }) => {
    const parsed = parseHash(params.hash as string, 'hash');
    if ('response' in parsed) return parsed.response;
    const kind = parseKind(req.query);
    if (!kind.ok) return kind.response;
    // Every transaction the stub serves is committed: the flag is read (a bad value is a 400) and changes nothing.
    const uncommitted = parseFlag(req.query, 'exclude_uncommitted');
    if (!uncommitted.ok) return uncommitted.response;
    const found = ledger.transaction(parsed.hash);
    const height = found === undefined ? undefined : 'tx' in found ? found.tx.height : found.metadataOf;
    if (found === undefined || height === undefined || height > ledger.latest(now())) return notFound(`no transaction with hash ${parsed.hash}`);
    const type = 'tx' in found ? TXN_TYPES.user : TXN_TYPES.meta;
    if (kind.value !== undefined && TXN_TYPES[kind.value] !== type) return notFound(`no ${TXN_TYPES[kind.value]} transaction with hash ${parsed.hash}`);
    if (height < oldestBlock) return pruned(height);
    if ('tx' in found) return jsonResponse(200, transactionV3(found.tx, live));
    return jsonResponse(200, metadataTransactionV3(parsed.hash, ledger.header(ledger.block(height), chainId), live));
  };

  /** v4: v3's answer in the v4 form, with its inclusion proof among its block's transactions when `include_proof` asks. */
  const getTransactionV4: ChainHandler = (call) => {
    const proof = parseFlag(call.req.query, 'include_proof');
    if (!proof.ok) return proof.response;
    const v3 = getTransaction(call);
    if (v3.status !== 200) return v3;
    const found = ledger.transaction((JSON.parse(v3.body) as { hash: string }).hash) as LedgerTx;
    const height = 'tx' in found ? found.tx.height : found.metadataOf;
    const block = ledger.block(height);
    const rendering = { live: call.live, inBlock: false, proofAmong: proof.value ? blockTransactionHashes(block, ledger.metadataHash) : undefined };
    if ('tx' in found) return jsonResponse(200, transactionV4(found.tx, rendering));
    return jsonResponse(200, metadataTransactionV4(ledger.metadataHash(height), height, ledger.header(block, chainId), rendering));
  };

  return {
    getTransactionV4,
    getLatestBlockV3: getLatestBlock,
    getBlockByHeightV3: getBlockByHeight,
    getBlockByHeightV4,
    getBlockV3: getBlock,
    getBlockTransactionHashesV3: getBlockTransactionHashes,
    getTransactionV3: getTransaction,
  } satisfies Record<string, ChainHandler>;
}
