/**
 * The HTTP plumbing both stubs share: a loopback-only `node:http` server, a request log, fault injection
 * driven by `x-stub-*` request headers, and a `close()` that ends every socket (slow requests included).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One request as the stub received it (nothing redacted: client tests assert what was sent). */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent, e.g. `/rpc/v2/accounts/0x1/transactions?count=5`. */
  url: string;
  /** Request headers, names lowercased (Node's `IncomingHttpHeaders`). */
  headers: IncomingHttpHeaders;
}

/** What every stub start function returns. */
export interface StubHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in arrival order (faulted ones too). Live array; `reset()` empties it. */
  readonly requests: RecordedRequest[];
  /** Empties `requests` and forgets the attempt counters of `x-stub-fault-times`. */
  reset(): void;
  /** Stops listening and destroys every open socket, pending slow responses included. */
  close(): Promise<void>;
}

/** A parsed request handed to a stub's router. */
export interface StubRequest {
  method: string;
  /** Raw path without the query, as sent. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** A response a router produces: status, body text and extra headers. */
export interface StubResponse {
  status: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Loopback addresses the stubs may bind to. Anything else is refused. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

export function jsonResponse(status: number, value: unknown, headers?: Record<string, string>): StubResponse {
  return headers === undefined
    ? { status, body: JSON.stringify(value), contentType: 'application/json' }
    : { status, body: JSON.stringify(value), contentType: 'application/json', headers };
}

/** A JSON body already serialized (used where a u64 above 2^53 must be written exactly). */
export function rawJsonResponse(status: number, body: string): StubResponse {
  return { status, body, contentType: 'application/json' };
}

/** The error body of both stubs: `{ error: <code>, message: <text> }` (plus `extra` fields). */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  extra?: Record<string, unknown>,
  headers?: Record<string, string>,
): StubResponse {
  return jsonResponse(status, { ...extra, error: code, message }, headers);
}

// ---------------------------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------------------------

/** Header names of the fault protocol (documented in README.md). */
export const FAULT_HEADERS = {
  fault: 'x-stub-fault',
  times: 'x-stub-fault-times',
  key: 'x-stub-fault-key',
  retryAfter: 'x-stub-retry-after',
  delayMs: 'x-stub-delay-ms',
  contentType: 'x-stub-content-type',
  redirectTo: 'x-stub-redirect-to',
} as const;

/** Redirect statuses the fault protocol answers (with `Location` from `x-stub-redirect-to`). */
export const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;

/**
 * Request headers a browser may send cross-origin (the preflight's `Access-Control-Allow-Headers`): the
 * price API key, every fault header and the node stub's `x-stub-shapes`. Any other custom header fails the preflight, as it would on a
 * server that does not list it.
 */
export const CORS_ALLOWED_HEADERS = ['x-api-key', 'content-type', ...Object.values(FAULT_HEADERS), 'x-stub-shapes'] as const;

/**
 * Sent with every answer (faults included; a `reset` writes nothing): any origin may read the answers
 * (no credentials are involved), and `Retry-After` is exposed so that a browser client can honour it.
 */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After',
};

/** The answer to a CORS preflight (`OPTIONS`), on any path. */
const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
  // 0: not cached, so that every preflight reaches the stub and tests can see it.
  'access-control-max-age': '0',
};

/** Fault kinds other than a bare status code. */
export const FAULT_KINDS = ['slow', 'reset', 'truncated', 'html', 'not-json'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Default delay of the `slow` fault. */
export const DEFAULT_SLOW_DELAY_MS = 2000;
/** Default `Retry-After` of 429 and 503 faults, in seconds. */
export const DEFAULT_RETRY_AFTER = '1';

type Fault =
  | { kind: 'status'; status: number; retryAfter: string | undefined }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'reset' | 'truncated' | 'html' }
  | { kind: 'not-json'; contentType: string };

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Parses the fault headers: no fault, a fault, or a 400 for a malformed fault request. */
function parseFault(headers: IncomingHttpHeaders): { fault?: Fault; times?: number; key?: string; error?: string } {
  const raw = headerValue(headers, FAULT_HEADERS.fault)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return {};
  let fault: Fault;
  if (/^[45][0-9]{2}$/.test(raw)) {
    const status = Number(raw);
    const retryAfter =
      headerValue(headers, FAULT_HEADERS.retryAfter) ?? (status === 429 || status === 503 ? DEFAULT_RETRY_AFTER : undefined);
    fault = { kind: 'status', status, retryAfter };
  } else if ((REDIRECT_STATUSES as readonly number[]).includes(Number(raw)) && /^3[0-9]{2}$/.test(raw)) {
    const location = headerValue(headers, FAULT_HEADERS.redirectTo)?.trim();
    if (location === undefined || location === '') {
      return { error: `a ${raw} fault needs ${FAULT_HEADERS.redirectTo} (a URL or path; {url} stands for the request's path and query)` };
    }
    fault = { kind: 'redirect', status: Number(raw), location };
  } else if (raw === 'slow') {
    const d = headerValue(headers, FAULT_HEADERS.delayMs);
    if (d !== undefined && !/^[0-9]{1,6}$/.test(d.trim())) {
      return { error: `${FAULT_HEADERS.delayMs} must be an integer number of milliseconds (0..999999)` };
    }
    fault = { kind: 'slow', delayMs: d === undefined ? DEFAULT_SLOW_DELAY_MS : Number(d.trim()) };
  } else if (raw === 'not-json') {
    fault = { kind: 'not-json', contentType: headerValue(headers, FAULT_HEADERS.contentType) ?? 'application/json' };
  } else if (raw === 'reset' || raw === 'truncated' || raw === 'html') {
    fault = { kind: raw };
  } else {
    return { error: `unknown ${FAULT_HEADERS.fault} value '${raw}': use a 4xx/5xx status, ${REDIRECT_STATUSES.join('/')} with ${FAULT_HEADERS.redirectTo}, ${FAULT_KINDS.join(', ')}` };
  }
  const timesRaw = headerValue(headers, FAULT_HEADERS.times);
  let times: number | undefined;
  if (timesRaw !== undefined) {
    if (!/^[1-9][0-9]{0,5}$/.test(timesRaw.trim())) {
      return { error: `${FAULT_HEADERS.times} must be a positive integer` };
    }
    times = Number(timesRaw.trim());
  }
  const key = headerValue(headers, FAULT_HEADERS.key);
  return key === undefined ? (times === undefined ? { fault } : { fault, times }) : { fault, times, key };
}

