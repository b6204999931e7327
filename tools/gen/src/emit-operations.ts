import type { OperationObject, ParameterObject, ResponseObject, SchemaObject, Spec } from './specs.ts';
import { HTTP_METHODS, resolveRef } from './specs.ts';
import { header } from './files.ts';
import { pagingTable, type PagingRule } from './paging.ts';

/** The parts of a parameter's schema a client checks before sending a request. */
const PARAM_SCHEMA_KEYS = ['type', 'format', 'minimum', 'maximum', 'pattern', 'enum'] as const;

/**
 * One entry of a service's operation table (`@x/common`): what the clients, the stubs and x-validate read
 * of an operation at run time. An action's bundle carries its operation's entry.
 */
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
  /**
   * What the answer repeats of the request (`x-echo`): a path parameter, where the 200 answer holds it
   * (a JSON pointer as its keys), and how it compares (`u64` or `hex`, from the parameter's schema); the
   * transport refuses an answer that holds anything else.
   */
  echo?: Echo;
  /** The spec marks the operation deprecated (`deprecated: true`); absent otherwise. */
  deprecated?: true;
  /**
   * `false` where the spec says the operation changes something (`x-retry: false`: the faucet): the
   * transport sends it once, with no retry, hedge or other node, unless the call asks for retries.
   */
  retry?: false;
};

/** An operation's `x-echo`, as its entry holds it. */
export type Echo = { parameter: string; pointer: string[]; form: 'u64' | 'hex' };

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
        ...(echo(spec, op, params) && { echo: echo(spec, op, params) }),
        ...(noRetry(spec, op) && { retry: false as const }),
        // Last: placed after `path`, it cost the bundles that carry every entry (`/query`) 13 B more gzipped.
        ...(op.deprecated === true && { deprecated: true as const }),
      };
    }
  }
  return table;
}

