import type { ParameterObject, SchemaObject, Spec } from './specs.ts';
import { HTTP_METHODS, resolveRef } from './specs.ts';
import { header } from './files.ts';

/** The parts of a parameter's schema a client checks before sending a request. */
const PARAM_SCHEMA_KEYS = ['type', 'format', 'minimum', 'maximum', 'pattern'] as const;

/** What the clients read at run time of an operation; the table ships in every client bundle. */
export type OperationEntry = {
  method: string;
  path: string;
  params: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
};

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
      table[op.operationId] = {
        method: method.toUpperCase(),
        path,
        params: params.map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          schema: paramSchema(spec, p.schema),
        })),
      };
    }
  }
  return table;
}

/**
 * The node client serves every account operation in both versions (`node.v1.x` and `node.v2.x` from
 * `xV1` and `xV2`), so an operation id ending in V1 or V2 without its twin fails the generator, naming it,
 * instead of failing at run time.
 */
export function checkVersionPairs(spec: Spec): void {
  const ids = new Set(Object.keys(operationTable(spec)));
  for (const id of ids) {
    const m = /^(.*)V([12])$/.exec(id);
    if (!m) continue;
    const twin = `${m[1]}V${m[2] === '1' ? '2' : '1'}`;
    if (!ids.has(twin)) throw new Error(`${spec.file}: operation ${id} has no ${twin}: the node client serves each account operation in v1 and v2`);
  }
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

/** Method, path and the constraints of the parameters of every operation, in spec order. */
export const operations = ${JSON.stringify(table, null, 2)} as const;

export type OperationId = ${ids.map((id) => JSON.stringify(id)).join(' | ')};
`;
}

/**
 * The route matcher emitted with the table: the one rule by which a request path names an operation, for
 * every reader (the stubs' engine and node router, x-validate). Plain TypeScript without imports, so
 * that it compiles in every package the table is written to.
 */
const MATCHER = `
export type RouteService = Route['service'];
export type RouteOperationId = Route['operationId'];

/** A route a path names, with its path parameters decoded, by name. */
export interface RouteMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

export interface MatchRouteOptions {
  /** Only the routes of this service. */
  readonly service?: RouteService;
  /** Only the routes of this method (any case); every method when absent. */
  readonly method?: string;
  /**
   * Match a template at the end of the path, the longest template first, so that a path behind a proxy
   * prefix or a server's base path (\`/node/rpc/v2/...\`) or with one trailing slash still finds its
   * operation (recorded traffic). Default: the template must be the whole path.
   */
  readonly suffix?: boolean;
  /**
   * Whether a path parameter may be an empty segment (\`/rpc/v2/accounts//transactions\`), for a reader
   * that answers such a path with its own error. Default: a parameter is a non-empty segment.
   */
  readonly emptyParams?: boolean;
}

/**
 * The segments of a path after its first \`/\`, each percent-decoded; \`undefined\` when one is not valid
 * percent-encoding.
 */
export function pathSegments(path: string): string[] | undefined {
  const parts = path.split('/').slice(1);
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

const templates = routes
  .map((route) => ({ route, segments: route.path.split('/').slice(1) }))
  .sort((a, b) => b.segments.length - a.segments.length);

/**
 * The route a request path (without its query) names: segment by segment, decoded (\`%74ransactions\` is
 * \`transactions\`), a \`{parameter}\` matching one segment; \`undefined\` for a path no route names or that
 * is not valid percent-encoding.
 *
 * @example
 * \`\`\`ts
 * matchRoute('/rpc/v2/accounts/0x1/transactions'); // { route: { operationId: 'listTransactionsV2', ... }, params: { address: '0x1' } }
 * matchRoute('/proxy/rpc/v2/accounts/0x1/', { method: 'GET', suffix: true })?.route.operationId; // 'getAccountV2'
 * \`\`\`
 */
export function matchRoute(path: string, options: MatchRouteOptions = {}): RouteMatch | undefined {
  const segments = pathSegments(path);
  if (segments === undefined) return undefined;
  if (options.suffix === true && segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const method = options.method?.toUpperCase();
  for (const t of templates) {
    if (options.service !== undefined && t.route.service !== options.service) continue;
    if (method !== undefined && t.route.method !== method) continue;
    const offset = segments.length - t.segments.length;
    if (offset < 0 || (offset > 0 && options.suffix !== true)) continue;
    const params: Record<string, string> = {};
    const matched = t.segments.every((s, i) => {
      const seg = segments[offset + i] as string;
      if (!s.startsWith('{')) return s === seg;
      if (seg === '' && options.emptyParams !== true) return false;
      params[s.slice(1, -1)] = seg;
      return true;
    });
    if (matched) return { route: t.route, params };
  }
  return undefined;
}
`;

/**
 * `routes.ts`: every operation of both specs with its method and path template, and `matchRoute`, the
 * one matcher of request paths to operations: the stubs name the operation of each request and route
 * it by operation id, and the conformance tool finds the operation a recorded response belongs to.
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
${MATCHER}`;
}
