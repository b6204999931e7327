/**
 * The command line of `x-validate`: every flag of both commands (parsed with node:util's parseArgs), the
 * environment variable of the price key, and the usage text. The README's CLI section lists every flag
 * defined here (a test holds them equal).
 */

/** The environment variable `x-validate record --price-base-url` reads the price service's API key from. */
export const PRICE_KEY_ENV = 'SUPRA_PRICE_API_KEY';

/**
 * The largest recording `x-validate` reads, in bytes: 256 MiB (twice what `record` writes by default). A
 * recording is parsed whole, so a larger file is refused, named, before it can take the memory.
 */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

/** Flags of `x-validate [flags] <files or dirs>...`. */
export const VALIDATE_OPTIONS = {
  strict: { type: 'boolean', default: false },
  profile: { type: 'string', default: 'documented' },
  'drift-as-warning': { type: 'boolean', default: false },
  format: { type: 'string', default: 'text' },
  'max-file-bytes': { type: 'string', default: String(DEFAULT_MAX_FILE_BYTES) },
  help: { type: 'boolean', short: 'h' },
} as const;

/** How long `x-validate record` waits for one request (its redirects and its whole body included), in ms. */
export const DEFAULT_RECORD_TIMEOUT_MS = 30_000;

/** The largest response body `x-validate record` keeps (bytes as decoded, counted as they arrive): 16 MiB. */
export const MAX_RECORDED_BODY_BYTES = 16 * 1024 * 1024;

/** The most same-origin redirects `x-validate record` follows for one request. */
export const MAX_REDIRECTS = 5;

/**
 * The largest HAR file `x-validate record` writes, in bytes, its entries counted as written: 128 MiB,
 * so that what it writes is held once in memory and read back by `x-validate` under its own limit.
 */
export const DEFAULT_RECORD_MAX_TOTAL_BYTES = 128 * 1024 * 1024;

/** How long a whole `x-validate record` run may take, in ms: 5 minutes. */
export const DEFAULT_RECORD_DEADLINE_MS = 5 * 60_000;

/** Flags of `x-validate record`. */
export const RECORD_OPTIONS = {
  'base-url': { type: 'string' },
  address: { type: 'string' },
  out: { type: 'string', default: '.' },
  count: { type: 'string', default: '5' },
  'price-base-url': { type: 'string' },
  pair: { type: 'string', default: 'btc_usdt' },
  'timeout-ms': { type: 'string', default: String(DEFAULT_RECORD_TIMEOUT_MS) },
  'max-total-bytes': { type: 'string', default: String(DEFAULT_RECORD_MAX_TOTAL_BYTES) },
  'deadline-ms': { type: 'string', default: String(DEFAULT_RECORD_DEADLINE_MS) },
  'fund-from-faucet': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Exit codes: 0 all passed (or recorded), 1 a failure, an unreadable input, a directory with no
 * recording, or a recording that could not be completed (the node rejected the address, or did not
 * answer), 2 bad usage or a crash.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const USAGE = `Usage:
  x-validate [--strict] [--profile documented|live] [--drift-as-warning]
             [--format text|json|junit] [--max-file-bytes N] <files or dirs>...
      Validates recorded responses (HAR 1.2 files, or JSON envelopes
      { "request": { "method", "url" }, "response": { "status", "headers"?, "body" } }) against
      the Supra node RPC and price-history specs. Every issue is classed "known drift" (what live
      nodes are observed to send: passes the live reading, names the overlay actions) or
      "violation" (fits neither reading), and shows the offending value (shortened, secrets
      redacted). Default profile documented: exit 1 on any failure (known drift only warns
      with --drift-as-warning). --profile live: exit 1 only on violations. Exit 1 when an
      input cannot be read or a directory given holds no recording; unknown paths are skipped.
      A request that sends a v3 header cursor no earlier response of the same recording gave in
      its x-supra-cursor header fails. Below a directory given, symbolic links that lead out of
      it and files that are not regular are skipped, and each directory is read once. A
      recording larger than N bytes (--max-file-bytes, default ${DEFAULT_MAX_FILE_BYTES}, 256 MiB) is
      not read: an error naming it and the limit.
  x-validate record --base-url URL --address ADDRESS [--out DIR] [--count N]
                    [--price-base-url URL [--pair PAIR]] [--timeout-ms MS]
                    [--max-total-bytes N] [--deadline-ms MS] [--fund-from-faucet]
      Calls every GET operation of the specs' route table whose parameters it can fill, and
      writes a HAR file to DIR (default .): the node's operations, and the price service's when
      --price-base-url is given (key from $${PRICE_KEY_ENV}, required then; sent only under that
      URL, recorded redacted). It fills a path's {address} with ADDRESS, and a parameter that
      follows a listing's path (.../modules/{module_name} after .../modules) with the name of that
      listing's first item. A listing (an operation of the paging table) is asked N items (default
      5), from the oldest too where its page without start is the newest (start 0, or a v3 cursor
      listing's ascending=true), and one page past, by its paging rule (a v3 x-supra-cursor header
      sent back as the rule's start parameter, ascending as the page it follows; an empty or absent
      header ends it). A POST read is sent the body record knows for it: the view of
      0x1::timestamp::now_microseconds, and the table item (key ADDRESS) of the first table keyed by
      address in the account's recorded resources (its types from its module's ABI, also recorded).
      The price operations get PAIR (default btc_usdt) and the day before its latest
      price; no other query parameter is sent. Response headers are recorded. An operation it
      cannot fill is skipped, named on stderr. So is a GET that changes the chain (the spec's
      x-retry: false: the testnet faucet, which would fund ADDRESS), unless --fund-from-faucet
      is given. Each request must end within MS (default
      ${DEFAULT_RECORD_TIMEOUT_MS}) with a body of at most 16 MiB; only redirects to the same origin are followed
      (at most ${MAX_REDIRECTS}). The whole recording is bounded too: the HAR file at most N bytes
      (--max-total-bytes, default ${DEFAULT_RECORD_MAX_TOTAL_BYTES}, 128 MiB) and the run at most MS
      (--deadline-ms, default ${DEFAULT_RECORD_DEADLINE_MS}, 5 minutes). On reaching either it stops, writes
      the entries recorded so far (a valid HAR, a partial recording; nothing when there are none),
      and exits 1 naming the limit. Progress goes to stderr.
      A 4xx answer to the first account call (the node rejects or does not know ADDRESS) ends
      the recording: exit 1, nothing written.
  x-validate --help | x-validate record --help
Exit codes: 0 passed (or recorded), 1 a failure, an unreadable input, a directory with no
recording or a failed recording, 2 bad usage.`;
