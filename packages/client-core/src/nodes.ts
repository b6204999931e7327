import { HttpError, InvalidArgumentError, NetworkError, ResponseParseError, ResponseTooLargeError, ResponseValidationError, TimeoutError } from './errors.js';
import { parseBaseUrl } from './transport.js';

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
 * The base URLs of a client as a list: one URL, or several in order of preference, each an absolute
 * http(s) URL, no two the same. The value is never echoed (a malformed URL may carry a secret).
 *
 * @example
 * ```ts
 * baseUrls(['https://a.example/', 'https://b.example']); // ['https://a.example', 'https://b.example']
 * ```
 */
export function baseUrls(value: unknown): string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  if (list.length === 0) throw new InvalidArgumentError('baseUrl', 'must name at least one node');
  const urls = list.map((u) => parseBaseUrl(u).href.replace(/\/+$/, ''));
  const twice = urls.findIndex((u, i) => urls.indexOf(u) !== i);
  if (twice !== -1) throw new InvalidArgumentError('baseUrl', `lists the same node twice (entry ${twice})`);
  return urls;
}

/**
 * Whether another node may give a better answer: a network error, a timeout, 408, 429 or a 5xx, and a
 * node that answered but not with an answer: a 200 whose body is not JSON (a maintenance page, a body
 * cut short), is larger than `maxResponseBytes` or fails the injected validator, or a redirect the
 * client did not follow (a 3xx, to another origin). Any other answer (a 404, a 400) is the answer.
 */
export function fallsThrough(error: unknown): boolean {
  if (error instanceof HttpError) return error.status < 200 || (error.status >= 300 && error.status < 400) || error.status === 408 || error.status === 429 || error.status >= 500;
  return (
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    error instanceof ResponseParseError ||
    error instanceof ResponseTooLargeError ||
    error instanceof ResponseValidationError
  );
}

/** How much of a message is searched for Supra's phrase: the node's own messages are one short line. */
const RETRY_IN_READ = 1024;

/**
 * How long a node that answered `Too many requests. Please try again in {duration}` asks to be left
 * alone, in ms: Supra's node formats a Rust `Duration` (`1.5s`, `250ms`, `2m`, `1h 5m`).
 *
 * @example
 * ```ts
 * supraRetryIn({ message: 'Too many requests. Please try again in 1.5s' }); // 1500
 * ```
 */
export function supraRetryIn(body: unknown): number | undefined {
  const message = typeof body === 'string' ? body : typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  if (typeof message !== 'string') return undefined;
  // A Rust `Duration` is short (`1h 5m 30s 250ms`): the expressions read at most 64 characters of it, and
  // a number only from its first digit, so a node's 100,000 digits cost one pass, not one per digit.
  const m = /try again in\s{1,8}([0-9][0-9.a-zµ ]{0,63})/i.exec(message.length > RETRY_IN_READ ? message.slice(0, RETRY_IN_READ) : message);
  if (!m) return undefined;
  const units: Record<string, number> = { ns: 1e-6, 'µs': 1e-3, us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  let any = false;
  for (const [, n, unit] of m[1]!.matchAll(/(?<![0-9.])([0-9]+(?:\.[0-9]+)?)\s*(ns|µs|us|ms|s|m|h|d)\b/g)) {
    total += Number(n) * units[unit!]!;
    any = true;
  }
  return any ? Math.ceil(total) : undefined;
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

  /** When the first resting node wakes. */
  firstWake(): number {
    return Math.min(...this.nodes.map((n) => n.restUntil));
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
