/**
 * Standalone, ajv-compiled validators for every record and every operation response of the Supra node
 * RPC (accounts v1, v2 and v3) and price-history specs. The compiled code needs no ajv and no `new Function`
 * at run time.
 *
 * @example
 * ```ts
 * import { validateTransactionOutput, isMoveValue, assertAccountData, validateResponse } from '@x/validators';
 * const r = validateTransactionOutput({ Move: { gas_used: '7', events: [], vm_status: 'Executed' } });
 * // r.ok === false, r.issues[0] = { path: '/Move/gas_used', message: 'must be integer', keyword: 'type' }
 * validateResponse('listTransactionsV2', 200, body, { strict: true });
 * ```
 * @packageDocumentation
 * @module @x/validators
 */
export * from './generated/validators.js';
export type * from './generated/types.js';
export type { Issue } from './issues.js';
export { DEFAULT_MAX_ISSUES, ValidationError, type Profile, type ValidateOptions, type ValidationResult } from './validate.js';
export {
  createResponseValidator,
  validateResponse,
  type OperationId,
  type ResponseBodies,
  type ResponseBody,
  type ResponseValidator,
} from './responses.js';
