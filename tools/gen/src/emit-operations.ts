import type { OperationObject, ParameterObject, SchemaObject, Spec } from './specs.ts';
import { HTTP_METHODS, resolveRef } from './specs.ts';
import { header } from './files.ts';
import { pagingTable, type PagingRule } from './paging.ts';

/** The parts of a parameter's schema a client checks before sending a request. */
const PARAM_SCHEMA_KEYS = ['type', 'format', 'minimum', 'maximum', 'pattern', 'enum'] as const;

/** What the clients read at run time of an operation; the table ships in every client bundle. */
export type OperationEntry = {
  method: string;
  path: string;
  /**
   * `encoding: 'u8-bytes-or-hex'` on a listing's `start` whose cursor is u8 bytes (v1): the client takes
   * the bytes or their hex and sends hex.
   */
  params: { name: string; in: string; required: boolean; schema: Record<string, unknown>; encoding?: 'u8-bytes-or-hex'; description?: string }[];
  /** A listing's paging rule (its `x-pagination`), for the walks and the query options. */
  paging?: PagingRule;
  /**
   * The fields of a JSON request body (a POST read: view function, table item), checked as parameters
   * are; an array field's `items` check each element, a `default` is sent for a field left out.
   */
  body?: BodyField[];
  /** Query parameters a call gives one of at most (`x-exclusive-parameters`). */
  exclusive?: string[];
  /** Two u64 query parameters whose second may not be below the first (`x-ordered-parameters`: a height range). */
  ordered?: [string, string];
};

/** One field of a request body, as `OperationEntry.body` lists it. */
export type BodyField = { name: string; in: 'body'; required: boolean; schema: Record<string, unknown>; description?: string; items?: { schema: Record<string, unknown>; description?: string }; default?: unknown };

function paramSchema(spec: Spec, schema: SchemaObject): Record<string, unknown> {
  const resolved = resolveRef<SchemaObject>(spec.doc, schema);
  const out: Record<string, unknown> = {};
  for (const key of PARAM_SCHEMA_KEYS) if (resolved[key] !== undefined) out[key] = resolved[key];
  // A JSON number cannot hold the u64 maximum exactly; `format: uint64` states the range, and the
  // clients check it with BigInt.
  if (typeof out.maximum === 'number' && !Number.isSafeInteger(out.maximum)) delete out.maximum;
  return out;
}

/**
 * Every operation of a spec, in spec order, as the clients' operation table. A path item's own
 * `parameters` apply to each of its operations (an operation's parameter of the same name and location
 * wins). The clients send path and query parameters only, so a header or cookie parameter fails the
 * generator, naming it, rather than being dropped.
 */
export function operationTable(spec: Spec): Record<string, OperationEntry> {
  const table: Record<string, OperationEntry> = {};
  const paging = pagingTable(spec);
  for (const [path, item] of Object.entries(spec.doc.paths)) {
    const shared = ((item as { parameters?: unknown[] }).parameters ?? []).map((p) => resolveRef<ParameterObject>(spec.doc, p as ParameterObject));
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const own = (op.parameters ?? []).map((p) => resolveRef<ParameterObject>(spec.doc, p));
      const params = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      for (const p of params) {
        if (p.in !== 'path' && p.in !== 'query') {
          throw new Error(`${spec.file}: ${op.operationId}: ${p.in} parameter '${p.name}' is not supported: the clients send path and query parameters only`);
        }
      }
      const rule = paging[op.operationId];
      table[op.operationId] = {
        method: method.toUpperCase(),
        path,
        params: params.map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          schema: paramSchema(spec, p.schema),
          // What a person reads when a value does not match the pattern, instead of the expression.
          ...(typeof resolveRef<SchemaObject>(spec.doc, p.schema).pattern === 'string' && p.description && { description: p.description.trim().replace(/\.$/, '') }),
          ...(rule?.next.encoding === 'u8-bytes-or-hex' && p.in === 'query' && p.name === 'start' && { encoding: 'u8-bytes-or-hex' as const }),
        })),
        ...(rule && { paging: rule }),
        ...(requestBody(spec, op) && { body: requestBody(spec, op) }),
        ...(exclusive(spec, op, params) && { exclusive: exclusive(spec, op, params) }),
        ...(ordered(spec, op, params) && { ordered: ordered(spec, op, params) }),
      };
    }
  }
  return table;
}

/**
 * An operation's `x-exclusive-parameters`: query parameters of which a call gives one at most (v3
 * automated transactions: `cursor` or `block_height`); each must be a query parameter of the operation.
 */
function exclusive(spec: Spec, op: { operationId: string }, params: readonly ParameterObject[]): string[] | undefined {
  const names = (op as Record<string, unknown>)['x-exclusive-parameters'];
  if (names === undefined) return undefined;
  if (!Array.isArray(names) || names.length < 2 || !names.every((n) => params.some((p) => p.in === 'query' && p.name === n))) {
    throw new Error(`${spec.file}: ${op.operationId}: x-exclusive-parameters must list two or more of its query parameters, got ${JSON.stringify(names)}`);
  }
  return names as string[];
}

/** What a person reads when a value does not match a schema's pattern: its description, without the final period. */
function patternWords(spec: Spec, schema: SchemaObject, description: unknown): { description?: string } {
  const resolved = resolveRef<SchemaObject>(spec.doc, schema);
  const words = typeof description === 'string' ? description : typeof resolved.description === 'string' ? resolved.description : undefined;
  return typeof resolved.pattern === 'string' && words ? { description: words.trim().replace(/\.$/, '') } : {};
}

