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
  /**
   * Takes the value only: a compiled function validates from path `""`, and one that calls another gives
   * the callee's errors their path (tools/gen/src/validators/calls.ts).
   */
  (data: unknown): boolean;
  errors?: readonly CompiledError[] | null;
}

/**
 * The four compiled functions of one schema. Each checks the documented reading, or the live one while
 * the switch `liveProfile.live` of `generated/ajv.js` is on (see `validate.ts`).
 */
export interface SchemaValidators {
  /** Schema name as exported (`TransactionOutput`, `SignedDecimalString`). */
  readonly name: string;
  /** Lenient profile, stops at the first error. */
  readonly lenient: CompiledFunction;
  /** Strict profile (unknown properties are errors), stops at the first error. */
  readonly strict: CompiledFunction;
  /** Lenient profile, collects all errors. */
  readonly lenientAll: CompiledFunction;
  /** Strict profile, collects all errors. */
  readonly strictAll: CompiledFunction;
}

/**
 * What a documented response demands of its body: `null` accepts any body (the spec gives the schema
 * `{}` or none); otherwise the body must match `schema`, or be `null` when `nullable`
 * (the spec says `anyOf [X, null]`).
 */
export type ResponseRule = { readonly schema: SchemaValidators; readonly nullable: boolean } | null;

/**
 * One schema of the specs in one reading as plain JSON Schema 2020-12 (`generated/json-schemas.ts`), for
 * the Standard JSON Schema interface of `@x/validators/standard`. `$ref`s point at `#/$defs/<name>`;
 * `refs` gives the definitions they name, in the same reading (a thunk: StructTag and TypeTag refer to
 * each other, and a bundler keeps only the definitions an app's schemas reach).
 */
export interface JsonSchemaDef {
  /** Schema name as exported (`AccountData`), the key of its `$defs` entry. */
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
  readonly refs: () => readonly JsonSchemaDef[];
}

/** The JSON Schema of one schema in each reading: documented or live, lenient or strict. */
export interface JsonSchemaReadings {
  readonly documented: JsonSchemaDef;
  readonly documentedStrict: JsonSchemaDef;
  readonly live: JsonSchemaDef;
  readonly liveStrict: JsonSchemaDef;
}
