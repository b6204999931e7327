import type { ResponseObject, Spec } from '../specs.ts';
import { HTTP_METHODS, resolveRef } from '../specs.ts';
import type { Schema } from './walk.ts';
import { isSchemaObject, mapSchema } from './walk.ts';

const SCHEMA_REF = '#/components/schemas/';

/** One named schema of a spec, under the name the validators export it as. */
export type NamedSchema = {
  /** Exported name: `validate${name}`; the spec's name unless two specs use the same one. */
  name: string;
  /** Name in the spec. */
  specName: string;
  spec: Spec;
  /** The schema with its `$ref`s pointing into the combined `$defs`. */
  schema: Schema;
};

/** What a documented response of an operation demands of its body. */
export type ResponseRule =
  | { kind: 'any' }
  /**
   * `def` names a schema of `$defs`; `nullable`: the spec says `anyOf [X, null]`; `arrayOf`: an inline
   * schema that is an array of the named schema (`{type: array, items: {$ref}}`), typed as `X[]`.
   */
  | { kind: 'schema'; def: string; nullable: boolean; exported: boolean; arrayOf?: string };

export type OperationResponses = {
  operationId: string;
  spec: Spec;
  deprecated: boolean;
  /** Status code, `1XX`..`5XX` range or `default`, in spec order. */
  responses: [status: string, rule: ResponseRule][];
};

export type Collected = {
  schemas: NamedSchema[];
  /** Schemas compiled but not exported as `validateX`: inline response schemas. */
  internal: { name: string; schema: Schema }[];
  operations: OperationResponses[];
};


/** Prefix of a schema of the price spec whose name the node spec already uses. */
const PRICE_PREFIX = 'Price';

function pascal(s: string): string {
  return s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
}

/** Rewrites `#/components/schemas/X` into `#/$defs/<exported name of X>`. */
function relink(schema: unknown, rename: Map<string, string>, where: string): Schema {
  const out = mapSchema(schema, (s) => {
    if (typeof s.$ref !== 'string') return s;
    if (!s.$ref.startsWith(SCHEMA_REF)) throw new Error(`${where}: unsupported $ref ${s.$ref}`);
    const target = rename.get(s.$ref.slice(SCHEMA_REF.length));
    if (!target) throw new Error(`${where}: unresolved $ref ${s.$ref}`);
    return { ...s, $ref: `#/$defs/${target}` };
  });
  if (!isSchemaObject(out)) throw new Error(`${where}: a boolean schema is not supported here`);
  return out;
}

function isEmptySchema(s: unknown): boolean {
  return s === undefined || s === true || (isSchemaObject(s) && Object.keys(s).length === 0);
}

/**
 * A response schema that accepts any body: none, `{}`, or a union with such a branch (the live
 * reading's `anyOf [{}, observed error body]`, whose observed form only types the body).
 */
function acceptsAnything(s: unknown): boolean {
  return isEmptySchema(s) || (isSchemaObject(s) && Array.isArray(s.anyOf) && s.anyOf.some(isEmptySchema));
}

/** `{$ref}` or `anyOf [{$ref}, {type: null}]` (either order): the named schema, nullable or not. */
function namedResponse(s: Schema): { def: string; nullable: boolean } | undefined {
  const refOf = (x: unknown): string | undefined =>
    isSchemaObject(x) && Object.keys(x).length === 1 && typeof x.$ref === 'string' && x.$ref.startsWith('#/$defs/')
      ? x.$ref.slice('#/$defs/'.length)
      : undefined;
  const direct = refOf(s);
  if (direct) return { def: direct, nullable: false };
  const branches = s.anyOf;
  if (Object.keys(s).length !== 1 || !Array.isArray(branches) || branches.length !== 2) return undefined;
  const isNull = (x: unknown) => isSchemaObject(x) && Object.keys(x).length === 1 && x.type === 'null';
  const [a, b] = branches;
  const def = isNull(b) ? refOf(a) : isNull(a) ? refOf(b) : undefined;
  return def ? { def, nullable: true } : undefined;
}

/** `{type: array, items: {$ref: X}}` (annotations aside): the name X. */
function arrayOfNamed(s: Schema): string | undefined {
  const items = s.items;
  if (s.type !== 'array' || !isSchemaObject(items) || typeof items.$ref !== 'string' || !items.$ref.startsWith('#/$defs/')) return undefined;
  if (Object.keys(s).some((k) => !['type', 'items', 'description', 'title'].includes(k)) || Object.keys(items).length !== 1) return undefined;
  return items.$ref.slice('#/$defs/'.length);
}

/**
 * Every schema of both specs (node first, each in spec order) and every documented response of every
 * operation. The specs use distinct names today; should a name ever be in both, the price spec's schema
 * is exported with the prefix `Price` (`validatePriceX`) rather than failing the generation.
 */
export function collect(specs: { node: Spec; price: Spec }): Collected {
  const schemas: NamedSchema[] = [];
  const internal: { name: string; schema: Schema }[] = [];
  const operations: OperationResponses[] = [];
  const used = new Set<string>();
  for (const spec of [specs.node, specs.price]) {
    const rename = new Map<string, string>();
    for (const specName of Object.keys(spec.doc.components.schemas)) {
      let name = specName;
      if (used.has(name)) name = `${PRICE_PREFIX}${specName}`;
      if (used.has(name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new Error(`${spec.file}: cannot export schema ${specName} as validate${name}`);
      }
      used.add(name);
      rename.set(specName, name);
    }
    for (const [specName, raw] of Object.entries(spec.doc.components.schemas)) {
      const where = `${spec.file}#/components/schemas/${specName}`;
      schemas.push({ name: rename.get(specName)!, specName, spec, schema: relink(raw, rename, where) });
    }
    for (const item of Object.values(spec.doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!HTTP_METHODS.has(method)) continue; // `parameters`, `summary`, ... of the path item
        const responses: OperationResponses['responses'] = [];
        for (const [status, r] of Object.entries(op.responses)) {
          const where = `${spec.file} ${op.operationId} ${status}`;
          const response = resolveRef<ResponseObject>(spec.doc, r);
          const json = Object.entries(response.content ?? {}).find(([type]) => /^application\/(.+\+)?json/.test(type));
          const raw = json?.[1].schema;
          if (acceptsAnything(raw)) {
            responses.push([status, { kind: 'any' }]);
            continue;
          }
          const schema = relink(raw, rename, where);
          const named = namedResponse(schema);
          if (named) {
            responses.push([status, { kind: 'schema', ...named, exported: true }]);
          } else {
            const name = `${pascal(op.operationId)}Response${pascal(status)}`;
            internal.push({ name, schema });
            const items = arrayOfNamed(schema);
            responses.push([status, { kind: 'schema', def: name, nullable: false, exported: false, ...(items ? { arrayOf: items } : {}) }]);
          }
        }
        operations.push({ operationId: op.operationId, spec, deprecated: op.deprecated === true, responses });
      }
    }
  }
  const ids = new Set<string>();
  for (const op of operations) {
    if (ids.has(op.operationId)) throw new Error(`operationId ${op.operationId} appears twice`);
    ids.add(op.operationId);
  }
  for (const { name } of internal) if (used.has(name)) throw new Error(`internal schema name ${name} clashes`);
  return { schemas, internal, operations };
}
