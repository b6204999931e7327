import type { JsonSchemaDef, SchemaValidators } from '../compiled.js';
import type { Issue } from '../issues.js';
import { type ValidateOptions, prepareValidator } from '../validate.js';
import { jsonSchemaFor } from './json-schema.js';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from './spec.js';
import { JSON_SCHEMA_TARGETS, type JsonSchemaTarget, unknownTarget } from './targets.js';

/** `~standard.vendor` of every schema of `@x/validators/standard`. */
export const VENDOR = 'x-validators';

/**
 * A schema of `@x/validators/standard`: Standard Schema v1 (`~standard.validate`) and Standard JSON
 * Schema v1 (`~standard.jsonSchema`) at once. `Output` is the type of a valid value; it is the input
 * type too, since validation passes the value through unchanged.
 */
export interface StandardValidator<Output> extends StandardSchemaV1<Output, Output>, StandardJSONSchemaV1<Output, Output> {
  readonly '~standard': StandardSchemaV1.Props<Output, Output> & StandardJSONSchemaV1.Props<Output, Output>;
}

/**
 * Options of `standardSchema` and `standardResponse`: those of `validateX` (`profile`, `strict`,
 * `allErrors`, `maxIssues`); `profile` and `strict` choose the JSON Schema too.
 */
export type StandardOptions = ValidateOptions;

const SEGMENT = /^(?:0|[1-9][0-9]*)$/;

/**
 * A JSON pointer into `value` as Standard Schema's path: its segments unescaped (`~1` is `/`, `~0` is
 * `~`), numbers where the segment indexes an array of the value. The value is read along the pointer
 * only for that (the pointer came from validating it, so each step is there; a step whose read throws,
 * a hostile getter, ends the look-ups and leaves the rest as strings).
 */
export function pointerToPath(pointer: string, value: unknown): PropertyKey[] {
  if (pointer === '') return [];
  const path: PropertyKey[] = [];
  let at: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.includes('~') ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
    const index = Array.isArray(at) && SEGMENT.test(key);
    path.push(index ? Number(key) : key);
    try {
      at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
    } catch {
      at = undefined;
    }
  }
  return path;
}

/** Standard Schema issues of a validation's issues: the same messages, paths as keys. */
export function toStandardIssues(issues: readonly Issue[], value: unknown): StandardSchemaV1.Issue[] {
  return issues.map((i) => ({ message: i.message, path: pointerToPath(i.path, value) }));
}

/** Which reading a validation with these options checks: `'AccountData'`, `'AccountData (live, strict)'`. */
export function subjectOf(name: string, options: StandardOptions | undefined): string {
  const parts = [options?.profile === 'live' ? 'live' : undefined, options?.strict ? 'strict' : undefined].filter(Boolean);
  return parts.length === 0 ? name : `${name} (${parts.join(', ')})`;
}

/**
 * A Standard Schema from a check (`undefined` for a valid value, else its issues) and the JSON Schema
 * of the same reading. `validate` is synchronous and returns `{ value }` (the value itself, not a copy)
 * or `{ issues }`; `jsonSchema.input` and `.output` are the same schema.
 */
export function fromCheck<T>(check: (value: unknown) => readonly Issue[] | undefined, json: (target: unknown) => Record<string, unknown>): StandardValidator<T> {
  const jsonSchema = (options: StandardJSONSchemaV1.Options) => json(options?.target);
  return {
    '~standard': {
      version: 1,
      vendor: VENDOR,
      validate(value: unknown): StandardSchemaV1.Result<T> {
        const issues = check(value);
        return issues === undefined ? { value: value as T } : { issues: toStandardIssues(issues, value) };
      },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}

/**
 * The Standard Schema of a compiled schema in one reading (the options of `validateX`; a bad `profile`
 * or `maxIssues` throws a RangeError here) with that reading's JSON Schema.
 */
export function createStandard<T>(v: SchemaValidators, json: JsonSchemaDef, options?: StandardOptions): StandardValidator<T> {
  const subject = subjectOf(v.name, options);
  return fromCheck<T>(prepareValidator(v, options), (target) => jsonSchemaFor(json, target, subject));
}

/**
 * A schema's JSON Schemas in each target, as `pnpm gen` converted them (the documented, lenient reading,
 * as `jsonSchemaFor` makes it), and the error of each target that cannot express it.
 */
export type JsonSchemaForms = {
  readonly forms: { readonly [T in JsonSchemaTarget]?: Readonly<Record<string, unknown>> };
  readonly errors?: { readonly [T in JsonSchemaTarget]?: string };
};

/**
 * The Standard Schema of a compiled schema in its default reading, with its JSON Schemas converted by
 * `pnpm gen` ({@link JsonSchemaForms}): such a schema of `@x/validators/standard` carries no converter
 * (about 2 kB gzip). `pnpm gen` writes the forms of the small schemas only (see its `FORMS_MAX`); the
 * others, `standardSchema` and the responses, which take any reading, convert at run time.
 */
export function createStandardOf<T>(v: SchemaValidators, { forms, errors }: JsonSchemaForms): StandardValidator<T> {
  return fromCheck<T>(prepareValidator(v), (target) => {
    const known = (JSON_SCHEMA_TARGETS as readonly unknown[]).includes(target) ? (target as JsonSchemaTarget) : undefined;
    const form = known && forms[known];
    // A new object on every call, as the converter makes: the caller may change what it gets.
    if (form) return structuredClone(form) as Record<string, unknown>;
    const error = known && errors?.[known];
    throw error ? new Error(error) : unknownTarget(v.name, target);
  });
}
