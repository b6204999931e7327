import { EchoMismatch } from './echo.js';
import { ChainIdMismatchError, HistoryPrunedError, HttpError, NetworkError, ResponseParseError, ResponseTooLargeError, ResponseValidationError, TimeoutError, type AnyClientError } from './errors.js';

/** What the pool knows of one node, from real calls only (no pings, no timers). */
export type NodeState = {
  /** Base URL, normalised (no trailing slash). */
  readonly url: string;
  /** Failures in a row; a success resets it. */
  failures: number;
  /** Until when (ms, the policy's clock) the node is skipped. */
  restUntil: number;
  /** Its last failure, for the error of a call that every node failed. */
  lastError: unknown;
};

/**
 * Whether another node may give a better answer: a network error, a timeout, 408, 429 or a 5xx, and a
 * node that answered but not with an answer: a 200 whose body is not JSON (a maintenance page, a body
 * cut short), is larger than `maxResponseBytes` or fails the injected validator, or a redirect the
 * client did not follow (a 3xx, to another origin) or one from another origin (a `NetworkError`), an
 * answer of another chain, an answer to another request (a `ResponseShapeError` of the operation's
 * `echo`: another block or transaction than the one asked), or a node's 410 for the history it has pruned
 * (another may keep it). Any other answer (a 404, a 400, any other shape error) is the answer.
 * Each is a client error, so a `NodesFailedError`'s attempts are typed as such (false says nothing of the type).
 */
export function fallsThrough(error: unknown): error is AnyClientError {
  if (error instanceof HistoryPrunedError || error instanceof ChainIdMismatchError || error instanceof EchoMismatch) return true;
  if (error instanceof HttpError) return error.status < 200 || (error.status >= 300 && error.status < 400) || error.status === 408 || error.status === 429 || error.status >= 500;
  return (
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    error instanceof ResponseParseError ||
    error instanceof ResponseTooLargeError ||
    error instanceof ResponseValidationError
  );
}

/**
 * The nodes of one client and their passive health. A failing node rests, longer after each failure in
 * a row (`restMs(failures)`), or for as long as its `Retry-After` or Supra's message asks after a 429 or
 * 503; a success ends its rest. Preference is the configured order among the nodes awake, so a node that
 * recovers is first again as soon as its rest is over.
 */
export class NodePool {
  readonly nodes: readonly NodeState[];
  constructor(
    urls: readonly string[],
    private readonly restMs: (failures: number) => number,
  ) {
    this.nodes = urls.map((url) => ({ url, failures: 0, restUntil: 0, lastError: undefined }));
  }

  /** The nodes awake at `now`, the preferred one (a walk's node) first, then in configured order. */
  awake(now: number, preferred?: string): NodeState[] {
    const up = this.nodes.filter((n) => n.restUntil <= now);
    const i = preferred === undefined ? -1 : up.findIndex((n) => n.url === preferred);
    if (i > 0) up.unshift(...up.splice(i, 1));
    return up;
  }

  /** When the first resting node wakes, of those not in `skip`. */
  firstWake(skip?: ReadonlySet<string>): number {
    return Math.min(...this.nodes.filter((n) => !skip?.has(n.url)).map((n) => n.restUntil));
  }

  succeeded(node: NodeState): void {
    node.failures = 0;
    node.restUntil = 0;
  }

  /** Rests a node after `error`, for `asked` ms when the node said how long (Retry-After, Supra's message). */
  failed(node: NodeState, error: unknown, now: number, asked: number | undefined): void {
    node.failures++;
    node.lastError = error;
    node.restUntil = now + (asked ?? this.restMs(node.failures));
  }
}