/** An operation's `x-retry: false` (it changes the chain: sent once); the extension takes no other value. */
function noRetry(spec: Spec, op: OperationObject): boolean {
  const raw = (op as Record<string, unknown>)['x-retry'];
  if (raw !== undefined && raw !== false) throw new Error(`${spec.file}: ${op.operationId}: x-retry must be false (sent once), got ${JSON.stringify(raw)}`);
  return raw === false;
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

/**
 * An operation's `x-echo: { parameter, pointer }`: a path parameter the 200 answer repeats at `pointer`
 * (a JSON Pointer every form of the answer's schema has), compared as a u64 when the parameter is one,
 * as hex when its pattern is hex digits (a hash).
 */
function echo(spec: Spec, op: OperationObject, params: readonly ParameterObject[]): Echo | undefined {
  const raw = (op as Record<string, unknown>)['x-echo'] as Record<string, unknown> | undefined;
  if (raw === undefined) return undefined;
  const where = `${spec.file}: ${op.operationId}: x-echo`;
  for (const key of Object.keys(raw)) if (key !== 'parameter' && key !== 'pointer') throw new Error(`${where}: unknown key '${key}' (known: parameter, pointer)`);
  const param = params.find((p) => p.in === 'path' && p.name === raw.parameter);
  const schema = param && resolveRef<SchemaObject>(spec.doc, param.schema);
  const form = schema?.format === 'uint64' ? 'u64' : typeof schema?.pattern === 'string' && schema.pattern.includes('0-9a-fA-F') ? 'hex' : undefined;
  if (!param || !form) throw new Error(`${where}.parameter: must name a u64 or hex path parameter, got ${JSON.stringify(raw.parameter)}`);
  if (typeof raw.pointer !== 'string' || !raw.pointer.startsWith('/')) throw new Error(`${where}.pointer: must be a JSON Pointer, got ${JSON.stringify(raw.pointer)}`);
  const pointer = raw.pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const response = op.responses['200'];
  const ok = response && resolveRef<ResponseObject>(spec.doc, response).content?.['application/json']?.schema;
  if (!ok || !holds(spec, ok, pointer)) throw new Error(`${where}.pointer: ${raw.pointer} is not a property of every form of the 200 answer`);
  return { parameter: param.name, pointer, form };
}

/** Whether every form of `schema` (each branch of a oneOf or anyOf, some part of an allOf) has a property at `keys`. */
function holds(spec: Spec, schema: SchemaObject, keys: readonly string[]): boolean {
  const s = resolveRef<SchemaObject>(spec.doc, schema);
  if (keys.length === 0) return true;
  const branches = (s.oneOf ?? s.anyOf) as SchemaObject[] | undefined;
  if (branches) return branches.every((b) => holds(spec, b, keys));
  if ((s.allOf as SchemaObject[] | undefined)?.some((b) => holds(spec, b, keys))) return true;
  const property = (s.properties as Record<string, SchemaObject> | undefined)?.[keys[0]!];
  return property !== undefined && holds(spec, property, keys.slice(1));
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

/** The names of a service's exports in `@x/common`: `node-rpc` gives `nodeRpcOperations`, `NodeRpcOperationId`, `NODE_RPC_BASE_URL`. */
function serviceNames(name: string): { camel: string; pascal: string; upper: string } {
  const words = name.split('-');
  const pascal = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return { camel: pascal.charAt(0).toLowerCase() + pascal.slice(1), pascal, upper: words.map((w) => w.toUpperCase()).join('_') };
}

/** What an entry holds besides its method and path, as a line of its comment (none when it holds nothing else). */
function facts(e: OperationEntry): string {
  const parts = [
    e.params.length > 0 && 'its parameters with their locations and constraints',
    e.body && 'its request body',
    e.paging && 'its paging rule',
    e.retry === false && 'that it is sent once (`x-retry: false`)',
    e.echo && `what its answer repeats of the request (\`${e.echo.parameter}\` at \`/${e.echo.pointer.join('/')}\`)`,
  ].filter(Boolean);
  if (parts.length === 0) return '';
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `\n * The entry holds ${list}.`;
}

/** The service's name as a reader says it in a comment: `the node RPC`, `the price-history service`. */
const serviceWords = (spec: Spec): string => (spec.name === 'node-rpc' ? 'the node RPC' : `the ${spec.name} service`);

type Checked = { schema: Record<string, unknown>; required?: boolean; description?: string; items?: { schema: Record<string, unknown>; description?: string } };

/**
 * The check of one parameter or body field, a call of its form in `@x/common`'s `param-checks.ts` (what
 * the value is checked as: u64, boolean, one of an enum, integer in range, array, text matching a
 * pattern); `undefined` for a value of any JSON (a body field without a type, an object). `used` collects
 * the forms called. A parameter without a type is text, as a URL carries it.
 */
function checkCode(p: Checked, used: Set<string>, untyped: 'text' | 'none', required = p.required === true): string | undefined {
  const s = p.schema;
  const call = (form: string, extra = ''): string => (used.add(form), `${form}(v, n, b, ${required ? 1 : 0}${extra})`);
  if (s.format === 'uint64') return call('u64');
  if (s.type === 'boolean') return call('boolean');
  if (Array.isArray(s.enum)) return call('oneOf', `, ${JSON.stringify(s.enum)}`);
  if (s.type === 'integer') {
    const max = typeof s.maximum === 'number' ? `, ${s.maximum}` : '';
    return call('integer', typeof s.minimum === 'number' ? `, ${s.minimum}${max}` : max && `, -Infinity${max}`);
  }
  if (s.type === 'array') {
    const item = p.items && checkCode(p.items, used, 'none', true);
    return call('list', item ? `, (v, n, b) => ${item}` : '');
  }
  if (s.type !== 'string' && (s.type !== undefined || untyped === 'none')) return undefined;
  if (typeof s.pattern !== 'string') return call('text');
  const words = p.description === undefined ? '' : `, ${JSON.stringify(`expected ${p.description.charAt(0).toLowerCase()}${p.description.slice(1)}`)}`;
  return call('text', `, /${s.pattern.replace(/\//g, '\\/')}/u${words}`);
}

/**
 * A service's operation table, `packages/common/src/generated/<service>.ts`: its default base URL and
 * API paths, and per operationId the facts of the operation that every package reads at run time
 * (method, path, parameters with their locations and constraints, request body, paging rule,
 * deprecation), each operation its own export so that a bundle carries only the operations it calls.
 * The clients' actions, the query options, the route table (`routes`, `matchRoute`) and the paging
 * table (`paging`) all read these entries; nothing else restates them.
 */
export function emitService(spec: Spec): string {
  const table = operationTable(spec);
  const ids = Object.keys(table);
  const server = spec.doc.servers?.[0]?.url ?? '';
  const { camel, pascal, upper } = serviceNames(spec.name);
  const who = serviceWords(spec);
  const paths = apiPaths(Object.values(table).map((op) => op.path));
  const used = new Set<string>();
  // Each distinct check once, as a constant the entries name (`"check": checkAddress`): by the first
  // parameter that has it, a number after a name taken.
  const checks = new Map<string, string>();
  const named = <T extends Checked & { name: string }>(p: T, untyped: 'text' | 'none'): T | (T & { check: string }) => {
    const code = checkCode(p, used, untyped);
    if (code === undefined) return p;
    let name = checks.get(code);
    if (name === undefined) {
      const base = `check${p.name.replace(/(?:^|_)(.)/g, (_, c: string) => c.toUpperCase())}`;
      const taken = new Set(checks.values());
      name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
      checks.set(code, name);
    }
    // What the check carries (the pattern, the words of its message, an array's items) is not restated.
    const { description: _words, items: _items, ...rest } = p as T & { items?: unknown };
    const { pattern: _pattern, ...schema } = p.schema;
    return { ...rest, schema, check: `@@${name}@@` } as T & { check: string };
  };
  const entry = (id: string): string => {
    const e = table[id]!;
    const checked = { ...e, params: e.params.map((p) => named(p, 'text')), ...(e.body && { body: e.body.map((f) => named(f, 'none')) }) };
    return `/**
 * \`${id}\` of ${who}: \`${e.method} ${e.path}\`${e.deprecated ? ', deprecated' : ''}.${facts(e)}
 *
 * @example
 * \`\`\`ts
 * import { ${id} } from '@x/common';
 * ${id}.path; // '${e.path}'
 * \`\`\`
 */
export const ${id} = ${JSON.stringify(checked, null, 2).replace(/"@@(\w+)@@"/g, '$1')} as const;
`;
  };
  const entries = ids.map(entry).join('\n');
  const constants = [...checks].map(([code, name]) => `const ${name}: ParamCheck = (v, n, b) => ${code};\n`).join('');
  return `${header(spec.file)}
import { ${[...used].sort().join(', ')}, type ParamCheck } from '../param-checks.js';

// The checks of the parameters and body fields, each distinct one once: an entry's parameter names its
// own (\`check\`), which the transport runs with the value, its name and the client's error.
${constants}
/**
 * The first server of \`${spec.file}\`: the default base URL of ${who}'s client.
 *
 * @example
 * \`\`\`ts
 * import { ${upper}_BASE_URL } from '@x/common';
 * ${upper}_BASE_URL; // ${JSON.stringify(server).replace(/"/g, "'")}
 * \`\`\`
 */
export const ${upper}_BASE_URL = ${JSON.stringify(server)};

/**
 * The paths a client appends to a base URL (up to a version segment, else up to the first parameter):
 * a base URL that ends in one is refused with the base URL meant.
 *
 * @example
 * \`\`\`ts
 * import { ${upper}_API_PATHS } from '@x/common';
 * ${upper}_API_PATHS; // ${JSON.stringify(paths).replace(/"/g, "'").replace(/,/g, ', ')}
 * \`\`\`
 */
export const ${upper}_API_PATHS = ${JSON.stringify(paths)} as const;

${entries}
/**
 * Every operation of ${who} by id, in spec order: the table \`routes\` and \`paging\` are read from. Each
 * entry is also its own export above, which is what an action imports: a bundle then carries the
 * operations it calls, not this table.
 *
 * @example
 * \`\`\`ts
 * import { ${camel}Operations } from '@x/common';
 * Object.keys(${camel}Operations).length; // ${ids.length}
 * \`\`\`
 */
export const ${camel}Operations: {
${ids.map((id) => `  readonly ${id}: typeof ${id};\n`).join('')}} = { ${ids.join(', ')} };

/** The id of an operation of ${who}: a key of {@link ${camel}Operations}. */
export type ${pascal}OperationId = keyof typeof ${camel}Operations;
`;
}
