/**
 * `@x/validators/standard`: every schema and every documented response of the Supra node RPC and
 * price-history specs as a [Standard Schema](https://standardschema.dev) v1 that is also a Standard
 * JSON Schema v1, for libraries that accept one (Hono's `sValidator`, tRPC, TanStack Form, vitest's
 * `expect.schemaMatching`, ...). `validate` runs the same compiled validators as `validateX`; nothing is
 * compiled at run time. A separate entry: the main entry carries none of it.
 *
 * @example
 * ```ts
 * import { AccountData, standardSchema, responses } from '@x/validators/standard';
 * AccountData['~standard'].validate({ sequence_number: 1, authentication_key: '0x1' }); // { value }
 * standardSchema('TransactionOutput', { profile: 'live', strict: true });
 * responses.listTransactionsV2['200']['~standard'].jsonSchema.output({ target: 'draft-07' });
 * ```
 * @packageDocumentation
 * @module @x/validators/standard
 */
export * from './generated/standard.js';
export type { SchemaTypes } from './generated/standard-table.js';
export { VENDOR, type StandardOptions, type StandardValidator } from './standard/adapter.js';
export {
  responses,
  standardResponse,
  standardSchema,
  type ResponseStatus,
  type SchemaName,
  type StandardResponseBody,
  type StandardResponses,
} from './standard/readings.js';
export { JSON_SCHEMA_TARGETS } from './standard/targets.js';
export type { StandardJSONSchemaV1, StandardSchemaV1, StandardTypedV1 } from './standard/spec.js';