/**
 * The fields of an operation's JSON request body (its `requestBody`), in schema order: the body must be
 * an object schema, and only `application/json` is sent.
 */
function requestBody(spec: Spec, op: OperationObject): BodyField[] | undefined {
  if (op.requestBody === undefined) return undefined;
  const where = `${spec.file}: ${op.operationId}: requestBody`;
  const body = resolveRef<{ required?: boolean; content?: Record<string, { schema?: SchemaObject }> }>(spec.doc, op.requestBody);
  const schema = body.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${where}: the clients send application/json bodies only`);
  const object = resolveRef<SchemaObject>(spec.doc, schema);
  const properties = object.properties as Record<string, SchemaObject> | undefined;
  if (object.type !== 'object' || properties === undefined) throw new Error(`${where}: must be an object schema with properties`);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, raw]) => {
    const field = resolveRef<SchemaObject>(spec.doc, raw);
    // Items of any JSON value have nothing to check.
    const items = field.type === 'array' && field.items !== undefined && Object.keys(paramSchema(spec, field.items as SchemaObject)).length > 0 ? (field.items as SchemaObject) : undefined;
    return {
      name,
      in: 'body' as const,
      required: required.has(name),
      schema: paramSchema(spec, raw),
      ...patternWords(spec, raw, (raw as { description?: unknown }).description),
      ...(items && { items: { schema: paramSchema(spec, items), ...patternWords(spec, items, undefined) } }),
      ...(field.default !== undefined && { default: field.default }),
    };
  });
}

/**
 * An operation's `x-ordered-parameters`: two u64 query parameters, the second not below the first (the
 * events' `start_height` and `end_height`).
 */
function ordered(spec: Spec, op: { operationId: string }, params: readonly ParameterObject[]): [string, string] | undefined {
  const names = (op as Record<string, unknown>)['x-ordered-parameters'];
  if (names === undefined) return undefined;
  const u64 = (n: unknown): boolean => params.some((p) => p.in === 'query' && p.name === n && resolveRef<SchemaObject>(spec.doc, p.schema).format === 'uint64');
  if (!Array.isArray(names) || names.length !== 2 || names[0] === names[1] || !names.every(u64)) {
    throw new Error(`${spec.file}: ${op.operationId}: x-ordered-parameters must name two u64 query parameters, lowest first, got ${JSON.stringify(names)}`);
  }
  return names as [string, string];
}

/** The distinct API paths of path templates: `/rpc/v2` of `/rpc/v2/accounts/{address}`, `/history` of `/history`. */
function apiPaths(paths: readonly string[]): string[] {
  const out = paths.map((path) => {
    const segments = path.split('/');
    const version = segments.findIndex((s) => /^v\d+$/.test(s));
    const param = segments.findIndex((s) => s.includes('{'));
    return segments.slice(0, version !== -1 ? version + 1 : param !== -1 ? param : segments.length).join('/');
  });
  return [...new Set(out)];
}

/**
 * `operations.ts` for a client: the default base URL and, per operationId, method, path and parameter
 * constraints, read from the spec so the client never restates them.
 */
export function emitOperations(spec: Spec): string {
  const table = operationTable(spec);
  const ids = Object.keys(table);
  const server = spec.doc.servers?.[0]?.url ?? '';
  return `${header(spec.file)}
/** The first server of the spec: the client's default base URL. */
export const DEFAULT_BASE_URL = ${JSON.stringify(server)};

/**
 * The paths the client appends to a base URL (up to a version segment, else up to the first
 * parameter): a base URL that ends in one is refused with the base URL meant.
 */
export const API_PATHS = ${JSON.stringify(apiPaths(Object.values(table).map((op) => op.path)))} as const;

${ids.map((id) => `/** \`${id}\`: method, path, parameter constraints${table[id]!.paging ? ' and paging rule' : ''}. */\nexport const ${id} = ${JSON.stringify(table[id], null, 2)} as const;\n`).join('\n')}
/**
 * Every operation by id, in spec order. Each entry is also its own export above, which is what an action
 * imports: a bundle then carries the operations it calls, not this table.
 */
export const operations = { ${ids.join(', ')} } as const;

export type OperationId = ${ids.map((id) => JSON.stringify(id)).join(' | ')};
`;
}

/**
 * `routes.ts` of `@x/common`: every operation of both specs with its method and path template. The
 * hand-written `matchRoute` beside it (`packages/common/src/match-route.ts`) is the one matcher of
 * request paths to operations: the stubs name the operation of each request and route it by operation
 * id, and the conformance tool finds the operation a recorded response belongs to.
 */
export function emitRoutes(specs: readonly Spec[]): string {
  const routes = specs.flatMap((spec) =>
    Object.entries(operationTable(spec)).map(([operationId, op]) => ({
      operationId,
      service: spec.name,
      method: op.method,
      path: op.path,
    })),
  );
  return `${header(specs.map((s) => s.file).join(' and '))}
/** Every operation of both specs: the path templates requests are matched against (\`matchRoute\`). */
export const routes = ${JSON.stringify(routes, null, 2)} as const;

export type Route = (typeof routes)[number];
export type RouteService = Route['service'];
export type RouteOperationId = Route['operationId'];
`;
}
