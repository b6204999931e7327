/**
 * What a stub's router sees and answers: a parsed request and a response (status, body text, headers).
 * Platform-neutral, so that the same routers answer over loopback HTTP and through the in-memory fetch.
 */

/** Request headers, names lowercased (Node's `IncomingHttpHeaders` fits this). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A parsed request handed to a stub's router. */
export interface StubRequest {
  method: string;
  /** Raw path without the query, as sent. */
  path: string;
  query: URLSearchParams;
  headers: RequestHeaders;
  /** The body as UTF-8 text, for a method that carries one (the node's POST reads); absent for GET. */
  body?: string;
  /** The body was over `MAX_REQUEST_BODY_BYTES`: the transport stopped reading it, and `body` is absent. */
  bodyTooLarge?: boolean;
}

/** A response a router produces: status, body text and extra headers. */
export interface StubResponse {
  status: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A router: must not throw for bad input (it answers 4xx instead). */
export type Router = (req: StubRequest) => StubResponse;

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

/**
 * The answer to an operation of the route table that the stub has neither a handler nor a sample for
 * (`unhandled`): a 501 naming it (`operationId` in the body too), where a 404 would read as a wrong path.
 */
export function notImplemented(operationId: string, extra?: Record<string, unknown>): StubResponse {
  const message = `${operationId} is an operation of the spec, but this stub has no handler for it yet`;
  return errorResponse(501, 'not_implemented', message, { ...extra, operationId });
}

/** The response header that marks an answer as a sample of the operation's 200 schema, not the stub's data. */
const SAMPLE_HEADER = 'x-stub-sample';

/**
 * The answer to an operation of the route table that the stub has no handler for yet: the sample of its
 * 200 schema that `pnpm gen` wrote into `generated/samples.ts` (valid in both readings, the same on every
 * call), marked `x-stub-sample: true`, so an operation added to the spec is answered before its data
 * model is written. An operation without a sample (no JSON 200) is a 501 naming it.
 */
export function unhandled(operationId: string, samples: Readonly<Record<string, unknown>>, extra?: Record<string, unknown>): StubResponse {
  if (!Object.hasOwn(samples, operationId)) return notImplemented(operationId, extra);
  return jsonResponse(200, samples[operationId], { [SAMPLE_HEADER]: 'true' });
}

/** The handler of `operationId` in a stub's table, if it has one (own keys only: an id is no prototype key). */
export function handlerOf<H>(handlers: Readonly<Partial<Record<string, H>>>, operationId: string): H | undefined {
  return Object.hasOwn(handlers, operationId) ? handlers[operationId] : undefined;
}

/** The answer to a method the path is not served with: `allow` is the one it is (GET unless said). */
export function methodNotAllowed(allow = 'GET'): StubResponse {
  return errorResponse(405, 'method_not_allowed', `only ${allow} is served`, undefined, { allow });
}

export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v as string | undefined);
}

/** Splits a request path into decoded segments, as the route matcher does (one rule: `@x/common`'s `matchRoute`). */
export { pathSegments } from '@x/common';

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
