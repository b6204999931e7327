/**
 * What the router reads of an account, seeded or defined by a test: one shape for both, so that every
 * operation has one code path. Seeded views are built on first use and kept (per router); rendering a
 * transaction or a resource stays lazy, per request.
 */
import { authKey, txHash, type BlockInfo, type Chain, type TxInfo } from './chain.ts';
import { fieldsToJson, toMoveValueV1, type StructTag } from './move.ts';
import { modulesOf, type ModuleEntry } from './modules.ts';
import { renderTxV1, renderTxV2 } from './render.ts';
import { resourcesOf } from './resources.ts';

export type Version = 'v1' | 'v2';
type Body = Record<string, unknown>;

export interface TxView {
  /** Coin cursor: its block's timestamp (µs) + its index in the block. */
  readonly cursor: number;
  /** Height of its block (what the `oldestBlock` option prunes by). */
  readonly height: number;
  /** Its hash, as its records carry it (`0x` + 64 hex digits). */
  readonly hash: string;
  /** Its block, as its `block_header` describes it. */
  readonly block: BlockInfo;
  /** Zero-based position in its block (execution order). */
  readonly indexInBlock: number;
  /** The documented TransactionInfoV1 / V2 record. */
  render(v: Version): Body;
}

export interface ResourceView {
  readonly type: string;
  readonly tag: StructTag;
  /** v2 `data` (and the live v1 value): the struct as JSON. */
  data(): Body;
  /** The documented v1 `result` items. */
  v1Result(): unknown[];
}

export interface AccountView {
  readonly address: string;
  readonly sequenceNumber: number;
  readonly authenticationKey: string;
  /** Sent transactions, by sequence number. */
  readonly sent: readonly TxView[];
  /** Coin transactions (successful transfers sent or received), ascending cursor. */
  readonly coin: readonly TxView[];
  /** Sorted by name (the listing order). */
  readonly modules: readonly ModuleEntry[];
  /** Sorted by type (the listing order). */
  readonly resources: readonly ResourceView[];
}

/**
 * The seeded chain's transactions as views, by their index in `Chain.txs`, each made once: the accounts'
 * listings and the blocks (ledger.ts) share them. The hash is computed when read.
 */
export function seededTxViews(chain: Chain, chainId: number): (gi: number) => TxView {
  const made: TxView[] = [];
  return (gi) => {
    const cached = made[gi];
    if (cached !== undefined) return cached;
    const tx = chain.txs[gi] as TxInfo;
    const block = chain.blocks[tx.block] as BlockInfo;
    const view: TxView = {
      cursor: tx.cursor,
      height: block.height,
      get hash() {
        return txHash(chain.seed, gi);
      },
      block,
      indexInBlock: tx.indexInBlock,
      render: (v) => (v === 'v1' ? renderTxV1(chain, tx, chainId) : renderTxV2(chain, tx, chainId)),
    };
    made[gi] = view;
    return view;
  };
}

/** The seeded account at `address` as a view, or `undefined` when the chain has none there; `txView` gives the chain's transactions. */
export function seededViews(chain: Chain, chainId: number, txView: (gi: number) => TxView): (address: string) => AccountView | undefined {
  const cache = new Map<string, AccountView>();
  return (address) => {
    const cached = cache.get(address);
    if (cached !== undefined) return cached;
    const a = chain.byAddress.get(address);
    if (a === undefined) return undefined;
    const view: AccountView = {
      address,
      sequenceNumber: a.sent.length,
      authenticationKey: authKey(address),
      sent: a.sent.map(txView),
      coin: a.coin.map(txView),
      modules: modulesOf(a.name, chain.seed),
      resources: resourcesOf(a.name).map((r) => ({
        type: r.type,
        tag: r.tag,
        data: () => fieldsToJson(r.fields(chain, chainId)),
        // One MoveValue per top-level field (README: value renderings).
        v1Result: () => r.fields(chain, chainId).map(([, value]) => toMoveValueV1(value)),
      })),
    };
    cache.set(address, view);
    return view;
  };
}
