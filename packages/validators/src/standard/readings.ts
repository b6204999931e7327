import type { JsonSchemaDef, JsonSchemaReadings, ResponseRule } from '../compiled.js';
import { checkProfile, prepareValidator } from '../validate.js';
import { type OperationId, type ResponseBodies, responses as rules } from '../generated/responses.js';
import { type SchemaTypes, schemaTable } from '../generated/standard-table.js';
import { readings } from '../generated/json-schemas.js';
import { type StandardOptions, type StandardValidator, createStandard, fromCheck, subjectOf } from './adapter.js';
import { jsonSchemaFor } from './json-schema.js';

/** Every schema name `@x/validators/standard` exports a Standard Schema for. */
export type SchemaName = keyof SchemaTypes;

function has(table: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

function readingOf(all: JsonSchemaReadings, options: StandardOptions | undefined): JsonSchemaDef {
  checkProfile(options);
  if (options?.profile === 'live') return options.strict ? all.liveStrict : all.live;
  return options?.strict ? all.documentedStrict : all.documented;
}

/**
 * The Standard Schema (and Standard JSON Schema) of a schema in the reading the options choose, the
 * options of `validateX`: `profile` (`'documented'`, the default, or `'live'`), `strict`, `allErrors`,
 * `maxIssues`. Its `validate` gives the issues `validateX(value, options)` gives; its JSON Schema is that
 * reading's (the live one accepts the documented or the observed form where the overlay says; the
 * strict one closes every object that lists its properties). Throws a RangeError for an unknown name
 * and, as `createResponseValidator` does, for a bad `profile` or `maxIssues`.
 *
 * @example
 * ```ts
 * import { standardSchema } from '@x/validators/standard';
 * const LiveTransactions = standardSchema('AccountStatementV2', { profile: 'live', strict: true });
 * ```
 */
export function standardSchema<N extends SchemaName>(name: N, options?: StandardOptions): StandardValidator<SchemaTypes[N]> {
  if (typeof name !== 'string' || !has(schemaTable, name)) {
    throw new RangeError(`unknown schema ${JSON.stringify(name) ?? String(name)}; known schemas: ${Object.keys(schemaTable).join(', ')}`);
  }
  const [validators, json] = schemaTable[name];
  return createStandard<SchemaTypes[N]>(validators, readingOf(json, options), options);
}

/** A status key of an operation (`'200'`, `'default'`), or any number, looked up as `validateResponse` does. */
export type ResponseStatus<Op extends OperationId> = (keyof ResponseBodies[Op] & string) | number;

/** The body type of an operation's status: the documented schema's type where the status is documented. */
export type StandardResponseBody<Op extends OperationId, S> = `${S & (string | number)}` extends keyof ResponseBodies[Op]
  ? ResponseBodies[Op][`${S & (string | number)}` & keyof ResponseBodies[Op]]
  : unknown;

/** Standard Schemas of every documented response, by operationId and status key (see `responses`). */
export type StandardResponses = {
  readonly [Op in OperationId]: { readonly [S in keyof ResponseBodies[Op]]: StandardValidator<ResponseBodies[Op][S]> };
};

/** The rule of a status: the key itself, else (a number) the exact code, its `NXX` range, `default`. */
function ruleOf(op: string, status: string | number): ResponseRule | undefined {
  const table = (rules as Readonly<Record<string, Readonly<Record<string, ResponseRule>>>>)[op]!;
  const keys = typeof status === 'number' ? (Number.isInteger(status) ? [String(status), `${Math.floor(status / 100)}XX`, 'default'] : []) : [status];
  const key = keys.find((k) => has(table, k));
  return key === undefined ? undefined : table[key];
}

const ANY_BODY = (): undefined => undefined;

function responseStandard<T>(op: string, status: string, rule: ResponseRule, options: StandardOptions | undefined): StandardValidator<T> {
  const subject = subjectOf(`${op} ${status}`, options);
  const name = `${op} ${status}`;
  if (rule === null) {
    // Any body: the spec documents the schema `{}` or none.
    checkProfile(options);
    const any: JsonSchemaDef = { name, schema: {}, refs: () => [] };
    return fromCheck<T>(ANY_BODY, (target) => jsonSchemaFor(any, target, subject));
  }
  const def = readingOf(readings[rule.schema.name]!, options);
  const check = prepareValidator(rule.schema, options);
  if (!rule.nullable) return fromCheck<T>(check, (target) => jsonSchemaFor(def, target, subject));
  // `anyOf [X, null]` (the v1 answers): null, or else X.
  const nullable: JsonSchemaDef = { name, schema: { anyOf: [{ $ref: `#/$defs/${def.name}` }, { type: 'null' }] }, refs: () => [def] };
  return fromCheck<T>(
    (value) => (value === null ? undefined : check(value)),
    (target) => jsonSchemaFor(nullable, target, subject),
  );
}

/**
 * The Standard Schema of an operation's response body for a status, as `validateResponse` checks it:
 * the documented schema; `null` too where the spec says `anyOf [X, null]` (v1); any body for a status
 * documented with the schema `{}`. `status` is a status key of the spec (`'200'`, `'default'`) or a number,
 * looked up as `validateResponse` does (the exact code, its `NXX` range, `default`). Throws a RangeError
 * for an unknown operation or an undocumented status, and for a bad `profile` or `maxIssues`.
 *
 * @example
 * ```ts
 * import { standardResponse } from '@x/validators/standard';
 * const LiveAccount = standardResponse('getAccountV1', 200, { profile: 'live' }); // AccountData | null
 * ```
 */
export function standardResponse<Op extends OperationId, S extends ResponseStatus<Op>>(
  operationId: Op,
  status: S,
  options?: StandardOptions,
): StandardValidator<StandardResponseBody<Op, S>> {
  if (typeof operationId !== 'string' || !has(rules, operationId)) {
    throw new RangeError(`unknown operation ${JSON.stringify(operationId) ?? String(operationId)}; known operations: ${Object.keys(rules).join(', ')}`);
  }
  const rule = ruleOf(operationId, status);
  if (rule === undefined) {
    throw new RangeError(
      `status ${JSON.stringify(status) ?? String(status)} is not documented for ${operationId} (documented: ${Object.keys(rules[operationId]).join(', ')})`,
    );
  }
  return responseStandard(operationId, String(status), rule, options);
}

/**
 * The Standard Schema of every documented response in the documented, lenient reading, by operationId
 * and status key: `responses.listTransactionsV2['200']`, `responses.getAccountV1.default` (any body).
 * `standardResponse(operationId, status, options)` gives the other readings.
 *
 * @example
 * ```ts
 * import { responses } from '@x/validators/standard';
 * const result = responses.getAccountV1['200']['~standard'].validate(body); // AccountData | null
 * ```
 */
export const responses: StandardResponses = /* @__PURE__ */ (() => {
  const out: Record<string, Record<string, StandardValidator<unknown>>> = {};
  for (const [op, table] of Object.entries(rules as Readonly<Record<string, Readonly<Record<string, ResponseRule>>>>)) {
    const byStatus: Record<string, StandardValidator<unknown>> = {};
    for (const [status, rule] of Object.entries(table)) byStatus[status] = responseStandard(op, status, rule, undefined);
    out[op] = byStatus;
  }
  return out as unknown as StandardResponses;
})();
