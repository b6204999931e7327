/**
 * TypeScript types for the Supra node RPC account operations, generated from
 * `specs/node-rpc.openapi.yaml`: `paths`, `operations`, `components` and one alias per schema.
 *
 * @example
 * ```ts
 * import type { TransactionOutput } from '@x/node-types';
 * const gas = (o: TransactionOutput) => (typeof o === 'object' && 'Move' in o ? o.Move.gas_used : 0);
 * ```
 * @packageDocumentation
 * @module @x/node-types
 */
export type * from './generated/node-rpc.js';
