/**
 * Faults on demand: per request through the `x-stub-*` headers (documented in README.md), or queued by a
 * test with `failNext`. Both become the same `Fault`, which either transport (loopback HTTP or the
 * in-memory fetch) carries out.
 */
import { StubArgumentError } from './errors.ts';
import { headerValue, type RequestHeaders } from './router.ts';

/** Header names of the fault protocol. */
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

/** Fault kinds other than a bare status code. */
export const FAULT_KINDS = ['slow', 'reset', 'truncated', 'html', 'not-json'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Default delay of the `slow` fault. */
export const DEFAULT_SLOW_DELAY_MS = 2000;
/** Default `Retry-After` of 429 and 503 faults, in seconds. */
export const DEFAULT_RETRY_AFTER = '1';

export type Fault =
  | { kind: 'status'; status: number; retryAfter: string | undefined }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'reset' | 'truncated' | 'html' }
  | { kind: 'not-json'; contentType: string };

/**
 * A fault a test queues with `failNext`: a 4xx/5xx status, a redirect status (301, 302, 303, 307, 308)
 * with `options.redirectTo`, or one of `FAULT_KINDS`.
 */
export type FaultSpec = number | FaultKind;

/** Fine-tuning of a queued fault. */
export interface FaultOptions {
  /** `Retry-After` of a status fault (default `1` on 429 and 503, none otherwise). */
  retryAfter?: string;
  /** Delay of a `slow` fault in ms (default 2000). */
  delayMs?: number;
  /** `Content-Type` of a `not-json` fault (default `application/json`). */
  contentType?: string;
  /**
   * `Location` of a redirect fault (required with a 3xx), as `x-stub-redirect-to`: `{url}` stands for the
   * request's path and query. Queued, a redirect answers whoever asks, headers or none (a browser's
   * probe of a redirect it hides sends none).
   */
  redirectTo?: string;
}

const statusFault = (status: number, retryAfter: string | undefined): Fault => ({
  kind: 'status',
  status,
  retryAfter: retryAfter ?? (status === 429 || status === 503 ? DEFAULT_RETRY_AFTER : undefined),
});

/** A queued fault, checked as the header protocol checks its values. */
export function faultFromSpec(spec: FaultSpec, options: FaultOptions = {}): Fault {
  if (typeof spec === 'number') {
    if ((REDIRECT_STATUSES as readonly number[]).includes(spec)) {
      const location = options.redirectTo?.trim();
      if (location === undefined || location === '') throw new StubArgumentError('options.redirectTo', `a ${spec} fault needs the Location to answer (a URL or path; {url} stands for the request's path and query)`);
      return { kind: 'redirect', status: spec, location };
    }
    if (!Number.isInteger(spec) || spec < 400 || spec > 599) {
      throw new StubArgumentError('kind', `a status fault must be an integer in 400..599 or a redirect status (${REDIRECT_STATUSES.join(', ')}), got ${spec}`);
    }
    return statusFault(spec, options.retryAfter);
  }
  switch (spec) {
    case 'slow': {
      const delayMs = options.delayMs ?? DEFAULT_SLOW_DELAY_MS;
      if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > 999_999) {
        throw new StubArgumentError('options.delayMs', `must be an integer number of milliseconds (0..999999), got ${delayMs}`);
      }
      return { kind: 'slow', delayMs };
    }
    case 'not-json':
      return { kind: 'not-json', contentType: options.contentType ?? 'application/json' };
    case 'reset':
    case 'truncated':
    case 'html':
      return { kind: spec };
    default:
      throw new StubArgumentError('kind', `must be a 4xx/5xx status, a redirect status or one of ${FAULT_KINDS.join(', ')}, got '${String(spec)}'`);
  }
}

/** The fault a request's headers ask for: none, one (with its `times` and `key`), or why they are malformed. */
export function parseFaultHeaders(headers: RequestHeaders): { fault?: Fault; times?: number; key?: string; error?: string } {
  const raw = headerValue(headers, FAULT_HEADERS.fault)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return {};
  let fault: Fault;
  if (/^[45][0-9]{2}$/.test(raw)) {
    fault = statusFault(Number(raw), headerValue(headers, FAULT_HEADERS.retryAfter));
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

/**
 * The longest `Location` a redirect fault writes, `{url}` expanded: what Node's fetch (undici) reads of
 * a response's headers by default, 16 KiB in all. Each `{url}` adds the whole path and query, so without
 * a bound a client's headers could make a header as long as their product.
 */
export const MAX_LOCATION_LENGTH = 16_384;

/** `location` with each `{url}` replaced by `url`; its length instead when that exceeds `MAX_LOCATION_LENGTH` (measured before it is built). */
export function redirectLocation(location: string, url: string): string | { tooLong: number } {
  const parts = location.split('{url}');
  const length = location.length + (parts.length - 1) * (url.length - '{url}'.length);
  return length > MAX_LOCATION_LENGTH ? { tooLong: length } : parts.join(url);
}

export const BAD_GATEWAY_HTML =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
  '<hr><center>stub-proxy</center>\r\n</body>\r\n</html>\r\n';

export const NOT_JSON_BODY = 'upstream answered with plain text: this is not JSON <ok>';
