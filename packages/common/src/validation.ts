/**
 * One problem a validator found in a value: where, what, and the failing keyword. `@x/validators`
 * produces them (its `Issue` is this type); the clients carry them in `ResponseValidationError.issues`.
 *
 * @example
 * ```ts
 * const issue: ValidationIssue = { path: '/record/3/output/Move/gas_used', message: 'must be integer', keyword: 'type' };
 * ```
 */
export type ValidationIssue = {
  /** JSON pointer into the validated value (`''` for the value itself), e.g. `/record/3/output/Move/gas_used`. */
  readonly path: string;
  /** What is wrong, e.g. `must be integer`. */
  readonly message: string;
  /**
   * The JSON Schema keyword that failed (`type`, `required`, `enum`, `maximum`, `additionalProperties`,
   * ...), or `unsafeInteger` for an integer that JSON.parse may have rounded.
   */
  readonly keyword: string;
};

/**
 * A response validator: `createResponseValidator()` of `@x/validators` makes one, and both clients take
 * one as their `validator` option, so that neither package depends on the other.
 *
 * @example
 * ```ts
 * // Accepts every 2xx body that is an object; a real one comes from createResponseValidator().
 * const objectsOnly: ResponseValidator = (_operationId, status, body) =>
 *   status >= 300 || (typeof body === 'object' && body !== null)
 *     ? { ok: true }
 *     : { ok: false, issues: [{ path: '', message: 'must be object', keyword: 'type' }] };
 * ```
 */
export type ResponseValidator = (
  operationId: string,
  status: number,
  body: unknown,
) => { readonly ok: true } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };
