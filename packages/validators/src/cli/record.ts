import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Entry, Har, Header } from 'har-format';
// The CLI only (never the validators) imports @x/client-core, for REDACTED and the paging interpreter: the
// build bundles the CLI with esbuild (scripts/bundle-cli.mjs), which inlines those helpers into
// dist/cli/main.js, so @x/client-core is a devDependency and `npm install @x/validators` pulls none of it.
import { advances, BodyTooLarge, readPage, readText, REDACTED, redactText, sendWithinOrigin, underBase, type PageStart } from '@x/client-core';
import { paging, type PagedOperationId } from '@x/common';
import { routes } from '@x/common';
import { DEFAULT_RECORD_TIMEOUT_MS, MAX_RECORDED_BODY_BYTES, MAX_REDIRECTS } from './options.js';
import { printable } from './printable.js';

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
};

/**
 * A recording that could not be completed because of what a server did (no answer in time, a body
 * over the limit, a redirect to another origin, a network error): exit 1, not a crash. Its message
 * may quote the server (a redirect target): show it through {@link printable}.
 */
export class RecordError extends Error {
  override readonly name = 'RecordError';
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

type Exchange = { json: unknown; entry: Entry };
/** A request's query: a `start` may be a u64 (bigint) or a cursor as a listing gave it. */
type Query = Record<string, string | number | bigint | undefined>;

/**
 * Calls every account operation of both node versions for one address, one page past each cursor,
 * (and the price operations when asked), and writes the exchanges as a HAR 1.2 file.
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
  const apiKey = options.price?.apiKey ?? '';
  // A server may echo the key back (in a header or the body): the recording must not hold it.
  const redact = (text: string): string => redactText(text, apiKey);

  /**
   * One GET, its same-origin redirects followed here (fetch would carry `x-api-key` to any origin),
   * within the timeout and the body limit. The key goes with `keyed` requests only to URLs under the
   * price base URL; the exchange recorded is the last one, at the URL that answered.
   */
  const get = async (first: string, keyed = false): Promise<Exchange> => {
    step++;
    const started = new Date();
    const t0 = performance.now();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const what = `GET ${first}`;
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
      const send = (request: Request): Promise<Response> => {
        if (hops++ > 0) options.progress(`[${step}] GET ${printable(at, 500)} redirected to ${printable(request.url, 500)}`);
        at = request.url;
        headers = { accept: 'application/json', ...(keyed && options.price && underBase(at, options.price.baseUrl) ? { 'x-api-key': apiKey } : {}) };
        return doFetch(at, { headers, redirect: 'manual', signal: controller.signal });
      };
      response = await sendWithinOrigin(send, new Request(first), { maxHops: MAX_REDIRECTS, onRefused: (why) => (refused = why) });
      answered = true;
      if (refused !== undefined) {
        await response.body?.cancel().catch(() => {});
        throw new RecordError(`${what}: ${printable(refused, 300)}; nothing recorded`);
      }
      ({ text, bytes } = await readBody(response, MAX_RECORDED_BODY_BYTES, what));
    } catch (err) {
      if (timedOut) throw new RecordError(`${what}: no complete answer within ${timeoutMs} ms (--timeout-ms)`);
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
    options.progress(`[${step}] GET ${at} -> ${response.status} (${bytes} bytes, ${time} ms)`);
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      // recorded as is; x-validate reports non-JSON bodies
    }
    const u = new URL(at);
    const requestHeaders: Header[] = Object.entries(headers).map(([name, value]) => ({
      name,
      value: name.toLowerCase() === 'x-api-key' ? REDACTED : value,
    }));
    const entry: Entry = {
      startedDateTime: started.toISOString(),
      time,
      request: {
        method: 'GET',
        url: at,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
        headersSize: -1,
        bodySize: 0,
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
    entries.push(entry);
    return { json, entry };
  };
  /** The URL of an operation, from the generated routes: path parameters filled in, the query after. */
  const url = (root: string, operationId: string, path: Record<string, string>, query: Query = {}): string => {
    const route = routes.find((r) => r.operationId === operationId);
    if (!route) throw new Error(`x-validate record: no route for ${operationId}`);
    const s = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) s.set(k, String(v));
    const search = s.toString();
    return `${root}${route.path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ''))}${search ? `?${search}` : ''}`;
  };
  const address = { address: options.address };
  /**
   * The next `start` after a page, read by the listing's paging rule (the `count` asked for, as a walk
   * would), or undefined where a walk would stop: the page ends the walk, the next start does not
   * advance past `from`, or the body is not readable (record keeps what it got and does not follow).
   */
  const nextStart = (operationId: PagedOperationId, body: unknown, from?: PageStart): PageStart | undefined => {
    const rule = paging[operationId];
    let next: PageStart | undefined;
    try {
      next = readPage(operationId, rule, body, n).next;
    } catch {
      return undefined;
    }
    return next !== undefined && advances(rule, next, from, new Set(from === undefined ? [] : [from])) ? next : undefined;
  };

