import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** A parsed OpenAPI 3.1 document; the generator reads it as plain JSON. */
export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, SchemaObject>;
    parameters?: Record<string, ParameterObject>;
    responses?: Record<string, ResponseObject>;
    securitySchemes?: Record<string, unknown>;
  };
};
export type SchemaObject = Record<string, unknown>;
export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema: SchemaObject;
};
export type ResponseObject = {
  description: string;
  content?: Record<string, { schema?: SchemaObject }>;
};
export type OperationObject = {
  operationId: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  parameters?: (ParameterObject | { $ref: string })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: SchemaObject }> } | { $ref: string };
  responses: Record<string, ResponseObject | { $ref: string }>;
};

/** One spec of the project, with the packages its generated code goes to. */
/** The keys of an OpenAPI path item that are operations; the others (`parameters`, `summary`, ...) are not. */
export const HTTP_METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export type Spec = {
  /** Short name used in generated file names: `node-rpc` or `price-history`. */
  name: 'node-rpc' | 'price-history';
  file: string;
  doc: OpenApiDocument;
};

export const ROOT = join(import.meta.dirname, '..', '..', '..');

export const SPEC_FILES = {
  'node-rpc': 'specs/node-rpc.openapi.yaml',
  'price-history': 'specs/price-history.openapi.yaml',
} as const;

/** Reads both specs from `specs/`. */
export function loadSpecs(root = ROOT): { node: Spec; price: Spec } {
  const load = (name: Spec['name']): Spec => {
    const file = SPEC_FILES[name];
    const doc = parse(readFileSync(join(root, file), 'utf8')) as OpenApiDocument;
    return { name, file, doc };
  };
  return { node: load('node-rpc'), price: load('price-history') };
}

/** Resolves a local `#/components/...` reference. */
export function resolveRef<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    const parts = value.$ref.replace(/^#\//, '').split('/');
    let cur: unknown = doc;
    for (const p of parts) cur = (cur as Record<string, unknown>)[p.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (cur === undefined) throw new Error(`unresolved $ref ${value.$ref}`);
    return resolveRef(doc, cur as T);
  }
  return value as T;
}
