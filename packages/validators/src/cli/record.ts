import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Entry, Har, Header } from 'har-format';
// The CLI only (never the validators) imports @x/client-core, for REDACTED and the paging interpreter: the
// build bundles the CLI with esbuild (scripts/bundle-cli.mjs), which inlines those helpers into
// dist/cli/main.js, so @x/client-core is a devDependency and `npm install @x/validators` pulls none of it.
import { REDACTED, redactText } from '@x/client-core';
import { advances, BodyTooLarge, readPage, readText, sendWithinOrigin, underBase, type PageStart } from '@x/client-core/internal';
import { nodeRpcOperations, paging, routes, type PagedOperationId, type PagingRule, type Route, type RouteService } from '@x/common';
import { DEFAULT_RECORD_DEADLINE_MS, DEFAULT_RECORD_MAX_TOTAL_BYTES, DEFAULT_RECORD_TIMEOUT_MS, MAX_RECORDED_BODY_BYTES, MAX_REDIRECTS } from './options.js';
import { fromCwd } from './paths.js';
import { printable } from './printable.js';

/** Whether the operation table marks `route` as sent once (`x-retry: false`): it changes the chain. */
const changesChain = (route: Route): boolean =>
  route.service === 'node-rpc' && (nodeRpcOperations as Readonly<Record<string, { readonly retry?: false }>>)[route.operationId]?.retry === false;

export type RecordOptions = {
  baseUrl: string;
  address: string;
  outDir: string;
  count: number;
  /**
   * Price service to record too, with the pair to ask for; the key is sent (`x-api-key`) only to URLs
   * under `baseUrl` ({@link underBase}), and recorded redacted.
   */
  price?: { baseUrl: string; pair: string; apiKey: string };
  progress: (line: string) => void;
  fetch?: typeof fetch;
  /** How long one request may take, redirects and body included (default 30 s). */
  timeoutMs?: number;
  /** The largest HAR file written, in bytes, its entries counted as written (default 128 MiB). */
  maxTotalBytes?: number;
  /** How long the whole recording may take, in ms (default 5 minutes). */
  deadlineMs?: number;
  /**
   * Call the operations that change the chain too (the spec's `x-retry: false`: the testnet faucet, which
   * funds `address`); default `false`: they are skipped, named on `progress`.
   */
  fundFromFaucet?: boolean;
  /** The directory a relative `outDir` is in (default: the process's working directory); the file returned is named under `outDir` as given. */
  cwd?: string;
};

/**
 * A recording that could not be completed because of what a server did (no answer in time, a body
 * over the limit, a redirect to another origin, a network error): exit 1, not a crash. Its message
 * may quote the server (a redirect target): show it through {@link printable}.
 */
export class RecordError extends Error {
  override readonly name: string = 'RecordError';
}

/**
 * A recording stopped at one of its limits (`--max-total-bytes`, `--deadline-ms`): what was recorded
 * before it is written (`file`, `entries`; no file when there was nothing), a partial recording.
 */
export class RecordLimitError extends RecordError {
  override readonly name: string = 'RecordLimitError';
  constructor(
    message: string,
    readonly limit: 'max-total-bytes' | 'deadline-ms',
    readonly file: string | undefined,
    readonly entries: number,
  ) {
    super(message);
  }
}

/** A limit of the whole recording reached: record stops there and writes what it has. */
class LimitReached extends Error {
  constructor(
    readonly limit: RecordLimitError['limit'],
    message: string,
  ) {
    super(message);
  }
}

/** `JSON.stringify(har, null, 2)` around the entries, which are written one by one (never one string of them all). */
function harFrame(): { head: string; tail: string } {
  const har: Har = { log: { version: '1.2', creator: { name: 'x-validate record', version: '1' }, pages: [], entries: [] } };
  const text = JSON.stringify(har, null, 2);
  const at = text.indexOf('"entries": []') + '"entries": ['.length;
  return { head: text.slice(0, at), tail: `${text.slice(at)}\n` };
}

/** An entry as `JSON.stringify(har, null, 2)` writes it inside `entries` (JSON text has no raw newline inside a string). */
const entryText = (entry: Entry): string => JSON.stringify(entry, null, 2).replace(/\n/g, '\n      ');
/** What each entry adds to the file besides its text: the `,` before it (`[` for the first) and `\n      `. */
const ENTRY_SEPARATOR_BYTES = 8;
/** What the file's end adds after the last entry: `\n    ` before the `]`. */
const LAST_ENTRY_BYTES = 5;

