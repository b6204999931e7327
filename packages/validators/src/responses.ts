import type { ResponseValidator } from '@x/common';
import type { ResponseRule } from './compiled.js';
import type { Issue } from './issues.js';
import { type ValidateOptions, type ValidationResult, checkProfile, issueLimit, runValidator } from './validate.js';
import { type OperationId, type ResponseBodies, responses } from './generated/responses.js';

export type { OperationId, ResponseBodies };

/**
 * The body type of an operation's response with status `S`: the documented schema's type when `S` is a
 * literal status the spec documents, otherwise `unknown`.
 */
export type ResponseBody<Op extends OperationId, S extends number> = `${S}` extends keyof ResponseBodies[Op]
  ? ResponseBodies[Op][`${S}` & keyof ResponseBodies[Op]]
  : unknown;

// The injected validator of `createNodeClient({ validator })` and `createPriceClient({ validator })`:
// declared once, in @x/common, which the clients share, so neither side depends on the other.
export type { ResponseValidator };

function has<K extends string>(table: Readonly<Record<K, unknown>>, key: string): key is K {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/**
 * The rule of a status: the exact code, else its `NXX` range, else `default`; `undefined` if
 * undocumented. Looked up key by key, without a list of candidates: a valid response allocates nothing
 * here (`pnpm bench`'s validate.alloc row).
 */
function ruleOf(table: Readonly<Record<string, ResponseRule>>, status: number): ResponseRule | undefined {
  if (!Number.isInteger(status)) return undefined;
  const exact = String(status);
  if (has(table, exact)) return table[exact];
  const range = `${Math.floor(status / 100)}XX`;
  if (has(table, range)) return table[range];
  return has(table, 'default') ? table.default : undefined;
}

function failure(keyword: string, message: string): { ok: false; issues: readonly Issue[] } {
  return { ok: false, issues: [{ path: '', keyword, message }] };
}

/**
 * Validates the body of an operation's response against the spec, for every operation of both specs
 * (node `getAccountV1` ... `listTransactionsV2`, `getAccountV3` ... `getResourceV3`, price `getHistory`,
 * `getLatest`).
 *
 * - `null` is valid where the spec says `anyOf [X, null]` (the v1 answers).
 * - A status the spec documents only with the schema `{}` (or a `default` response without schema)
 *   accepts any body.
 * - It never throws for bad input: an unknown `operationId` gives one issue with keyword `operationId`,
 *   a status the operation does not document (no exact code, no `NXX` range, no `default`) one issue with
 *   keyword `status`; both at path `''`.
 *
 * @example
 * ```ts
 * import { validateResponse } from '@x/validators';
 * const res = await fetch('http://localhost:27000/rpc/v2/accounts/0x1/transactions');
 * const result = validateResponse('listTransactionsV2', 200, await res.json(), { strict: true });
 * if (!result.ok) console.error(result.issues);
 * ```
 */
export function validateResponse<Op extends OperationId, S extends number>(
  operationId: Op,
  status: S,
  body: unknown,
  options?: ValidateOptions,
): ValidationResult<ResponseBody<Op, S>>;
export function validateResponse(
  operationId: string,
  status: number,
  body: unknown,
  options?: ValidateOptions,
): ValidationResult<unknown>;
export function validateResponse(
  operationId: string,
  status: number,
  body: unknown,
  options?: ValidateOptions,
): ValidationResult<unknown> {
  // A bad profile throws whatever the body, as the record validators do (not only when a rule runs).
  checkProfile(options);
  if (!has(responses, operationId)) {
    return failure(
      'operationId',
      `unknown operation ${JSON.stringify(operationId)}; known operations: ${Object.keys(responses).join(', ')}`,
    );
  }
  const table = responses[operationId];
  const rule = ruleOf(table, status);
  if (rule === undefined) {
    return failure(
      'status',
      `status ${String(status)} is not documented for ${operationId} (documented: ${Object.keys(table).join(', ')})`,
    );
  }
  if (rule === null || (rule.nullable && body === null)) return { ok: true, value: body };
  return runValidator(rule.schema, body, options);
}

/**
 * A response validator to inject into the clients, which validate every success body with it:
 * `createNodeClient({ validator: createResponseValidator({ strict: true }) })`. It behaves as
 * {@link validateResponse} with the given options and never throws (a bad `maxIssues` or `profile`
 * throws a RangeError here, when the validator is created).
 *
 * Its default profile is `'live'`, unlike `validateResponse`'s: the clients talk to real nodes, which
 * send some records in another form than the documents (see `specs/node-rpc.live-overlay.yaml`); pass
 * `{ profile: 'documented' }` to hold a service to the documents.
 *
 * @example
 * ```ts
 * import { createNodeClient } from '@x/node-client';
 * import { createResponseValidator } from '@x/validators';
 * const node = createNodeClient({ validator: createResponseValidator() }); // live profile, lenient
 * const strictDocs = createResponseValidator({ profile: 'documented', strict: true });
 * ```
 */
export function createResponseValidator(options: ValidateOptions = {}): ResponseValidator {
  const fixed: ValidateOptions = { ...options, profile: options.profile === undefined ? 'live' : options.profile };
  issueLimit(fixed);
  checkProfile(fixed);
  return (operationId, status, body) => {
    const result = validateResponse(operationId, status, body, fixed);
    return result.ok ? { ok: true } : result;
  };
}
