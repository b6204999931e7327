import { header } from '../files.ts';
import { LIVE_OVERLAY_FILE } from '../live.ts';
import type { NamedSchema } from './collect.ts';
import type { Schema } from './walk.ts';
import { mapSchema } from './walk.ts';
import { closeObjects, mergeAllOf } from './transform.ts';
import type { JsonSchemaDef } from '../../../../packages/validators/src/compiled.ts';
import { jsonSchemaFor } from '../../../../packages/validators/src/standard/json-schema.ts';
import { JSON_SCHEMA_TARGETS } from '../../../../packages/validators/src/standard/targets.ts';

const BOTH_SPECS = 'specs/node-rpc.openapi.yaml and specs/price-history.openapi.yaml';

/** The four readings a schema has as JSON Schema, under the keys of `JsonSchemaReadings` (`compiled.ts`). */
export const READINGS = [
  { key: 'documented', live: false, strict: false },
  { key: 'documentedStrict', live: false, strict: true },
  { key: 'live', live: true, strict: false },
  { key: 'liveStrict', live: true, strict: true },
] as const;

/**
 * Names `@x/validators/standard` exports besides one per schema (`src/standard.ts`): a schema of that
 * name would clash with them.
 */
export const STANDARD_RESERVED: ReadonlySet<string> = new Set([
  'responses',
  'VENDOR',
  'JSON_SCHEMA_TARGETS',
  'ResponseStatus',
  'StandardResponseBody',
  'standardSchema',
  'standardResponse',
  'StandardValidator',
  'StandardOptions',
  'StandardResponses',
  'SchemaName',
  'SchemaTypes',
  'StandardSchemaV1',
  'StandardJSONSchemaV1',
  'StandardTypedV1',
]);

/**
 * A schema of the specs as plain JSON Schema 2020-12, as `~standard.jsonSchema` hands it out: the
 * OpenAPI extensions (`x-...`: the live reading's `x-live-forms` tag among them) dropped, and OpenAPI's
 * `example` given as `examples`. Only annotations change; every assertion stays as the spec wrote it.
 */
export function plainJsonSchema(schema: Schema): Schema {
  return mapSchema(schema, (s) => {
    const out: Schema = {};
    for (const [k, v] of Object.entries(s)) {
      if (k.startsWith('x-')) continue;
      if (k === 'example') {
        if (!('examples' in s)) out.examples = [v];
        continue;
      }
      out[k] = v;
    }
    return out;
  }) as Schema;
}

function refsOf(schema: unknown): string[] {
  const out = new Set<string>();
  mapSchema(schema, (s) => {
    if (typeof s.$ref === 'string') {
      if (!s.$ref.startsWith('#/$defs/')) throw new Error(`unsupported $ref ${s.$ref}`);
      out.add(s.$ref.slice('#/$defs/'.length));
    }
    return s;
  });
  return [...out];
}

