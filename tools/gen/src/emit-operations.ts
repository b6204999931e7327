import type { OperationObject, ParameterObject, SchemaObject, Spec } from './specs.ts';
import { resolveRef } from './specs.ts';
import { header } from './files.ts';

/** The parts of a parameter's schema a client checks before sending a request. */
const PARAM_SCHEMA_KEYS = ['type', 'format', 'minimum', 'maximum', 'pattern', 'default'] as const;

export type OperationEntry = {
  method: string;
  path: string;
  deprecated: boolean;
  summary: string;
  apiKey: 'required' | 'optional' | 'none';
  params: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  responses: Record<string, string | null>;
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

function apiKeyUse(op: OperationObject): OperationEntry['apiKey'] {
  const sec = op.security;
  if (!sec || sec.length === 0) return 'none';
  const withKey = sec.some((r) => Object.keys(r).length > 0);
  const anonymous = sec.some((r) => Object.keys(r).length === 0);
  return withKey ? (anonymous ? 'optional' : 'required') : 'none';
}

/** Every operation of a spec, in spec order, as the clients' operation table. */
export function operationTable(spec: Spec): Record<string, OperationEntry> {
  const table: Record<string, OperationEntry> = {};
  for (const [path, item] of Object.entries(spec.doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? []).map((p) => resolveRef<ParameterObject>(spec.doc, p));
      const responses: Record<string, string | null> = {};
      for (const [status, r] of Object.entries(op.responses)) {
        const ref = (r as { $ref?: string }).$ref;
        responses[status] = ref ? ref.split('/').pop()! : null;
      }
      table[op.operationId] = {
        method: method.toUpperCase(),
        path,
        deprecated: op.deprecated === true,
        summary: op.summary ?? '',
        apiKey: apiKeyUse(op),
        params: params.map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          schema: paramSchema(spec, p.schema),
        })),
        responses,
      };
    }
  }
  return table;
}

/**
 * `operations.ts` for a client: the default base URL and, per operationId, method, path, parameter
 * constraints and deprecation, read from the spec so the client never restates them.
 */
export function emitOperations(spec: Spec): string {
  const table = operationTable(spec);
  const ids = Object.keys(table);
  const server = spec.doc.servers?.[0]?.url ?? '';
  return `${header(spec.file)}
/** The first server of the spec: the client's default base URL. */
export const DEFAULT_BASE_URL = ${JSON.stringify(server)};

/** Method, path, parameters and their constraints of every operation, in spec order. */
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
