/**
 * What the transaction and block pages show, read from the node's v3 records. The pages pass these as
 * their queries' `select`: a record that cannot be read (a `ResponseShapeError` of the readers) then
 * becomes the query's error, shown as every other error is, instead of a render that throws.
 *
 * The readers of `@x/node-client/shapes` read the documented and the live shapes alike (a sender
 * `"0x…"` or `{ Move: "0x…" }`, a timestamp `{ timestamp }` or `{ microseconds_since_unix_epoch, … }`).
 */
import type { BlockExecutionStatistics, BlockHeaderInfo, BlockV3, Event, TransactionOutput, TransactionV3 } from '@x/node-client';
import { entryFunction, senderAddress, timestampDate, transactionEvents, type EntryFunctionCall } from '@x/node-client/shapes';

/** The block a record names: enough to show it and link to it. */
export interface BlockRef {
  readonly height: number;
  readonly hash: string;
  readonly time: Date;
}

/** What a user or automated transaction was sent with; other kinds (block metadata, automation records) have no header. */
export interface SentWith {
  readonly sender: string;
  readonly sequenceNumber: number;
  readonly gasUnitPrice: number;
  readonly maxGasAmount: number;
}

export interface TransactionView {
  readonly hash: string;
  readonly kind: TransactionV3['txn_type'];
  readonly status: string | undefined;
  readonly sent: SentWith | undefined;
  readonly gasUsed: number | undefined;
  /** Unset while the transaction is in no block, and for the transactions of a block's own answer. */
  readonly block: BlockRef | undefined;
  readonly call: EntryFunctionCall | undefined;
  readonly events: readonly Event[];
}

export interface BlockView extends BlockRef {
  readonly parent: string;
  readonly author: string;
  readonly epoch: number;
  readonly round: number;
  readonly statistics: BlockExecutionStatistics | undefined;
  /** In execution order. */
  readonly transactions: readonly TransactionView[];
}

function moveOutput(output: unknown): output is Extract<TransactionOutput, { Move: unknown }> {
  return typeof output === 'object' && output !== null && 'Move' in output;
}

function blockRef(header: BlockHeaderInfo): BlockRef {
  return { height: header.height, hash: header.hash, time: timestampDate(header.timestamp) };
}

export function readTransaction(tx: TransactionV3): TransactionView {
  // Only user and automated transactions are signed records with a header and a payload.
  const signed = tx.txn_type === 'user' || tx.txn_type === 'automated' ? tx : undefined;
  const output: unknown = (tx as { output?: unknown }).output;
  return {
    hash: tx.hash,
    kind: tx.txn_type,
    status: tx.status,
    sent: signed && {
      sender: senderAddress(signed.header.sender),
      sequenceNumber: signed.header.sequence_number,
      gasUnitPrice: signed.header.gas_unit_price,
      maxGasAmount: signed.header.max_gas_amount,
    },
    gasUsed: moveOutput(output) ? output.Move.gas_used : undefined,
    block: tx.block_header ? blockRef(tx.block_header) : undefined,
    call: entryFunction(tx),
    events: transactionEvents(tx),
  };
}

export function readBlock(block: BlockV3): BlockView {
  const { header } = block;
  return {
    ...blockRef(header),
    parent: header.parent,
    author: header.author,
    epoch: header.view.epoch_id.epoch,
    round: header.view.round,
    statistics: block.execution_statistics ?? undefined,
    transactions: (block.transactions ?? []).map(readTransaction),
  };
}