/** Writes `entries` as a HAR 1.2 file, one entry at a time: the same text as `JSON.stringify(har, null, 2)`. */
async function writeHar(path: string, entries: readonly Entry[]): Promise<void> {
  const { head, tail } = harFrame();
  const file = await open(path, 'w');
  try {
    await file.write(head);
    for (const [i, entry] of entries.entries()) await file.write(`${i === 0 ? '' : ','}\n      ${entryText(entry)}`);
    await file.write(`${entries.length === 0 ? '' : '\n    '}${tail}`);
  } finally {
    await file.close();
  }
}

/** The body as text, refused past `limit` bytes as decoded (counted as it streams, so an endless body stops there). */
async function readBody(response: Response, limit: number, what: string): Promise<{ text: string; bytes: number }> {
  if (!response.body) return { text: '', bytes: 0 };
  try {
    const text = await readText(response.body.getReader(), false, limit);
    // Counted from the text, not encoded again: a recording's size is its UTF-8 length.
    return { text, bytes: Buffer.byteLength(text, 'utf8') };
  } catch (err) {
    if (!(err instanceof BodyTooLarge)) throw err;
    throw new RecordError(`${what}: the response body is larger than ${limit / 1024 / 1024} MiB (${limit} bytes, the most a recorded response may have); nothing recorded`);
  }
}

/**
 * What went wrong in a request, without a stack: `fetch failed (ECONNREFUSED)`; the cause's message
 * where it has no code.
 */
function failure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause as NodeJS.ErrnoException | undefined;
  const why = cause?.code ?? (cause instanceof Error && cause.message ? cause.message : undefined);
  return why ? `${err.message} (${why})` : err.message;
}

/** A recorded exchange; `json` is its body parsed anew on each read (only the text is held: memory stays at the file's size). */
type Exchange = { readonly json: unknown; readonly entry: Entry };
/** A request's query: a `start` may be a u64 (bigint) or a cursor as a listing gave it; an order is a boolean. */
type Query = Record<string, string | number | bigint | boolean | undefined>;

