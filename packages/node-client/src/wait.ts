import {
  type ClientError,
  HttpError,
  isNotFound,
  milliseconds,
  NetworkError,
  NodesFailedError,
  ResponseParseError,
  ResponseShapeError,
  sleep,
  TimeoutError,
  TransactionWaitTimeoutError,
  type CallOptions,
  type NodeAffinity,
} from '@x/client-core';
import { getTransactionV3 as operation } from '@x/common';
import type { TransactionV3, TxExecutionStatus } from '@x/node-types';
import { describe, isObject, shapeError } from './shape-read.js';
import type { Caller } from './types.js';

/** Options of {@link waitForTransaction}. */
export type WaitOptions = CallOptions & {
  /** How long to wait in all, in ms (default 60 000); then `TransactionWaitTimeoutError`. */
  timeoutMs?: number | undefined;
  /**
   * The first wait between two polls, in ms (default 250, at least 50); each wait after it is half again
   * as long.
   */
  pollIntervalMs?: number | undefined;
  /** The longest wait between two polls, in ms (default 2 000, or `pollIntervalMs` when that is longer). */
  maxPollIntervalMs?: number | undefined;
};

/** A transaction whose outcome no longer changes: what {@link waitForTransaction} answers. */
export type FinalTransaction = TransactionV3 & { status: Extract<TxExecutionStatus, 'Success' | 'Fail' | 'Invalid'> };

/** Statuses after which a transaction's outcome no longer changes. */
const FINAL: ReadonlySet<unknown> = new Set(['Success', 'Fail', 'Invalid']);

/**
 * The shortest wait between two polls: a smaller `pollIntervalMs` is refused, since a wait that asks a
 * node every millisecond (671 requests in 2 s) is a load on it, not a faster answer.
 */
const POLL_FLOOR_MS = 50;

/** A hash as the node writes it (lowercase hex with `0x`), to compare the one asked with the one answered. */
const nodeHash = (hash: string): string => `0x${hash.replace(/^0x/i, '').toLowerCase()}`;

/**
 * A poll's failure that a later poll may not get: no answer, a timeout, 408, 429, 5xx, a body cut short,
 * or every node failing so. Any other error (a 400, another chain, a refused body) ends the wait.
 */
function passing(err: unknown): err is ClientError {
  if (err instanceof HttpError) return err.status === 408 || err.status === 429 || err.status >= 500;
  return err instanceof NetworkError || err instanceof TimeoutError || err instanceof ResponseParseError || err instanceof NodesFailedError;
}

/**
 * The answer checked as the transaction `hash`: an object whose `hash` is the one asked (as the node
 * writes hashes), whose `status`, when it has one, is text. Anything else is the node's wrong answer.
 */
function checked(body: unknown, hash: string): TransactionV3 {
  const op = 'getTransactionV3';
  if (!isObject(body)) throw shapeError(op, '', 'a transaction', body);
  if (typeof body.hash !== 'string' || nodeHash(body.hash) !== hash) throw shapeError(op, '/hash', `the hash asked, ${hash}`, body.hash);
  if (body.status !== undefined && typeof body.status !== 'string') throw new ResponseShapeError({ operationId: op, path: '/status', expected: `a status, got ${describe(body.status)}` });
  return body as TransactionV3;
}

/**
 * Polls the transaction `hash` until it is final (`Success`, `Fail` or `Invalid`) and answers it. A hash
 * the node does not know yet (404), a pending status, or a poll that failed as a node fails (no answer, a
 * timeout, 408, 429, 5xx, every node failing) is polled again, each wait half again as long as the one
 * before (from `pollIntervalMs`, at least 50 ms, up to `maxPollIntervalMs`); any other error ends the
 * wait. Past `timeoutMs` it rejects with `TransactionWaitTimeoutError` naming the hash, how long it
 * waited and what the node last answered (`lastStatus`, and `lastError`: the 404 or the failure), and
 * the caller's abort ends it at once. Every poll is one call of the transport: its retries, its nodes
 * and its rate limit hold, so it never asks faster than the client's rate limit lets it.
 *
 * With several nodes (`client.baseUrls`), each poll that finds no final transaction prefers the next node
 * in turn, so a lagging node's 404 does not hide a transaction another node has: every node is asked.
 *
 * Only the transaction asked is answered: a body that is no transaction (`null`, a list, text, a number)
 * or a transaction of another hash (compared as the node writes hashes: lowercase hex with `0x`) is that
 * node's wrong answer, a `ResponseShapeError` naming `getTransactionV3` and the path (`''`, `/hash`). It
 * is not polled again as if the node did not know the hash: a node that answers another transaction
 * would answer it again. With one node it ends the wait at once; with several, that node is asked no
 * more in this wait and the next is asked at once (another node may answer right), and the error ends
 * the wait when every node has answered wrong.
 *
 * A malformed hash, a `timeoutMs` below 1 ms or a `pollIntervalMs` below 50 ms is an
 * `InvalidArgumentError` naming it, before any request.
 *
 * @example
 * ```ts
 * import { createNodeClient, waitForTransaction } from '@x/node-client';
 * const node = createNodeClient({ baseUrl: ['http://localhost:27000', 'http://localhost:27010'] });
 * const tx = await waitForTransaction(node.transport, hash, { timeoutMs: 30_000 });
 * if (tx.status !== 'Success') console.log('failed:', tx.status);
 * ```
 */