  for (const v of ['V1', 'V2'] as const) {
    const op = (name: string, query?: Query, path: Record<string, string> = address): string => url(base, `${name}${v}`, path, query);
    const account = await get(op('getAccount'));
    // The first call decides: a node that answers it 4xx rejects or does not know the address, and a
    // recording of its 4xx answers would validate (they are documented answers) as if the node conformed.
    if (v === 'V1') {
      const { status } = account.entry.response;
      if (status >= 400 && status < 500) {
        throw new RecordError(
          `GET ${account.entry.request.url} answered ${status}: the node rejected or does not know the address ${options.address}; nothing recorded`,
        );
      }
    }
    // Transactions and coin transactions: the most recent page, then ascending from 0 and one page past it.
    for (const list of ['listTransactions', 'listCoinTransactions'] as const) {
      await get(op(list, { count: n }));
      const asc = await get(op(list, { count: n, start: 0 }));
      const next = nextStart(`${list}${v}`, asc.json, 0n);
      if (next !== undefined) await get(op(list, { count: n, start: next }));
    }
    // Modules and resources: a page, one page past it, and one item by name.
    for (const [kind, list, one, param] of [
      ['modules', 'listModules', 'getModule', 'module_name'],
      ['resources', 'listResources', 'getResource', 'resource_type'],
    ] as const) {
      const page = (await get(op(list, { count: n }))).json;
      const next = nextStart(`${list}${v}`, page);
      if (next !== undefined) await get(op(list, { count: n, start: next }));
      const name = first(v, kind, page);
      if (name !== undefined) await get(op(one, undefined, { ...address, [param]: name }));
    }
  }
  if (options.price) {
    const p = options.price;
    const pb = p.baseUrl.replace(/\/+$/, '');
    await get(url(pb, 'getLatest', {}, { trading_pair: p.pair }), true);
    const latest = (entries.at(-1)?.response.content.text ?? '').match(/"time":"(\d+)"/);
    const end = latest ? Number(latest[1]) : Date.now();
    await get(url(pb, 'getHistory', {}, { trading_pair: p.pair, startDate: end - 86_400_000, endDate: end, interval: 3600 }), true);
  }

  const har: Har = {
    log: { version: '1.2', creator: { name: 'x-validate record', version: '1' }, pages: [], entries },
  };
  await mkdir(options.outDir, { recursive: true });
  const file = join(options.outDir, `${options.address.replace(/[^0-9a-zA-Z]/g, '')}.har`);
  await writeFile(file, `${JSON.stringify(har, null, 2)}\n`);
  return { file, entries: entries.length };
}

/** A module name: the spec types the ABI's `name` only as an object, so take a string or its first string field. */
function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return Object.values(value).find((v): v is string => typeof v === 'string');
  return undefined;
}

/** The first item's name of a module or resource listing (to get that item by name). */
function first(v: 'V1' | 'V2', kind: 'modules' | 'resources', page: unknown): string | undefined {
  const p = page as Record<string, unknown> | null;
  if (!p) return undefined;
  if (v === 'V1') {
    const list = (kind === 'modules' ? p.Modules : p.Resources) as { modules?: [string, unknown][]; resource?: [string, unknown][] } | undefined;
    const items = (kind === 'modules' ? list?.modules : list?.resource) ?? [];
    return items[0]?.[0];
  }
  if (kind === 'modules') {
    const modules = (p.modules as { abi?: { name?: unknown } }[] | undefined) ?? [];
    return firstString(modules[0]?.abi?.name);
  }
  const resources = (p.resources as { type?: string }[] | undefined) ?? [];
  return resources[0]?.type;
}