/** A response header of a recorded exchange (names compared without case), or undefined when absent. */
function headerOf(entry: Entry, name: string): string | undefined {
  const lower = name.toLowerCase();
  return entry.response.headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

/**
 * The query of one page of a listing beyond `count`, as the clients' walks send it: its start under the
 * name the rule gives (`start`, or v3 automated transactions' `cursor`), and the rule's order parameter
 * (v3's `ascending`) set for an ascending page: one with a start where starts are predictable (the next
 * start is the last sequence number + 1, an ascending walk's), or an ascending walk of a cursor listing.
 */
function pageQuery(rule: PagingRule, ascending: boolean, start: PageStart | undefined): Query {
  const query: Query = { [rule.start ?? 'start']: start };
  if (rule.order !== undefined && (rule.predictable ? start !== undefined : ascending)) query[rule.order] = true;
  return query;
}

/**
 * Calls every operation of the generated route table whose parameters it can fill, and writes the
 * exchanges as a HAR 1.2 file. The node's operations (the price service's when `price` is given), in table
 * order: a path's `{address}` is `address`; a transaction `{hash}`, a block's `{height}` and `{block_hash}`
 * and an `{event_type}` are read from answers recorded first ({@link PATH_VALUES}: the account's v3
 * transactions, the latest block); a parameter after a listing's path (`.../modules/{module_name}`
 * after `.../modules`) is the name of that listing's first item, the listing recorded first. A listing (an
 * operation of the `paging` table) is recorded a page of `count` (under the rule's page-size name:
 * `count`, or events' `limit`), from the oldest too when its page without start is the newest, and one
 * page past, by its paging rule (a v3 header cursor read from the `x-supra-cursor` header and sent back
 * as the rule's start parameter, with its order parameter as the page it follows had it; the walk stops
 * where the rule ends it). A POST read is sent the JSON body record knows for it ({@link REQUEST_BODIES}:
 * a view of `0x1::timestamp::now_microseconds`; the item of the account's address in the first table keyed
 * by address of the account's recorded resources, {@link tableOf}) and recorded with it (`postData`). Every exchange keeps
 * its response headers. The price operations get the query record knows for them (the table carries
 * none); any other operation is skipped, on `progress`.
 *
 * The whole recording is bounded: the file at most `maxTotalBytes` (its entries counted as written, a
 * body read only as far as what is left), the run at most `deadlineMs` (a request in flight is aborted
 * then). Reaching either stops the recording: the entries recorded before it are written, a valid HAR,
 * and it rejects with a {@link RecordLimitError} naming the limit and the file.
 *
 * @example
 * ```sh
 * x-validate record --base-url http://localhost:27000 --address 0x1 --out specs/recorded
 * ```
 */
export async function record(options: RecordOptions): Promise<{ file: string; entries: number }> {
  const entries: Entry[] = [];
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const n = options.count;
  let step = 0;

  const timeoutMs = options.timeoutMs ?? DEFAULT_RECORD_TIMEOUT_MS;
  const maxTotal = options.maxTotalBytes ?? DEFAULT_RECORD_MAX_TOTAL_BYTES;
  const deadlineMs = options.deadlineMs ?? DEFAULT_RECORD_DEADLINE_MS;
  const deadlineAt = performance.now() + deadlineMs;
  const frame = harFrame();
  /** The bytes of the file so far: its frame, and each entry as written. */
  let total = Buffer.byteLength(frame.head + frame.tail) + LAST_ENTRY_BYTES;
  const tooLarge = (what: string): LimitReached =>
    new LimitReached('max-total-bytes', `the recording reached --max-total-bytes (${maxTotal} bytes in all): the answer to ${what} would take it past`);
  const apiKey = options.price?.apiKey ?? '';
  // A server may echo the key back (in a header or the body): the recording must not hold it.
  const redact = (text: string): string => redactText(text, apiKey);

  /**
   * One request (a GET, or a POST of a JSON body), its same-origin redirects followed here (fetch would
   * carry `x-api-key` to any origin; a POST is not replayed, so its redirect is the answer), within the
   * timeout and the body limit. The key goes with `keyed` requests only to URLs under the price base URL;
   * the exchange recorded is the last one, at the URL that answered.
   */
  const send = async (first: string, keyed = false, body?: unknown): Promise<Exchange> => {
    step++;
    const method = body === undefined ? 'GET' : 'POST';
    const left = deadlineAt - performance.now();
    if (left <= 0) throw new LimitReached('deadline-ms', `the recording reached --deadline-ms (${deadlineMs} ms in all) before ${method} ${first}`);
    // The request's own timeout, or what is left of the whole recording's, whichever ends first.
    const byDeadline = left < timeoutMs;
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const started = new Date();
    const t0 = performance.now();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      byDeadline ? left : timeoutMs,
    );
    const what = `${method} ${first}`;
    let at = first;
    let headers: Record<string, string> = {};
    let response: Response;
    let text: string;
    let bytes: number;
    let answered = false;
    try {
      // Redirects are followed by client-core's rule (within the origin only); each hop is sent here, so
      // that the key goes with it only when it is under the price base URL.
      let refused: string | undefined;
      let hops = 0;
      const hop = (request: Request): Promise<Response> => {
        if (hops++ > 0) options.progress(`[${step}] ${method} ${printable(at, 500)} redirected to ${printable(request.url, 500)}`);
        at = request.url;
        headers = {
          accept: 'application/json',
          ...(sent === undefined ? {} : { 'content-type': 'application/json' }),
          ...(keyed && options.price && underBase(at, options.price.baseUrl) ? { 'x-api-key': apiKey } : {}),
        };
        return doFetch(at, { method, headers, ...(sent === undefined ? {} : { body: sent }), redirect: 'manual', signal: controller.signal });
      };
      response = await sendWithinOrigin(hop, new Request(first, { method }), { maxHops: MAX_REDIRECTS, onRefused: (why) => (refused = why) });
      answered = true;
      if (refused !== undefined) {
        await response.body?.cancel().catch(() => {});
        throw new RecordError(`${what}: ${printable(refused, 300)}; nothing recorded`);
      }
      // A body may take what is left of the total, up to the limit of one answer.
      const room = maxTotal - total;
      if (room < MAX_RECORDED_BODY_BYTES) {
        try {
          ({ text, bytes } = await readBody(response, Math.max(room, 0), what));
        } catch (err) {
          // readBody's own RecordError is the body over the limit: here, what is left of the total.
          if (err instanceof RecordError && !timedOut) throw tooLarge(what);
          throw err;
        }
      } else ({ text, bytes } = await readBody(response, MAX_RECORDED_BODY_BYTES, what));
    } catch (err) {
      if (timedOut && byDeadline) throw new LimitReached('deadline-ms', `the recording reached --deadline-ms (${deadlineMs} ms in all) during ${what}`);
      if (timedOut) throw new RecordError(`${what}: no complete answer within ${timeoutMs} ms (--timeout-ms)`);
      if (err instanceof LimitReached) throw err;
      if (err instanceof RecordError) throw err;
      if (answered) throw new RecordError(`${what}: ${failure(err)}`, { cause: err });
      // No answer at all (refused, no such host, reset): most often the wrong URL, so say which flag gave it.
      const [service, root, flag] = keyed && options.price ? ['the price service', options.price.baseUrl, '--price-base-url'] : ['a node', options.baseUrl, '--base-url'];
      throw new RecordError(`${what}: ${failure(err)}; is ${service} listening at ${root}? Check ${flag}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
    text = redact(text);
    const time = Math.round(performance.now() - t0);
    options.progress(`[${step}] ${method} ${at} -> ${response.status} (${bytes} bytes, ${time} ms)`);
    const u = new URL(at);
    const requestHeaders: Header[] = Object.entries(headers).map(([name, value]) => ({
      name,
      value: name.toLowerCase() === 'x-api-key' ? REDACTED : value,
    }));
    const entry: Entry = {
      startedDateTime: started.toISOString(),
      time,
      request: {
        method,
        url: at,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
        ...(sent === undefined ? {} : { postData: { mimeType: 'application/json', text: sent } }),
        headersSize: -1,
        bodySize: sent === undefined ? 0 : Buffer.byteLength(sent, 'utf8'),
      },
      response: {
        status: response.status,
        statusText: response.statusText,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [...response.headers].map(([name, value]) => ({ name, value: redact(value) })),
        content: { size: bytes, mimeType: response.headers.get('content-type') ?? 'application/octet-stream', text },
        redirectURL: '',
        headersSize: -1,
        bodySize: bytes,
      },
      cache: {},
      timings: { send: 0, wait: time, receive: 0 },
    };
    const cost = Buffer.byteLength(entryText(entry)) + ENTRY_SEPARATOR_BYTES;
    if (total + cost > maxTotal) throw tooLarge(what);
    total += cost;
    entries.push(entry);
    return {
      entry,
      get json(): unknown {
        try {
          return JSON.parse(entry.response.content.text ?? '');
        } catch {
          return undefined; // recorded as is; x-validate reports non-JSON bodies
        }
      },
    };
  };
  /** The URL of a route: its path parameters filled in, the query after. */
  const url = (root: string, route: Route, path: Readonly<Record<string, string>>, query: Query = {}): string => {
    const s = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) s.set(k, String(v));
    const search = s.toString();
    return `${root}${route.path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ''))}${search ? `?${search}` : ''}`;
  };
  /**
   * The next `start` after a page, read by the listing's paging rule (the `count` asked for, as a walk
   * would), or undefined where a walk would stop: the page ends the walk (for a header cursor, v3's
   * `x-supra-cursor`: an absent or empty header), the next start does not advance past `from`, or the
   * page is not readable (record keeps what it got and does not follow).
   */
  const nextStart = (operationId: PagedOperationId, page: Exchange, from?: PageStart): PageStart | undefined => {
    const rule: PagingRule = paging[operationId];
    // A header cursor's page as the clients' transport hands it to the paging interpreter: the items at
    // the rule's pointer (the body itself for the bare arrays, `/data` for events) and the header.
    const body = rule.next.from === 'header' ? { items: at(page.json, rule.items), cursor: headerOf(page.entry, rule.next.name) } : page.json;
    let next: PageStart | undefined;
    try {
      next = readPage(operationId, rule, body, n).next;
    } catch {
      return undefined;
    }
    return next !== undefined && advances(rule, next, from, new Set(from === undefined ? [] : [from])) ? next : undefined;
  };

  const price = options.price;
  const roots: Partial<Record<RouteService, string>> = { 'node-rpc': base, ...(price ? { 'price-history': price.baseUrl.replace(/\/+$/, '') } : {}) };
  /** The first answer of each operation recorded (a listing's: its first page), which later operations read values from. */
  const answers = new Map<string, Exchange>();
  /** Every answer of each operation recorded, in order (a listing's: each page). */
  const pages = new Map<string, Exchange[]>();
  /** Why an operation was not recorded, once it was considered. */
  const skipped = new Map<string, string>();
  let nodeCalls = 0;

  /** The operations being recorded (a value one of them reads cannot come from one recorded after it). */
  const pending = new Set<string>();
  /**
   * The bodies of the 2xx answers of an operation of the node's route table (a listing's: of each page,
   * the first first), recorded first if it was not yet; none when the table has no such operation or it
   * was not recorded.
   */
  const answersOf = async (operationId: string): Promise<unknown[]> => {
    const route = routes.find((r) => r.operationId === operationId && r.service === 'node-rpc');
    if (route === undefined || pending.has(operationId)) return [];
    await recordRoute(route);
    return (pages.get(operationId) ?? []).filter((e) => e.entry.response.status >= 200 && e.entry.response.status <= 299).map((e) => e.json);
  };

  /** Module ABIs read for a table's types, by `address::module`: each read (and recorded) once. */
  const modules = new Map<string, Promise<unknown>>();
  const lookup: Lookup = {
    address: options.address,
    answers: answersOf,
    module: (address, name) => {
      const key = `${address}::${name}`;
      const route = routes.find((r) => r.operationId === 'getModuleV3' && r.service === 'node-rpc');
      if (!modules.has(key)) {
        modules.set(
          key,
          (async () => {
            if (route === undefined) return undefined;
            const { entry, json } = await send(url(base, route, { address, module_name: name }));
            return entry.response.status >= 200 && entry.response.status <= 299 ? json : undefined;
          })(),
        );
      }
      return modules.get(key) as Promise<unknown>;
    },
  };

  /** Records `route` once (its dependencies first); its first answer, or undefined when it cannot be recorded. */
  const recordRoute = async (route: Route): Promise<Exchange | undefined> => {
    const done = answers.get(route.operationId);
    if (done !== undefined || skipped.has(route.operationId)) return done;
    const root = roots[route.service] as string;
    const skip = (why: string): undefined => {
      skipped.set(route.operationId, why);
      options.progress(`skipped ${route.operationId} (${route.path}): ${why}`);
      return undefined;
    };
    // A GET that changes the chain (the faucet funds the account) is no read to make unasked.
    if (!options.fundFromFaucet && changesChain(route)) return skip('it changes the chain (x-retry: false: the faucet funds the account); --fund-from-faucet calls it');
    // A POST sends a JSON body, which record knows for some reads only.
    const bodySource = route.method === 'POST' && Object.hasOwn(REQUEST_BODIES, route.operationId) ? REQUEST_BODIES[route.operationId] : undefined;
    if (route.method !== 'GET' && bodySource === undefined) {
      return skip(`record knows no request body for it (it sends one for ${Object.keys(REQUEST_BODIES).join(', ')} only)`);
    }
    let body: unknown;
    pending.add(route.operationId);
    const path: Record<string, string> = {};
    try {
      for (const name of pathParameters(route.path)) {
        if (name === 'address' && route.service === 'node-rpc') {
          path[name] = options.address;
          continue;
        }
        // A value read from another operation's answer (a transaction's hash, the latest block's height, ...).
        const source = route.service === 'node-rpc' && Object.hasOwn(PATH_VALUES, name) ? PATH_VALUES[name] : undefined;
        if (source !== undefined) {
          const value = await source.find(lookup);
          if (value === undefined) return skip(`no value for {${name}}: ${source.what} was not found in what was recorded`);
          path[name] = value;
          continue;
        }
        // A parameter after a listing's path (`.../modules/{module_name}` after `.../modules`): its first item's name.
        const listing = listingAbove(route, name);
        if (listing === undefined) {
          return skip(`no value for {${name}} (record fills an address, a name from the listing above it, or ${Object.keys(PATH_VALUES).map((k) => `{${k}}`).join(', ')})`);
        }
        const page = await recordRoute(listing);
        if (page === undefined) return skip(`{${name}} is named by ${listing.operationId}, which was not recorded`);
        const value = itemName(at(page.json, paging[listing.operationId].items));
        if (value === undefined) return skip(`no item in the first page of ${listing.operationId} to take {${name}} from`);
        path[name] = value;
      }
      if (bodySource !== undefined) {
        body = await bodySource.body(lookup);
        if (body === undefined) return skip(`no request body: ${bodySource.what} was not found in what was recorded`);
      }
    } finally {
      pending.delete(route.operationId);
    }
    const get1 = async (query?: Query): Promise<Exchange> => {
      const keyed = route.service === 'price-history';
      const exchange = await send(url(root, route, path, query), keyed, body);
      pages.set(route.operationId, [...(pages.get(route.operationId) ?? []), exchange]);
      // The first call to the node decides: a node that answers it 4xx rejects or does not know the address,
      // and a recording of its 4xx answers would validate (they are documented answers) as if the node conformed.
      if (!keyed && nodeCalls++ === 0) {
        const { status } = exchange.entry.response;
        if (status >= 400 && status < 500) {
          throw new RecordError(
            `${exchange.entry.request.method} ${exchange.entry.request.url} answered ${status}: the node rejected or does not know the address ${options.address}; nothing recorded`,
          );
        }
      }
      return exchange;
    };

    if (isPaged(route.operationId)) {
      // A listing: its first page; from the oldest too when a page without start is the newest (a u64
      // start from 0, ascending where the rule names an order parameter; a cursor listing with an order
      // parameter: ascending, without a cursor); then one page past the last, by the paging rule: its
      // next start (a header cursor as the header gave it) under the rule's start name, in the order
      // of the page it follows.
      const rule: PagingRule = paging[route.operationId];
      // The page size under the rule's name for it (`count`, or events' `limit`).
      const size: Query = { [rule.size ?? 'count']: n };
      const first = await get1(size);
      answers.set(route.operationId, first);
      let last = first;
      let from: PageStart | undefined;
      let ascending = false;
      if (rule.newestFirstWithoutStart && rule.next.from !== 'header' && rule.next.encoding === 'u64') {
        from = 0n;
        ascending = true;
        last = await get1({ ...size, ...pageQuery(rule, ascending, from) });
      } else if (rule.newestFirstWithoutStart && rule.order !== undefined) {
        ascending = true;
        last = await get1({ ...size, ...pageQuery(rule, ascending, undefined) });
      }
      const next = nextStart(route.operationId, last, from);
      if (next !== undefined) await get1({ ...size, ...pageQuery(rule, ascending, next) });
      return first;
    }
    if (route.service === 'price-history') {
      const query = Object.hasOwn(priceQueries, route.operationId) ? priceQueries[route.operationId] : undefined;
      if (query === undefined) return skip('record knows no query for it (the route table carries path parameters only)');
      const exchange = await get1(await query());
      answers.set(route.operationId, exchange);
      return exchange;
    }
    const exchange = await get1();
    answers.set(route.operationId, exchange);
    return exchange;
  };

  /**
   * The query of each price operation: the route table carries no query parameters, and theirs are
   * required (the pair, and a range `/history` answers from). The range is the day before the latest
   * price of the pair, hourly, so that it holds candles whatever the service's clock.
   */
  const priceQueries: Readonly<Record<string, () => Promise<Query>>> = price
    ? {
        getLatest: async () => ({ trading_pair: price.pair }),
        getHistory: async () => {
          const latestRoute = routes.find((r) => r.operationId === 'getLatest');
          const latest = latestRoute === undefined ? undefined : await recordRoute(latestRoute);
          const time = (latest?.entry.response.content.text ?? '').match(/"time":"(\d+)"/);
          const end = time ? Number(time[1]) : Date.now();
          return { trading_pair: price.pair, startDate: end - 86_400_000, endDate: end, interval: 3600 };
        },
      }
    : {};

  let stopped: LimitReached | undefined;
  try {
    for (const route of routes) {
      if (roots[route.service] !== undefined) await recordRoute(route);
    }
  } catch (err) {
    if (!(err instanceof LimitReached)) throw err;
    stopped = err;
  }

  const file = join(options.outDir, `${options.address.replace(/[^0-9a-zA-Z]/g, '')}.har`);
  if (stopped !== undefined && entries.length === 0) throw new RecordLimitError(`${stopped.message}; nothing recorded`, stopped.limit, undefined, 0);
  await mkdir(fromCwd(options.cwd, options.outDir), { recursive: true });
  await writeHar(fromCwd(options.cwd, file), entries);
  if (stopped !== undefined) {
    throw new RecordLimitError(`${stopped.message}; wrote the ${entries.length} entries recorded before it to ${file}, a partial recording`, stopped.limit, file, entries.length);
  }
  return { file, entries: entries.length };
}

/** What a table item read needs, as `record` says when it finds none. */
const TABLE =
  "a table keyed by address (a resource field `{ \"handle\": ... }` of the account's recorded v3 or v2 resources, typed `0x1::table::Table<address, V>` by its module's ABI)";

/** A table of the account's, and the item asked of it: the account's own address as the key. */
type TableItem = { readonly handle: string; readonly keyType: string; readonly valueType: string; readonly key: string };

/** The most table fields whose module `record` reads to type them. */
const MAX_TABLE_CANDIDATES = 3;

const tables = new WeakMap<Lookup, Promise<TableItem | undefined>>();

/**
 * The first table of the account's recorded resources (v3, else v2 listing pages) keyed by address: a
 * field whose value is `{ "handle": "0x…" }`, typed `0x1::table::Table<address, V>` (or
 * `table_with_length::TableWithLength`) by the ABI of the resource's module (`getModuleV3`, recorded). A
 * wallet asks such a table for an account: the key is the account recorded. Found once per recording.
 */
function tableOf(lookup: Lookup): Promise<TableItem | undefined> {
  let found = tables.get(lookup);
  if (found === undefined) {
    found = (async () => {
      let tried = 0;
      for (const operationId of ['listResourcesV3', 'listResourcesV2'] as const) {
        for (const page of await lookup.answers(operationId)) {
          const items = at(page, paging[operationId].items);
          for (const item of Array.isArray(items) ? items : []) {
            const type = at(item, ['type']);
            const data = at(item, ['data']);
            const struct = typeof type === 'string' ? /^(0x[0-9a-fA-F]{1,64})::(\w+)::(\w+)/.exec(type) : null;
            if (struct === null || typeof data !== 'object' || data === null) continue;
            for (const [field, value] of Object.entries(data)) {
              const handle = at(value, ['handle']);
              if (typeof handle !== 'string' || Object.keys(value as object).length !== 1) continue;
              if (tried++ >= MAX_TABLE_CANDIDATES) return undefined;
              const types = tableTypes(structField(await lookup.module(struct[1]!, struct[2]!), struct[3]!, field));
              if (types?.[0] === 'address') return { handle, keyType: 'address', valueType: types[1], key: lookup.address };
            }
          }
        }
      }
      return undefined;
    })();
    tables.set(lookup, found);
  }
  return found;
}

/** The type of a struct's field in a module's answer (`abi.structs` a list of `{ name, fields }`, or an object by name). */
function structField(module: unknown, struct: string, field: string): string | undefined {
  const structs = at(module, ['abi', 'structs']);
  const found = Array.isArray(structs) ? structs.find((s) => at(s, ['name']) === struct) : at(structs, [struct]);
  const fields = at(found, ['fields']);
  const type = Array.isArray(fields) ? at(fields.find((f) => at(f, ['name']) === field), ['type']) : undefined;
  return typeof type === 'string' ? type : undefined;
}

/** The key and value types of a table type (`0x1::table::Table<K, V>`), split at the top-level comma; undefined for another type or a generic one. */
function tableTypes(type: string | undefined): [string, string] | undefined {
  const m = type === undefined ? null : /^0x0*1::(?:table::Table|table_with_length::TableWithLength)<(.+)>$/.exec(type.trim());
  if (m === null) return undefined;
  let depth = 0;
  const inner = m[1]!;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) {
      const [k, v] = [inner.slice(0, i).trim(), inner.slice(i + 1).trim()];
      // A type parameter of the struct (T0) would need the resource's type arguments: not asked.
      return /\bT\d+\b/.test(`${k} ${v}`) || k === '' || v === '' ? undefined : [k, v];
    }
  }
  return undefined;
}

/** What the finders of path values and request bodies may ask of a recording in progress. */
type Lookup = {
  /** The account recorded (`--address`). */
  readonly address: string;
  /** The bodies of the 2xx answers of a node operation, recorded first if it was not yet. */
  readonly answers: (operationId: string) => Promise<unknown[]>;
  /** A module's answer (`getModuleV3`), read and recorded once; undefined unless 2xx. */
  readonly module: (address: string, name: string) => Promise<unknown>;
};

/**
 * The JSON body of each POST read `record` sends (the route table carries no bodies): a view of the node's
 * clock, a framework function every node has (`0x1::timestamp::now_microseconds`, no arguments), and a
 * table item of a table the account's resources hold ({@link tableOf}). Any other POST is skipped.
 */
const REQUEST_BODIES: Readonly<Record<string, { readonly what: string; readonly body: (lookup: Lookup) => Promise<unknown> }>> = {
  viewV3: { what: 'a view', body: async () => ({ function: '0x1::timestamp::now_microseconds', type_arguments: [], arguments: [] }) },
  getEventProofsV4: {
    what: "the proofs of the account's newest v3 transaction's first event type",
    body: async ({ answers }) => {
      const page = (await answers('listTransactionsV3'))[0];
      const hash = text(at(page, ['0', 'hash']));
      const type = firstEventType([page]);
      return hash && type && { items: [{ transaction_hash: hash, event_types: [type] }] };
    },
  },
  getTableItemV2: {
    what: TABLE,
    body: async (lookup) => {
      const table = await tableOf(lookup);
      return table && { key_type: table.keyType, value_type: table.valueType, key: table.key };
    },
  },
};

/**
 * Where `record` finds a node path parameter's value, by the parameter's name: in the answers of an
 * operation it records first (through `answers`, which records it and gives the bodies of its 2xx
 * answers, a listing's pages in order). So an operation added to the spec with one of these parameters is
 * recorded with no change here.
 */
const PATH_VALUES: Readonly<Record<string, { readonly what: string; readonly find: (lookup: Lookup) => Promise<string | undefined> }>> = {
  hash: {
    what: "a transaction hash (of the account's newest v3 transaction, else the latest block's first)",
    find: async ({ answers }) =>
      text(at((await answers('listTransactionsV3'))[0], ['0', 'hash'])) ?? text(at((await answers('getBlockTransactionHashesV3'))[0], ['0'])),
  },
  height: { what: "the latest block's height", find: async ({ answers }) => text(at((await answers('getLatestBlockV3'))[0], ['header', 'height'])) },
  block_hash: { what: "the latest block's hash", find: async ({ answers }) => text(at((await answers('getLatestBlockV3'))[0], ['header', 'hash'])) },
  event_type: {
    what: "an event type (of the first event the account's recorded v3 transactions emitted, else the transaction read by hash)",
    find: async ({ answers }) => firstEventType(await answers('listTransactionsV3')) ?? firstEventType(await answers('getTransactionV3')),
  },
  table_handle: { what: TABLE, find: async (lookup) => (await tableOf(lookup))?.handle },
  transaction_hash: {
    what: "a transaction hash (of the account's newest v3 transaction, else the latest block's first)",
    find: async ({ answers }) =>
      text(at((await answers('listTransactionsV3'))[0], ['0', 'hash'])) ?? text(at((await answers('getBlockTransactionHashesV3'))[0], ['0'])),
  },
  event_hash: {
    what: 'an event hash (of the first event of the transaction read in v4)',
    find: async ({ answers }) => {
      const events = at((await answers('getTransactionV4'))[0], ['output', 'Move', 'events']);
      return Array.isArray(events) ? text(at(events[0], ['hash'])) : undefined;
    },
  },
  epoch: { what: "the latest block's epoch", find: async ({ answers }) => text(at((await answers('getLatestBlockV3'))[0], ['header', 'view', 'epoch_id', 'epoch'])) },
};

/** A path value from an answer: a string as it is, a safe non-negative integer in decimal digits; else undefined. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
}

/** The type of the first event of the transactions of these answers (pages of transactions, or one), in order. */
function firstEventType(answers: readonly unknown[]): string | undefined {
  for (const answer of answers) {
    for (const tx of Array.isArray(answer) ? answer : [answer]) {
      const events = at(tx, ['output', 'Move', 'events']);
      const type = Array.isArray(events) ? events.map((e) => at(e, ['type'])).find((t) => typeof t === 'string' && t !== '') : undefined;
      if (typeof type === 'string') return type;
    }
  }
  return undefined;
}

/** The names of a path template's parameters, in order. */
function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] as string);
}

