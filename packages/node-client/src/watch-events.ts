/**
 * `watchEvents`: every event of one Move type as its block is committed, from the blocks of
 * `watchBlocks` with their transactions. Built on the blocks, not on polling `listEventsV3` by height:
 * one stream for the past and the live, so the watch has the blocks' guarantees (every height once and in
 * order, the seam of `fromHeight`, reconnects, polling, the bounded buffer) and pushed latency, and the
 * events carry their v4 hashes. Loaded on first use by `node.watchEvents`.
 */
import { canonicalAddress, listEventsV3 } from '@x/common';
import { bad } from '@x/client-core/internal';
import type { BlockV4, EventV4, MoveTransactionOutputV4 } from '@x/node-types';
import type { Caller } from './types.js';
import { watchBlocks, type WatchBlocksOptions } from './watch-blocks.js';

/** Options of {@link watchEvents}: those of `watchBlocks` but the shape of the blocks (always with their transactions). */
export type WatchEventsOptions = Omit<WatchBlocksOptions, 'includeTransactions'>;

/** An event as {@link watchEvents} yields it: `listEventsV3`'s item, the event in its v4 form (with its hash). */
export type WatchedEvent = {
  readonly event: EventV4;
  /** Height of the block the event was emitted in. */
  readonly block_height: number;
  /** Hash of the transaction that emitted it. */
  readonly transaction_hash: string;
};

/** Each address of a type (the start of the type and of each type argument), as `canonicalAddress` writes it. */
const ADDRESS = /(^|[<,])(?:0x)?([0-9a-fA-F]{1,64})::/g;

/** The key one Move type is matched by: every spelling of its addresses (`0x0001`, `1`) and of its spaces gives one key. */
function typeKey(type: string): string {
  return type.replace(/\s+/g, '').replace(ADDRESS, (_, before: string, address: string) => `${before}${canonicalAddress(address) ?? address}::`);
}


/**
 * Every event of the Move type `eventType` (`address::module::Struct<args>`, any spelling of its
 * addresses) from `fromHeight` (or the next block made), in order (block, transaction, event), each once:
 * the blocks of {@link watchBlocks} with their transactions, filtered. An async iterable that never ends by
 * itself (`break`, or abort `signal`); every option of `watchBlocks` applies (`onEvent` tells its opens,
 * reconnects, polling and overflows). Bad input throws `InvalidArgumentError` before any connection.
 *
 * @example
 * ```ts
 * for await (const { event, block_height } of watchEvents(node.transport, '0x1::coin::DepositEvent', { fromHeight: 100 })) {
 *   console.log(block_height, event.data);
 * }
 * ```
 */
export function watchEvents(client: Caller, eventType: string, options: WatchEventsOptions = {}): AsyncIterable<WatchedEvent> {
  // The `event_type` parameter's generated check, under this function's name for it.
  listEventsV3.params[0].check(eventType, 'eventType', bad);
  const wanted = typeKey(eventType);
  const blocks = watchBlocks(client, { ...options, includeTransactions: true, headersOnly: false } as WatchBlocksOptions);
  return {
    async *[Symbol.asyncIterator]() {
      for await (const block of blocks) yield* eventsOf(block, wanted);
    },
  };
}

/** The events of `block` whose type's key is `wanted`, in execution order. */
function* eventsOf(block: BlockV4, wanted: string): Generator<WatchedEvent> {
  for (const tx of block.transactions ?? []) {
    const output = tx.output;
    // Only a Move output holds Move events (an EVM output's are logs).
    const events = typeof output === 'object' && output !== null && 'Move' in output ? (output as { Move: MoveTransactionOutputV4 }).Move.events : [];
    for (const event of events) {
      if (event.type === wanted || typeKey(event.type) === wanted) yield { event, block_height: block.header.height, transaction_hash: tx.hash };
    }
  }
}