/** A JSON value as TypeScript source, indented to match the surrounding code. */
function literal(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * `json-schemas.ts`: every schema (exported and internal) in each of the four readings as plain JSON
 * Schema 2020-12 (see `plainJsonSchema`): the documented one from the specs, the live one from the
 * specs with the overlay (`anyOf [documented, observed]` where an action applies), strict ones with
 * their `allOf`s of object schemas merged (`mergeAllOf`) and closed by the same `closeObjects` the
 * compiled strict variants use (closing an `allOf`'s branches one by one would reject every value).
 * A schema object equal in two readings is written once. Each definition is its own top-level constant, its references a thunk of the others,
 * so an app's bundle keeps only the definitions its schemas reach.
 */
export function emitJsonSchemasModule(defs: Record<string, Schema>, liveDefs: Record<string, Schema>): string {
  const names = Object.keys(defs);
  const merged = { documented: mergeAllOf(defs), live: mergeAllOf(liveDefs) };
  const out = [
    header(`specs/node-rpc.openapi.yaml, ${LIVE_OVERLAY_FILE} and specs/price-history.openapi.yaml`),
    `import type { JsonSchemaDef, JsonSchemaReadings } from '../compiled.js';`,
    '',
  ];
  const objects: string[] = [];
  const entries: string[] = [];
  for (const name of names) {
    const written = new Map<string, string>();
    for (const r of READINGS) {
      const source = r.strict ? merged[r.live ? 'live' : 'documented'][name] : r.live ? liveDefs[name] : defs[name];
      if (!source) throw new Error(`no ${r.key} schema ${name}`);
      const plain = plainJsonSchema(source);
      const schema = (r.strict ? closeObjects(plain, `${name} (JSON Schema, ${r.key})`) : plain) as Schema;
      const text = literal(schema);
      let constant = written.get(text);
      if (!constant) {
        constant = `${name}$${r.key}`;
        written.set(text, constant);
        objects.push(`const ${constant}: Readonly<Record<string, unknown>> = ${text};`);
      }
      const refs = refsOf(schema).map((ref) => {
        if (!(ref in defs)) throw new Error(`${name}: $ref to unknown schema ${ref}`);
        return `${r.key}$${ref}`;
      });
      entries.push(`export const ${r.key}$${name}: JsonSchemaDef = { name: '${name}', schema: ${constant}, refs: () => [${refs.join(', ')}] };`);
    }
  }
  out.push(...objects, '', ...entries, '');
  out.push(
    '/** Every schema in its four readings, by name (`standardSchema` and the response schemas look them up here). */',
    'export const readings: Readonly<Record<string, JsonSchemaReadings>> = {',
    ...names.map((n) => `  ${n}: { ${READINGS.map((r) => `${r.key}: ${r.key}$${n}`).join(', ')} },`),
    '};',
    '',
  );
  return out.join('\n');
}

/**
 * The most JSON text a schema's JSON Schemas in all targets may take for `standard.ts` to carry them
 * (42 of 63 schemas today). Carried, a schema imported from `@x/validators/standard` bundles its forms
 * instead of the converter (`jsonSchemaFor`, about 2 kB gzip: an address schema costs 2.6 kB, not
 * 4.5); larger forms (up to 37 kB for a block) would grow the installed package more than they save
 * the one bundle that imports them, so those schemas convert at run time.
 */
const FORMS_MAX = 4_000;

/**
 * A schema's JSON Schemas in every target of `~standard.jsonSchema`, as the package's own converter
 * makes them from the documented, lenient reading, and the error of each target that cannot express
 * it; `undefined` when they are larger than {@link FORMS_MAX}.
 */
function jsonSchemaForms(name: string, defs: Record<string, Schema>): string | undefined {
  const built = new Map<string, JsonSchemaDef>();
  const def = (n: string): JsonSchemaDef => {
    let d = built.get(n);
    if (!d) {
      const source = defs[n];
      if (!source) throw new Error(`no schema ${n}`);
      const schema = plainJsonSchema(source);
      d = { name: n, schema, refs: () => refsOf(schema).map(def) };
      built.set(n, d);
    }
    return d;
  };
  const forms: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const target of JSON_SCHEMA_TARGETS) {
    try {
      forms[target] = jsonSchemaFor(def(name), target, name);
    } catch (error) {
      errors[target] = (error as Error).message;
    }
  }
  const text = JSON.stringify(Object.keys(errors).length ? { forms, errors } : { forms });
  return text.length <= FORMS_MAX ? text : undefined;
}

/**
 * `standard.ts`: for every exported schema `X`, `X`, its Standard Schema v1 + Standard JSON Schema in
 * the documented, lenient reading (what `validateX` checks by default; a small schema's JSON Schemas converted here,
 * see {@link jsonSchemaForms}), and the type `X`.
 */
export function emitStandardModule(schemas: NamedSchema[], defs: Record<string, Schema>): string {
  for (const s of schemas) {
    if (STANDARD_RESERVED.has(s.name)) throw new Error(`schema ${s.name} clashes with an export of @x/validators/standard`);
  }
  const out = [
    header(BOTH_SPECS),
    `import { type StandardValidator, createStandard, createStandardOf } from '../standard/adapter.js';`,
    `import * as schemas from './schemas.js';`,
    `import * as json from './json-schemas.js';`,
    `import type * as types from './types.js';`,
    '',
  ];
  const create = (n: string): string => {
    const forms = jsonSchemaForms(n, defs);
    return forms === undefined ? `createStandard<types.${n}>(schemas.${n}, json.documented$${n})` : `createStandardOf<types.${n}>(schemas.${n}, ${forms})`;
  };
  for (const s of schemas) {
    const n = s.name;
    const raw = s.spec.doc.components.schemas[s.specName] ?? {};
    const about = typeof raw.description === 'string' ? raw.description.trim().split('\n') : [];
    const lines = [
      `Standard Schema v1 and Standard JSON Schema of \`${s.specName}\` (${s.spec.file}), documented and lenient:`,
      `what \`validate${n}\` checks by default. \`standardSchema('${n}', { strict, profile })\` gives the other readings.`,
      ...(about.length ? ['', ...about] : []),
      ...(raw.deprecated === true ? ['', 'Part of the deprecated v1 API.'] : []),
      '',
      '@example',
      '```ts',
      `import { ${n} } from '@x/validators/standard';`,
      `const result = ${n}['~standard'].validate(value); // { value } or { issues: [{ message, path }] }`,
      `const schema = ${n}['~standard'].jsonSchema.output({ target: 'draft-2020-12' });`,
      '```',
    ];
    out.push(
      `/**\n${lines.map((l) => ` *${l === '' ? '' : ` ${l.replace(/\*\//g, '*\\/')}`}`).join('\n')}\n */`,
      `export const ${n}: StandardValidator<types.${n}> = /* @__PURE__ */ ${create(n)};`,
      `/** The type of \`${s.specName}\` (${s.spec.file}). */`,
      `export type ${n} = types.${n};`,
      '',
    );
  }
  return out.join('\n');
}

/**
 * `standard-table.ts`: the type of every exported schema by name, and its compiled validators and
 * JSON Schemas, which `standardSchema(name, options)` reads (not exported by the package).
 */
export function emitStandardTableModule(schemas: NamedSchema[]): string {
  return [
    header(BOTH_SPECS),
    `import type { SchemaValidators, JsonSchemaReadings } from '../compiled.js';`,
    `import * as schemas from './schemas.js';`,
    `import { readings } from './json-schemas.js';`,
    `import type * as types from './types.js';`,
    '',
    '/** The type of every exported schema, by name. */',
    'export interface SchemaTypes {',
    ...schemas.map((s) => `  ${s.name}: types.${s.name};`),
    '}',
    '',
    '/** The compiled validators and JSON Schemas of every exported schema, by name. */',
    'export const schemaTable: { readonly [N in keyof SchemaTypes]: readonly [SchemaValidators, JsonSchemaReadings] } = {',
    ...schemas.map((s) => `  ${s.name}: [schemas.${s.name}, readings.${s.name}!],`),
    '};',
    '',
  ].join('\n');
}
