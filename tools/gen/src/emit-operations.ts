import type { ParameterObject, SchemaObject, Spec } from './specs.ts';
import { resolveRef } from './specs.ts';
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

/** Every operation of a spec, in spec order, as the clients' operation table. */
export function operationTable(spec: Spec): Record<string, OperationEntry> {
  const table: Record<string, OperationEntry> = {};
  for (const [path, item] of Object.entries(spec.doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? []).map((p) => resolveRef<ParameterObject>(spec.doc, p));
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
 * `routes.ts` for the conformance tool: every operation of both specs with its method and path
 * template, so a recorded request can be matched to the operation whose response it holds.
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
/** Every operation of both specs: the path templates recorded requests are matched against. */
export const routes = ${JSON.stringify(routes, null, 2)} as const;

export type Route = (typeof routes)[number];
`;
}
