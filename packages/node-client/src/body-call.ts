import { requestBody, type BodyField, type CallOptions, type OperationSpec } from '@x/client-core';
import type { Caller } from './types.js';

/**
 * Calls a POST read (a view call, a table item): its request body `args.body` checked and made JSON by
 * `requestBody` first, so a bad field is a rejection naming it before any request. A module of its own,
 * imported by the actions that send a body only: an app that never does bundles none of it.
 *
 * @example
 * ```ts
 * await callWithBody(http(), 'viewV3', op.viewV3, { body: { function: '0x1::timestamp::now_microseconds' } });
 * ```
 */
export function callWithBody(client: Caller, operationId: string, op: OperationSpec & { readonly body: readonly BodyField[] }, args: Record<string, unknown>, options?: CallOptions): Promise<unknown> {
  try {
    args.body = requestBody(op.body, args.body);
  } catch (err) {
    return Promise.reject(err);
  }
  return client.call(operationId, op, args, options);
}
