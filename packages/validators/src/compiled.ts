/**
 * Shapes of the generated, ajv-compiled code (`generated/ajv.js`). Internal: not exported by the package.
 * @module
 */

/** An error object as the compiled functions report it (ajv, `messages: false`, without `schemaPath`). */
export interface CompiledError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** One compiled validation function: `true` when valid, otherwise its `errors` are set. */
export interface CompiledFunction {
  (data: unknown): boolean;
  errors?: readonly CompiledError[] | null;
}

/** The four compiled functions of one schema in one reading. */
export interface ProfileValidators {
  /** Lenient profile, stops at the first error. */
  readonly lenient: CompiledFunction;
  /** Strict profile (unknown properties are errors), stops at the first error. */
  readonly strict: CompiledFunction;
  /** Lenient profile, collects all errors. */
  readonly lenientAll: CompiledFunction;
  /** Strict profile, collects all errors. */
  readonly strictAll: CompiledFunction;
}

/** The compiled functions of one schema: the documented reading, and the live one where it differs. */
export interface SchemaValidators extends ProfileValidators {
  /** Schema name as exported (`TransactionOutput`, `SignedDecimalString`). */
  readonly name: string;
  /**
   * The live reading (either form where the overlay observed another than the document), present only
   * when it differs from the documented one.
   */
  readonly live?: ProfileValidators;
}

/**
 * What a documented response demands of its body: `null` accepts any body (the spec gives the schema
 * `{}` or none); otherwise the body must match `schema`, or be `null` when `nullable`
 * (the spec says `anyOf [X, null]`).
 */
export type ResponseRule = { readonly schema: SchemaValidators; readonly nullable: boolean } | null;
