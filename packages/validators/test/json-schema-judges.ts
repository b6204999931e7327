/**
 * The judges of standard-json-schema.test.ts and standard-json-schema.perf.test.ts: a schema's
 * `~standard.jsonSchema` in every target, compiled by ajv (2020-12 and draft-07 dialects, strict mode;
 * the OpenAPI 3.0 form read back as JSON Schema by OpenAPI 3.0.3's rules), to compare with
 * `~standard.validate`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { standardSchema, type StandardValidator } from '../src/standard.ts';

export type Std = StandardValidator<unknown>;
export type Schema = Record<string, unknown>;
export type Reading = { label: string; options: { profile?: 'live'; strict?: boolean } };

export const READINGS: Reading[] = [
  { label: 'documented', options: {} },
  { label: 'documented, strict', options: { strict: true } },
  { label: 'live', options: { profile: 'live' } },
  { label: 'live, strict', options: { profile: 'live', strict: true } },
];

// inlineRefs and code.optimize say how ajv writes a schema's code (a definition as one function, no
// optimisation passes), not what it checks: they halve the CPU of compiling hundreds of schemas.
const ajvOptions = { strict: true, allowUnionTypes: true, validateFormats: false, inlineRefs: false, code: { optimize: false } } as const;
export const ajv2020 = new Ajv2020(ajvOptions);
const ajv07 = new Ajv(ajvOptions);

/**
 * An OpenAPI 3.0 Schema Object read as JSON Schema (draft-07) by OpenAPI 3.0.3's rules: `nullable: true`
 * adds null to the schema's `type`; a boolean `exclusiveMinimum`/`exclusiveMaximum` makes `minimum` /
 * `maximum` exclusive; `example` is an annotation. Written here, apart from the converter it checks.
 */
function readOpenApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(readOpenApi30);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (k === 'example' || k === 'nullable') continue;
    out[k] = ['enum', 'required'].includes(k) ? v : readOpenApi30(v);
  }
  const s = schema as Schema;
  if (s.nullable === true && typeof s.type === 'string') out.type = [s.type, 'null'];
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (s[flag] === true) {
      out[flag] = s[bound];
      Reflect.deleteProperty(out, bound);
    } else if (s[flag] === false) Reflect.deleteProperty(out, flag);
  }
  return out;
}

/**
 * Compiled once per schema text, so a file compiles each distinct schema once however many values or
 * readings judge it (most schemas read the same documented and live, and many the same strict).
 */
const compiled = new Map<string, ValidateFunction>();
export function compile(label: string, make: () => { ajv: Ajv | Ajv2020; schema: Schema }): ValidateFunction {
  const { ajv, schema } = make();
  const key = `${ajv === ajv2020 ? '2020' : '07'} ${JSON.stringify(schema)}`;
  let fn = compiled.get(key);
  if (!fn) {
    expect(ajv.validateSchema(schema), `${label}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    compiled.set(key, (fn = ajv.compile(schema)));
  }
  return fn;
}

export const json = (s: Std, target: string): Schema => s['~standard'].jsonSchema.output({ target }) as Schema;
export const valid = (s: Std, value: unknown): boolean => !(s['~standard'].validate(value) as { issues?: unknown }).issues;

/** Every way of reading a schema's JSON Schema with ajv: the judge of a value, or why there is none. */
export function judges(name: string, r: Reading): [target: string, judge: ((v: unknown) => boolean) | undefined][] {
  const s = standardSchema(name as never, r.options) as Std;
  const key = `${name} (${r.label})`;
  const out: [string, ((v: unknown) => boolean) | undefined][] = [
    ['draft-2020-12', compile(`${key} 2020-12`, () => ({ ajv: ajv2020, schema: json(s, 'draft-2020-12') }))],
    ['draft-07', compile(`${key} draft-07`, () => ({ ajv: ajv07, schema: json(s, 'draft-07') }))],
  ];
  let openapi: Schema | undefined;
  try {
    openapi = json(s, 'openapi-3.0');
  } catch {
    openapi = undefined;
  }
  out.push(['openapi-3.0', openapi && compile(`${key} openapi-3.0`, () => ({ ajv: ajv07, schema: readOpenApi30(openapi) as Schema }))]);
  return out as [string, ((v: unknown) => boolean) | undefined][];
}