export async function waitForTransaction(client: Caller, hash: string, options: WaitOptions = {}): Promise<FinalTransaction> {
  const timeoutMs = milliseconds('timeoutMs', options.timeoutMs ?? 60_000, 1);
  let interval = milliseconds('pollIntervalMs', options.pollIntervalMs ?? 250, POLL_FLOOR_MS);
  // Unless given, the longest wait is 2 s, or the first one when that is longer.
  const maxInterval = milliseconds('maxPollIntervalMs', options.maxPollIntervalMs ?? Math.max(2_000, interval), interval);
  const { signal } = options;
  signal?.throwIfAborted();
  const asked = typeof hash === 'string' ? nodeHash(hash) : '';
  // The nodes in turn (one node, or a caller without base URLs: no preference to give).
  const nodes = client.baseUrls.length > 1 ? client.baseUrls : [];
  // The nodes that answered another transaction, or no transaction.
  const wrong = new Set<string>();
  let turn = 0;
  const started = Date.now();
  let lastStatus: string | undefined;
  let lastError: ClientError | undefined;
  // A timer may fire a millisecond before Date.now() has moved as far (their clocks round apart): the
  // deadline's own error says at least the whole wait.
  const timeout = (): TransactionWaitTimeoutError =>
    new TransactionWaitTimeoutError({ hash, waitedMs: Math.max(timeoutMs, Date.now() - started), lastStatus, lastError });
  // One controller for the whole wait: the deadline or the caller's abort ends a poll in flight, or a pause.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = setTimeout(() => controller.abort(timeout()), timeoutMs);
  try {
    while (true) {
      const live = nodes.filter((n) => !wrong.has(n));
      const preferred = live[turn++ % live.length];
      const affinity: NodeAffinity = preferred === undefined ? {} : { node: preferred };
      let answered: string | undefined;
      try {
        // The router fills in the node that answered: a wrong answer is that node's.
        const body = await client.call('getTransactionV3', operation, { hash }, { signal: controller.signal }, affinity);
        answered = affinity.node;
        const tx = checked(body, asked);
        const { status } = tx as { status?: string };
        if (status !== undefined) lastStatus = status.slice(0, 64);
        lastError = undefined;
        if (FINAL.has(status)) return tx as FinalTransaction;
      } catch (caught) {
        if (controller.signal.aborted) throw controller.signal.reason;
        // Every node refused by the transport's own check of the hash: that is the answer, not a failure to poll through.
        if (caught instanceof NodesFailedError && caught.attempts.every((a) => a.error instanceof ResponseShapeError)) throw caught.attempts.at(-1)!.error;
        const err = caught;
        if (err instanceof ResponseShapeError) {
          // Refused here, or by a check of the transport's own (then the node asked is the one that answered).
          const node = answered ?? preferred;
          if (node === undefined || !nodes.includes(node)) throw err;
          lastError = err;
          if (!wrong.has(node)) {
            wrong.add(node);
            if (wrong.size === nodes.length) throw err;
            continue; // the next node at once
          }
          // A node asked no more answered again (the others rest): poll again later, as after a failure.
        } else {
          if (!isNotFound(err) && !passing(err)) throw err;
          lastError = err;
        }
      }
      await sleep(interval, controller.signal);
      interval = Math.min(maxInterval, Math.ceil(interval * 1.5));
    }
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', onAbort);
  }
}
