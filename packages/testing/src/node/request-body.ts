/**
 * The JSON body of the node's POST reads (view, table item). It is hostile input: the transports stop
 * reading past `MAX_REQUEST_BODY_BYTES` (a 413 here), `JSON.parse` is linear and does not recurse, and what
 * the handlers do with the value follows the Move types asked for, never the JSON's own depth.
 */
import { MAX_REQUEST_BODY_BYTES } from '../engine.ts';
import { errorResponse, headerValue, type StubRequest } from '../router.ts';
import type { Parsed } from './handling.ts';

/** The body as a JSON object, or the 4xx a node gives: 413 too large, 415 not JSON by its type, 400 not a JSON object. */
export function readJsonBody(req: StubRequest): Parsed<Record<string, unknown>> {
  if (req.bodyTooLarge === true) {
    return { ok: false, response: errorResponse(413, 'payload_too_large', `the body is over ${MAX_REQUEST_BODY_BYTES} bytes, the most this node reads`) };
  }
  // The operation's body is application/json: a client that sends it as anything else is told so, not guessed at.
  const type = headerValue(req.headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return { ok: false, response: errorResponse(415, 'unsupported_media_type', `the body must be sent as content-type: application/json, got ${type === undefined ? 'none' : `'${type.slice(0, 100)}'`}`) };
  }
  let value: unknown;
  try {
    value = JSON.parse(req.body ?? '');
  } catch (err) {
    return { ok: false, response: errorResponse(400, 'invalid_json', `the body is not JSON: ${err instanceof Error ? err.message.slice(0, 200) : 'unreadable'}`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, response: errorResponse(400, 'invalid_json', 'the body must be a JSON object') };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
