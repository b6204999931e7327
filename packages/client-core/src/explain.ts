/**
 * The long help of an error: what its short message leaves out so that no bundle carries every hint. Its
 * own module: an app that never calls `explain` bundles none of this text.
 */
import { ClientError, HttpError, InvalidArgumentError } from './errors.js';

/** What browsers' fetch rejects with, as a TypeError, when no response may be read (Chromium, Firefox, Safari). */
const BROWSER_FETCH_FAILURES = ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed'];

/** Help by status of an `HttpError`. */
const STATUS: Readonly<Record<number, string>> = {
  401: 'The service refused the credentials: check the API key (a price client\'s `apiKey`); retrying does not help.',
  403: 'The service refused the credentials: check the API key (a price client\'s `apiKey`); retrying does not help.',
  404: 'Not found: an unknown account, resource, module, transaction, pair or path (check the version in the path and `baseUrl`).',
  410: 'The node has pruned the history asked for (`oldestBlock` says where its history starts): add a node that keeps it (an archive node) to `baseUrl`, or ask from `oldestBlock` up.',
  429: 'The service limits requests: the client waits its `Retry-After` (or the time its message names) between retries; set a `rateLimit` to stay under it.',
  503: 'The service is unavailable or shedding load: the client retries after its `Retry-After`; with several nodes the call moves on.',
};

/** Help by code, where the class says no more. */
const CODE: Readonly<Record<string, string>> = {
  TIMEOUT: 'An attempt took longer than `timeoutMs` (default 30 s), its body included: raise `timeoutMs`, or give several nodes.',
  RESPONSE_TOO_LARGE: 'The body grew past `maxResponseBytes` (default 16 MiB): a real answer that large needs a larger `maxResponseBytes`.',
  RESPONSE_PARSE_ERROR: 'A success answer was not the JSON it should be (a maintenance page, a body cut short): with several nodes the call moves on.',
  RESPONSE_VALIDATION_ERROR: "The injected validator refused the body: the node's answer drifted from the spec (`issues` says where).",
  RESPONSE_SHAPE_ERROR: 'The answer lacks what the client must read to go on, or is not the answer to the request (another block or transaction): with several nodes the call moves on.',
  CHAIN_ID_MISMATCH: 'The node serves another chain than `chainId`: check `baseUrl` (mainnet is chain 8, testnet 6).',
  NODES_FAILED: "Every node failed the call through every retry: `attempts` holds each node's error.",
  TRANSACTION_WAIT_TIMEOUT: 'The transaction was not final before `timeoutMs`: `lastStatus` and `lastError` say what the nodes last answered.',
};

/** Help by the parameter an `InvalidArgumentError` names. */
const HEADERS = 'A header name is a token (letters, digits and !#$%&\'*+.^_`|~-); a value is text of visible Latin-1 characters, tabs and spaces (no CR, LF or NUL, which fetch refuses on every call). The value is never echoed: it may be a secret.';
const ROUTER = 'An option of several nodes: give it to `fallback([http(a), http(b)], { ... })`, not to one node\'s `http()`.';
const PARAMETER: Readonly<Record<string, string>> = {
  headers: HEADERS,
  apiKey: 'The price service\'s API key: a non-empty string, sent as the `x-api-key` header, so text of visible Latin-1 characters (no CR, LF or NUL; spaces at its ends are dropped). In a page, a placeholder your key proxy replaces (the README says how). It is never echoed: it is a secret.',
  rateLimit: ROUTER,
  hedgeAfterMs: ROUTER,
  onAttempt: ROUTER,
};

/**
 * The long help of a client error, beyond its message: what likely went wrong and what to do. Undefined
 * for anything that is not a `ClientError`.
 *
 * @example
 * ```ts
 * try { await node.v3.getAccount('0x1'); } catch (err) { console.error(err, explain(err)); }
 * ```
 */
export function explain(error: unknown): string | undefined {
  if (!(error instanceof ClientError)) return undefined;
  if (error.code === 'NETWORK_ERROR') {
    const cause = error.cause;
    // By name, not instanceof: the price client rethrows fetch failures as text-only copies.
    if (cause instanceof Error && cause.name === 'TypeError' && BROWSER_FETCH_FAILURES.includes(cause.message)) {
      return 'In a browser, a CORS rejection looks the same as a server that cannot be reached: the server must allow this origin, answer the preflight and allow the request headers; the browser console says which.';
    }
    if (error.message.includes('opaque redirect')) return 'In a browser a redirect hides where it leads (an opaque redirect), and finding out would take a second request: it is refused. Point `baseUrl` where the service moved.';
    if (error.message.includes('another origin')) return 'The answer came from another origin: a custom `fetch` followed a redirect itself. Send the Request it is given as it is (it carries `redirect: "manual"`), or point `baseUrl` where the service moved.';
    if (error.message.endsWith('did not open')) return 'The WebSocket did not open; a browser shows no reason (a refused upgrade, a 429 or 503 included): check the URL, and that the service is up and takes WebSockets.';
    return 'No answer came (connection refused or reset, DNS, TLS): check `baseUrl` and that the service is up; the client retried it.';
  }
  if (error instanceof InvalidArgumentError) {
    if (error.parameter === 'baseUrl') return `${meantBaseUrl(error.message)}A base URL is an absolute http: or https: URL of the service itself, e.g. "https://rpc-mainnet.supra.com" (a local node is "http://localhost:27000"): no credentials (send them with \`headers\`), no query or fragment, and not the API path the client appends (/rpc/v3, /history). In a browser a path such as "/prices" is relative to the page; elsewhere there is no page.`;
    if (error.parameter === 'apiKey' && error.message.includes('is required')) return 'The price service reads only with an API key: pass `apiKey` to createPriceClient (in a page, a placeholder that your key proxy replaces: the README says how).';
    const hint = PARAMETER[error.parameter];
    if (hint) return hint;
    if (error.message.includes('safe integer')) return 'A number above 2^53-1 is not exact in JavaScript: pass a larger value as a bigint or a decimal string.';
    if (error.parameter === 'body') return 'A request body is the JSON text `requestBody` makes from its fields.';
    return `The argument '${error.parameter}' was refused before any request; the message says what it must be.`;
  }
  if (error instanceof HttpError) return STATUS[error.status] ?? (error.status >= 500 ? 'A server error: the client retried the statuses it retries (429, 502, 503, 504 by default).' : 'The service refused the request: its message says why.');
  return CODE[error.code];
}

/**
 * The base URL probably meant, from a refusal's message (`parseBaseUrl` echoes a value only when it holds
 * no secret): `https://` + a host without a scheme (`http://` for a loopback host, a local node or stub),
 * or the URL without the API path it ends in.
 */
function meantBaseUrl(message: string): string {
  const got = /, got ("[^"]*")$/.exec(message);
  if (!got) return '';
  const value = JSON.parse(got[1]!) as string;
  const api = /ends in (\S+),/.exec(message)?.[1];
  const scheme = /^(localhost|127\.[\d.]+|\[::1\])(:|\/|$)/i.test(value) ? 'http' : 'https';
  return `(did you mean "${api ? value.slice(0, -api.length) : `${scheme}://${value}`}"?) `;
}
