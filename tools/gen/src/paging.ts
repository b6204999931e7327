import type { OperationObject, ParameterObject, SchemaObject, Spec } from './specs.ts';
import { HTTP_METHODS, resolveRef } from './specs.ts';
// The encodings and the names of what ends a walk (a walk also ends at `limit`) are the readers' own.
import { PAGING_ENCODINGS, PAGING_ENDS, type PagingEncoding, type PagingEnd } from '@x/common';

/**
 * The paging contract of a listing operation, as its `x-pagination` extension states it in the spec:
 * where the items are, where the next `start` comes from, what ends a walk, and whether page starts
 * can be predicted. Pointers are JSON Pointers, emitted as their segments.
 */
export type PagingRule = {
  items: string[];
  next:
    | { from: 'last-item'; pointer: string[]; encoding: 'u64'; add: number }
    | { from: 'response'; pointer: string[]; encoding: PagingEncoding }
    | { from: 'header'; name: string; encoding: 'u64' | 'string' };
  ends: PagingEnd[];
  predictable: boolean;
  newestFirstWithoutStart: boolean;
  order?: string;
  start?: string;
  size?: string;
  filters?: string[];
};


const EXTENSION = 'x-pagination';

/** JSON Pointer segments (`/a/b~1c` -> `['a', 'b/c']`); the empty pointer is the whole value. */
function segments(pointer: unknown, where: string): string[] {
  if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/'))) throw new Error(`${where}: must be a JSON Pointer, got ${JSON.stringify(pointer)}`);
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Every schema a value at `path` below `schema` may have (through $ref, oneOf, anyOf, allOf, items). */
function schemasAt(spec: Spec, schema: SchemaObject, path: readonly string[]): SchemaObject[] {
  const s = resolveRef<SchemaObject>(spec.doc, schema);
  const branches = (['oneOf', 'anyOf', 'allOf'] as const).flatMap((k) => (Array.isArray(s[k]) ? (s[k] as SchemaObject[]) : []));
  if (branches.length > 0) return branches.flatMap((b) => schemasAt(spec, b, path));
  if (path.length === 0) return [s];
  const [head, ...rest] = path as [string, ...string[]];
  const props = s.properties as Record<string, SchemaObject> | undefined;
  if (props?.[head]) return schemasAt(spec, props[head], rest);
  return [];
}

const types = (spec: Spec, schemas: SchemaObject[]): Set<string> =>
  new Set(
    schemas.flatMap((raw) => {
      const s = resolveRef<SchemaObject>(spec.doc, raw);
      if (s.const === null) return ['null'];
      return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
    }),
  );

/** The start and page-size query parameters (`start` and `count`, or the names the extension gives), the 200 body schema and response headers of an operation. */
function parts(spec: Spec, op: OperationObject, startName = 'start', sizeName = 'count'): { start?: ParameterObject; count?: ParameterObject; body?: SchemaObject; headers: Record<string, unknown>; params: ParameterObject[] } {
  const params = (op.parameters ?? []).map((p) => resolveRef<ParameterObject>(spec.doc, p));
  const ok = op.responses['200'] ? resolveRef(spec.doc, op.responses['200']) : undefined;
  const body = ok && 'content' in ok ? ok.content?.['application/json']?.schema : undefined;
  return {
    start: params.find((p) => p.in === 'query' && p.name === startName),
    count: params.find((p) => p.in === 'query' && p.name === sizeName),
    body,
    headers: ((ok as { headers?: Record<string, unknown> } | undefined)?.headers ?? {}),
    params,
  };
}

/**
 * Reads and checks the `x-pagination` extension of one operation against the operation itself, so a
 * contract that points at nothing, or promises what the schema cannot give, fails `pnpm gen` naming
 * the operation and the key.
 */
export function pagingRule(spec: Spec, op: OperationObject): PagingRule {
  const where = `${spec.file}: ${op.operationId}: ${EXTENSION}`;
  const raw = (op as unknown as Record<string, unknown>)[EXTENSION] as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== 'object') throw new Error(`${where}: missing; every operation with a \`start\` query parameter is a listing and states its paging`);
  const known = ['items', 'next', 'ends', 'predictable', 'newestFirstWithoutStart', 'order', 'start', 'size'];
  for (const key of Object.keys(raw)) if (!known.includes(key)) throw new Error(`${where}: unknown key '${key}' (known: ${known.join(', ')})`);
  if (raw.start !== undefined && (typeof raw.start !== 'string' || raw.start === '')) throw new Error(`${where}.start: must name the query parameter a page starts at`);
  const startName = (raw.start as string | undefined) ?? 'start';
  if (raw.size !== undefined && (typeof raw.size !== 'string' || raw.size === '')) throw new Error(`${where}.size: must name the query parameter of a page's size`);
  const sizeName = (raw.size as string | undefined) ?? 'count';
  const { start, count, body, headers, params } = parts(spec, op, startName, sizeName);
  if (!start) throw new Error(`${where}: the operation has no \`${startName}\` query parameter to page with`);
  if (raw.size !== undefined && (!count || !types(spec, [count.schema]).has('integer'))) throw new Error(`${where}.size: must name an integer query parameter of the operation, got ${JSON.stringify(raw.size)}`);
  if (raw.order !== undefined) {
    const order = params.find((p) => p.in === 'query' && p.name === raw.order);
    if (!order || !types(spec, [order.schema]).has('boolean')) throw new Error(`${where}.order: must name a boolean query parameter of the operation, got ${JSON.stringify(raw.order)}`);
  }
  if (!body) throw new Error(`${where}: the operation has no application/json 200 body to read pages from`);

  const items = segments(raw.items, `${where}.items`);
  const itemSchemas = schemasAt(spec, body, items);
  if (!types(spec, itemSchemas).has('array')) throw new Error(`${where}.items: ${String(raw.items)} is not an array in the 200 body`);

  const next = raw.next as Record<string, unknown> | undefined;
  if (!next || typeof next !== 'object') throw new Error(`${where}.next: missing`);
  const encoding = next.encoding as PagingEncoding;
  if (!PAGING_ENCODINGS.includes(encoding)) throw new Error(`${where}.next.encoding: must be one of ${PAGING_ENCODINGS.join(', ')}, got ${JSON.stringify(next.encoding)}`);
  const startType = types(spec, [start.schema]);
  if ((encoding === 'u64') !== startType.has('integer')) throw new Error(`${where}.next.encoding: ${encoding} does not fit the \`start\` parameter's type (${[...startType].join(', ')})`);
  const pointer = next.from === 'header' ? [] : segments(next.pointer, `${where}.next.pointer`);
  let rule: PagingRule['next'];
  let cursorTypes: Set<string>;
  if (next.from === 'last-item') {
    if (encoding !== 'u64') throw new Error(`${where}.next: from last-item needs encoding u64`);
    if (!Number.isInteger(next.add)) throw new Error(`${where}.next.add: an integer is needed with from last-item`);
    const element = itemSchemas.flatMap((s) => (s.items ? [s.items as SchemaObject] : []));
    cursorTypes = types(spec, element.flatMap((e) => schemasAt(spec, e, pointer)));
    rule = { from: 'last-item', pointer, encoding, add: next.add as number };
  } else if (next.from === 'response') {
    if (next.add !== undefined) throw new Error(`${where}.next.add: only with from last-item`);
    cursorTypes = types(spec, schemasAt(spec, body, pointer));
    rule = { from: 'response', pointer, encoding };
  } else if (next.from === 'header') {
    if (next.add !== undefined || next.pointer !== undefined) throw new Error(`${where}.next: a header cursor has a name, no pointer or add`);
    if (typeof next.name !== 'string' || !(next.name in headers)) throw new Error(`${where}.next.name: ${JSON.stringify(next.name)} is not a header of the 200 response`);
    if (encoding === 'u8-bytes-or-hex') throw new Error(`${where}.next.encoding: a header cursor is text, a u64 or a string`);
    // A header is text: a u64 cursor comes as its decimal digits.
    cursorTypes = new Set(['string', ...(encoding === 'u64' ? ['integer'] : [])]);
    rule = { from: 'header', name: next.name.toLowerCase(), encoding };
  } else {
    throw new Error(`${where}.next.from: must be last-item, response or header, got ${JSON.stringify(next.from)}`);
  }
  const wanted = encoding === 'u64' ? 'integer' : encoding === 'string' ? 'string' : 'array';
  if (!cursorTypes.has(wanted)) throw new Error(`${where}.next.pointer: ${String(next.pointer)} is not ${wanted === 'integer' ? 'an' : 'a'} ${wanted} in the 200 body`);

  const ends = raw.ends as PagingEnd[];
  if (!Array.isArray(ends) || ends.some((e) => !PAGING_ENDS.includes(e))) throw new Error(`${where}.ends: must list some of ${PAGING_ENDS.join(', ')}, got ${JSON.stringify(raw.ends)}`);
  const fits: Record<PagingEnd, () => boolean> = {
    'short-page': () => count !== undefined,
    'empty-page': () => true,
    // Tolerances: the document leaves open when v1 answers null (its rule 7), and a walk that meets a
    // null body or cursor has nowhere to go, whatever the schema promises.
    'null-body': () => true,
    'zero-cursor': () => encoding === 'u64',
    'null-cursor': () => rule.from !== 'last-item',
    'empty-cursor': () => encoding !== 'u64' || rule.from === 'header',
    'not-advancing': () => encoding === 'u64',
    'repeated-cursor': () => true,
  };
  for (const end of ends) if (!fits[end]()) throw new Error(`${where}.ends: '${end}' cannot happen for this operation's schema`);
  if (!ends.includes('repeated-cursor')) throw new Error(`${where}.ends: must include repeated-cursor, or a server could keep a walk going forever`);

  if (typeof raw.predictable !== 'boolean') throw new Error(`${where}.predictable: must be true or false`);
  if (raw.predictable && (rule.from !== 'last-item' || !ends.includes('short-page'))) {
    throw new Error(`${where}.predictable: page starts are predictable only when the next start follows the last item and a short page ends the walk`);
  }
  if (typeof raw.newestFirstWithoutStart !== 'boolean') throw new Error(`${where}.newestFirstWithoutStart: must be true or false`);
  // A walk's filters: the query parameters that are not the page's own (its start, size and order, or a
  // parameter the start excludes), which a walk takes from its caller and sends on every page.
  const exclusive = (op as unknown as Record<string, unknown>)['x-exclusive-parameters'];
  const own = [startName, sizeName, raw.order, ...(Array.isArray(exclusive) && exclusive.includes(startName) ? exclusive : [])];
  const filters = params.filter((p) => p.in === 'query' && !own.includes(p.name)).map((p) => p.name);
  return {
    items,
    next: rule,
    ends,
    predictable: raw.predictable,
    newestFirstWithoutStart: raw.newestFirstWithoutStart,
    ...(raw.order !== undefined && { order: raw.order as string }),
    ...(raw.start !== undefined && { start: startName }),
    ...(raw.size !== undefined && { size: sizeName }),
    ...(filters.length > 0 && { filters }),
  };
}

/** The paging rule of every listing operation (those with a `start` query parameter), in spec order. */
export function pagingTable(spec: Spec): Record<string, PagingRule> {
  const table: Record<string, PagingRule> = {};
  for (const item of Object.values(spec.doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const { start } = parts(spec, op);
      const declared = (op as unknown as Record<string, unknown>)[EXTENSION] !== undefined;
      if (start || declared) table[op.operationId] = pagingRule(spec, op);
    }
  }
  return table;
}