const BAD_GATEWAY_HTML =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
  '<hr><center>stub-proxy</center>\r\n</body>\r\n</html>\r\n';

const NOT_JSON_BODY = 'upstream answered with plain text: this is not JSON <ok>';

// ---------------------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------------------

export interface StartOptions {
  port: number;
  host?: string;
  /** Routes a request (after fault handling). Must not throw for bad input: answer 4xx instead. */
  route: (req: StubRequest) => StubResponse;
}

function write(res: ServerResponse, r: StubResponse): void {
  const body = Buffer.from(r.body, 'utf8');
  res.writeHead(r.status, {
    'content-type': r.contentType ?? 'application/json',
    'content-length': String(body.length),
    ...CORS_HEADERS,
    ...r.headers,
  });
  res.end(body);
}

function methodNotAllowed(): StubResponse {
  return errorResponse(405, 'method_not_allowed', 'only GET is served', undefined, { allow: 'GET' });
}

export async function startStubServer(options: StartOptions): Promise<StubHandle> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new Error(`stub servers listen on loopback only (127.0.0.1, ::1, localhost), not '${host}'`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new RangeError(`port must be an integer in 0..65535, got ${options.port}`);
  }
  const requests: RecordedRequest[] = [];
  const attempts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;

  const route = (req: StubRequest): StubResponse => {
    if (req.method !== 'GET') return methodNotAllowed();
    try {
      return options.route(req);
    } catch (err) {
      // A bug in the stub, not a fault on demand: still answer, and say what broke.
      return errorResponse(500, 'stub_internal_error', err instanceof Error ? err.message : String(err));
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    requests.push({ method, url: rawUrl, headers: { ...req.headers } });
    if (method === 'OPTIONS') {
      // A CORS preflight (it carries header names, never their values, so no fault applies to it).
      res.writeHead(204, PREFLIGHT_HEADERS).end();
      return;
    }
    const q = rawUrl.indexOf('?');
    const stubReq: StubRequest = {
      method,
      path: q === -1 ? rawUrl : rawUrl.slice(0, q),
      query: new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1)),
      headers: req.headers,
    };

    const parsed = parseFault(req.headers);
    if (parsed.error !== undefined) {
      write(res, errorResponse(400, 'bad_fault_request', parsed.error));
      return;
    }
    let fault = parsed.fault;
    if (fault !== undefined && parsed.times !== undefined) {
      const key = parsed.key ?? `${headerValue(req.headers, FAULT_HEADERS.fault)?.trim().toLowerCase()} ${method} ${rawUrl}`;
      const seen = attempts.get(key) ?? 0;
      attempts.set(key, seen + 1);
      if (seen >= parsed.times) fault = undefined;
    }

    if (fault === undefined) {
      write(res, route(stubReq));
      return;
    }
    switch (fault.kind) {
      case 'status': {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
        write(
          res,
          errorResponse(fault.status, 'stub_fault', `fault injected on demand: HTTP ${fault.status}`, undefined, headers),
        );
        return;
      }
      case 'redirect': {
        const location = fault.location.split('{url}').join(rawUrl);
        // no-store: a browser caches a 301 or 308, and would replay it without asking the stub again.
        const headers = { location, 'cache-control': 'no-store' };
        write(res, errorResponse(fault.status, 'stub_redirect', `redirect injected on demand: HTTP ${fault.status}`, undefined, headers));
        return;
      }
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed && !closing) write(res, route(stubReq));
        }, fault.delayMs);
        timers.add(timer);
        // The client gave up (abort/timeout): drop the pending answer.
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'reset':
        req.socket.destroy();
        return;
      case 'truncated': {
        const r = route(stubReq);
        const body = Buffer.from(r.body, 'utf8');
        res.writeHead(r.status, {
          'content-type': r.contentType ?? 'application/json',
          'content-length': String(body.length + 100),
          ...CORS_HEADERS,
        });
        // Half the body, then FIN: the client sees a premature end of the announced length.
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.end());
        return;
      }
      case 'html':
        write(res, { status: 502, body: BAD_GATEWAY_HTML, contentType: 'text/html; charset=utf-8' });
        return;
      case 'not-json':
        write(res, { status: 200, body: NOT_JSON_BODY, contentType: fault.contentType });
        return;
    }
  };

  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(options.port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    requests,
    reset() {
      requests.length = 0;
      attempts.clear();
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing = true;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
}

/** Splits a request path into decoded segments; `undefined` when a segment is not valid percent-encoding. */
export function pathSegments(path: string): string[] | undefined {
  const parts = path.split('/').slice(1);
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

/**
 * Reads one query parameter: `undefined` when absent, the string when given once, or `{ repeated }` when
 * it appears more than once (the stubs answer 400 to repeated parameters rather than guess).
 */
export function queryParam(query: URLSearchParams, name: string): string | undefined | { repeated: true } {
  const all = query.getAll(name);
  if (all.length === 0) return undefined;
  if (all.length > 1) return { repeated: true };
  return all[0];
}