function isPaged(operationId: string): operationId is PagedOperationId {
  return Object.hasOwn(paging, operationId);
}

/**
 * The listing whose path `name`, the last segment of `route`'s path, follows: `.../modules/{module_name}`
 * follows the listing `.../modules` of the same service.
 */
function listingAbove(route: Route, name: string): (Route & { operationId: PagedOperationId }) | undefined {
  const suffix = `/{${name}}`;
  if (!route.path.endsWith(suffix)) return undefined;
  const parent = route.path.slice(0, -suffix.length);
  return routes.find((r): r is Route & { operationId: PagedOperationId } => r.service === route.service && r.method === 'GET' && r.path === parent && isPaged(r.operationId));
}

/** The value at a JSON Pointer's segments, or undefined. */
function at(value: unknown, pointer: readonly string[]): unknown {
  let cur = value;
  for (const segment of pointer) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[segment];
  }
  return cur;
}

/** A string, or the first string field of an object (the spec types a module ABI's `name` only as an object). */
function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return Object.values(value).find((v): v is string => typeof v === 'string');
  return undefined;
}

/**
 * The name of the first item of a listing's items, to ask for that item by name: a `[name, ...]` pair's
 * name (v1), else the item's `type` (a resource), else its `abi.name` or `name` (a module).
 */
function itemName(items: unknown): string | undefined {
  const item: unknown = Array.isArray(items) ? items[0] : undefined;
  if (Array.isArray(item)) return typeof item[0] === 'string' ? item[0] : undefined;
  if (typeof item !== 'object' || item === null) return undefined;
  const o = item as { type?: unknown; abi?: { name?: unknown }; name?: unknown };
  if (typeof o.type === 'string') return o.type;
  return firstString(o.abi?.name) ?? firstString(o.name);
}
