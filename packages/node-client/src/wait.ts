import { isNotFound, milliseconds, sleep, TransactionWaitTimeoutError, type CallOptions } from '@x/client-core';
import type { TransactionV3, TxExecutionStatus } from '@x/node-types';
import { getTransactionV3 } from './generated/actions.js';
import type { Caller } from './types.js';

/** Options of {@link waitForTransaction}. */
export type WaitOptions = CallOptions & {
  /** How long to wait in all, in ms (default 60 000); then `TransactionWaitTimeoutError`. */
  timeoutMs?: number | undefined;
  /** The first wait between two polls, in ms (default 250); each wait after it is half again as long. */
  pollIntervalMs?: number | undefined;
  /** The longest wait between two polls, in ms (default 2 000, or `pollIntervalMs` when that is longer). */
  maxPollIntervalMs?: number | undefined;
};

/** A transaction whose outcome no longer changes: what {@link waitForTransaction} answers. */
export type FinalTransaction = TransactionV3 & { status: Extract<TxExecutionStatus, 'Success' | 'Fail' | 'Invalid'> };

/** Statuses after which a transaction's outcome no longer changes. */
const FINAL: ReadonlySet<unknown> = new Set(['Success', 'Fail', 'Invalid']);

/**
 * Polls the transaction `hash` until it is final (`Success`, `Fail` or `Invalid`) and answers it; a hash
 * the node does not know yet (404) or a pending status is polled again, each wait half again as long as
 * the one before, up to `maxPollIntervalMs`. Past `timeoutMs` it rejects with
 * `TransactionWaitTimeoutError` (the hash, how long it waited, the last status), and the caller's abort
 * ends it at once. Every poll is one call of the transport: its retries, its nodes and its rate limit
 * hold, so it never asks faster than the client's rate limit lets it. A malformed hash is an
 * `InvalidArgumentError` before any request.
 *
 * @example
 * ```ts
 * import { createNodeClient, waitForTransaction } from '@x/node-client';
 * const node = createNodeClient({ baseUrl: 'http://localhost:27000' });
 * const tx = await waitForTransaction(node.transport, hash, { timeoutMs: 30_000 });
 * if (tx.status !== 'Success') console.log('failed:', tx.status);
 * ```
 */
export async function waitForTransaction(client: Caller, hash: string, options: WaitOptions = {}): Promise<FinalTransaction> {
  const timeoutMs = milliseconds('timeoutMs', options.timeoutMs ?? 60_000, 1);
  let interval = milliseconds('pollIntervalMs', options.pollIntervalMs ?? 250, 1);
  // Unless given, the longest wait is 2 s, or the first one when that is longer.
  const maxInterval = milliseconds('maxPollIntervalMs', options.maxPollIntervalMs ?? Math.max(2_000, interval), interval);
  const { signal } = options;
  signal?.throwIfAborted();
  const started = Date.now();
  let lastStatus: string | undefined;
  const timeout = (): TransactionWaitTimeoutError => new TransactionWaitTimeoutError({ hash, waitedMs: Date.now() - started, lastStatus });
  // One controller for the whole wait: the deadline or the caller's abort ends a poll in flight, or a pause.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = setTimeout(() => controller.abort(timeout()), timeoutMs);
  try {
    while (true) {
      try {
        const tx = await getTransactionV3(client, hash, { signal: controller.signal });
        const { status } = tx as { status?: unknown };
        lastStatus = typeof status === 'string' ? status.slice(0, 64) : undefined;
        if (FINAL.has(status)) return tx as FinalTransaction;
      } catch (err) {
        if (controller.signal.aborted) throw controller.signal.reason;
        if (!isNotFound(err)) throw err;
      }
      await sleep(interval, controller.signal);
      interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
    }
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', onAbort);
  }
}
