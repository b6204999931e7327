import type { OperationObject, Spec } from './specs.ts';
import { HTTP_METHODS, resolveRef } from './specs.ts';
import { header } from './files.ts';
import { operationTable, type OperationEntry } from './emit-operations.ts';
import type { PagingRule } from './paging.ts';

/**
 * The extension of an operation whose answer's type is chosen by one of its path parameters (a Move
 * resource by its type string): `x-result-by-type: resource_type`. The action then takes that parameter
 * as a type parameter `T` and answers `MoveResourceOf<T>`.
 */
const RESULT_BY_TYPE = 'x-result-by-type';

/**
 * The extension of an operation whose answer's type is chosen by a field of its request body (a view
 * function by its name): `x-result-by-function: function`. The action then takes the body as
 * `ViewRequestOf<F>` and answers `ViewResultOf<F>` (the node client's `view-functions.ts`).
 */
const RESULT_BY_FUNCTION = 'x-result-by-function';

/** One operation as the emitters of actions read it. */
export type Action = {
  id: string;
  /** The name without its version suffix: `getAccount` of `getAccountV2`. */
  name: string;
  /** `V2` of `getAccountV2`; operations without a version suffix are not grouped. */
  version: string | undefined;
  entry: OperationEntry;
  op: OperationObject;
  paging: PagingRule | undefined;
  spec: Spec;
};

/**
 * The extension of an operation read one height at a time that a walk steps through (blocks):
 * `x-range-walk: { name, parameter, latest, pointer }`, the walk's short name, the u64 path parameter,
 * the operation that answers the latest item, and where an answer holds its height.
 */
const RANGE_WALK = 'x-range-walk';

type RangeWalk = { name: string; parameter: string; latest: string; pointer: string[] };

/** An operation's `x-range-walk`, checked against the operation and the spec. */
function rangeWalk(a: Action, all: readonly Action[]): RangeWalk | undefined {
  const raw = (a.op as unknown as Record<string, unknown>)[RANGE_WALK] as Record<string, unknown> | undefined;
  if (raw === undefined) return undefined;
  const where = `${a.spec.file}: ${a.id}: ${RANGE_WALK}`;
  const known = ['name', 'parameter', 'latest', 'pointer'];
  for (const key of Object.keys(raw)) if (!known.includes(key)) throw new Error(`${where}: unknown key '${key}' (known: ${known.join(', ')})`);
  if (a.entry.body || a.paging) throw new Error(`${where}: a range walk reads an operation without a body or paging of its own`);
  if (typeof raw.name !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(raw.name)) throw new Error(`${where}.name: must be a walk's name, got ${JSON.stringify(raw.name)}`);
  if (!a.entry.params.some((p) => p.in === 'path' && p.name === raw.parameter && p.schema.format === 'uint64')) throw new Error(`${where}.parameter: must name a u64 path parameter, got ${JSON.stringify(raw.parameter)}`);
  const latest = all.find((b) => b.id === raw.latest);
  if (!latest || latest.entry.params.some((p) => p.required) || latest.entry.body) throw new Error(`${where}.latest: must name an operation without required parameters, got ${JSON.stringify(raw.latest)}`);
  if (typeof raw.pointer !== 'string' || !raw.pointer.startsWith('/')) throw new Error(`${where}.pointer: must be a JSON Pointer, got ${JSON.stringify(raw.pointer)}`);
  const clash = all.find((b) => b.version === a.version && (b.name === raw.name || (b.paging && walkName(b.name) === raw.name)));
  if (clash) throw new Error(`${where}.name: '${raw.name}' is already ${clash.id}'s name in node.${a.version?.toLowerCase()}`);
  const options = ['order', 'limit', 'concurrency', 'signal', 'start_height', 'end_height'];
  const taken = a.entry.params.find((p) => p.in === 'query' && options.includes(p.name));
  if (taken) throw new Error(`${where}: the query parameter '${taken.name}' would clash with the walk's own option of that name`);
  const pointer = raw.pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return { name: raw.name, parameter: raw.parameter as string, latest: latest.id, pointer };
}

/** The exported function of a range walk: `walkBlocksV3`. */
const rangeFunction = (a: Action, w: RangeWalk): string => `walk${w.name.charAt(0).toUpperCase()}${w.name.slice(1)}${a.version ?? ''}`;

/** A range walk's options: the range, and the operation's query parameters. */
function rangeOptions(a: Action): string {
  const fields = a.entry.params.filter((p) => p.in === 'query').map((p) => `${p.name}?: ${paramType(p)} | undefined`);
  return `RangeWalkOptions${fields.length ? ` & { ${fields.join('; ')} }` : ''}`;
}

/** Example values of the positional parameters in TSDoc examples, as code. */
const EXAMPLES: Record<string, string> = {
  address: "'0x1'",
  module_name: "'coin'",
  resource_type: "'0x1::account::Account'",
  event_type: "'0x1::coin::CoinDeposit'",
  hash: 'hash',
  block_hash: 'block.header.hash',
  height: '1',
  table_handle: 'handle',
  body: 'request',
};
export const example = (name: string): string => EXAMPLES[name] ?? "'…'";

export const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The name of an operation's walk, from its listing's name: `listCoinTransactions` walks as `coinTransactions`. */
export const walkName = (name: string): string => {
  const rest = name.replace(/^list/, '');
  return rest.charAt(0).toLowerCase() + rest.slice(1);
};

/** The exported walk of a listing: `walkTransactionsV2` walks `listTransactionsV2`. */
const walkFunction = (a: { name: string; version: string | undefined }): string => {
  const n = walkName(a.name);
  return `walk${n.charAt(0).toUpperCase()}${n.slice(1)}${a.version ?? ''}`;
};

/** Every operation of the spec with its version and paging, in spec order. */
export function actions(spec: Spec): Action[] {
  const table = operationTable(spec);
  const list: Action[] = [];
  for (const item of Object.values(spec.doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const m = /^(.*)(V\d+)$/.exec(op.operationId);
      list.push({ id: op.operationId, name: m ? m[1]! : op.operationId, version: m?.[2], entry: table[op.operationId]!, op, paging: table[op.operationId]!.paging, spec });
    }
  }
  return list;
}

const SCHEMA_REF = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/;

/**
 * The name of a schema's type in `@x/node-types` (one alias per component schema), so that hovers and
 * errors show `AccountData`, not `components["schemas"]["AccountData"]`: a `$ref`, an array of one (`X[]`),
 * or, below `pointer` (a page's items), the array's item. `undefined` where the schema is not that plain
 * (a union of pages, an inline object): the caller then falls back to the operation's body type.
 */
function namedType(spec: Spec, schema: unknown, pointer: readonly string[] = []): { name: string; array: boolean } | undefined {
  let cur = schema as Record<string, unknown> | undefined;
  for (const key of pointer) {
    const ref = typeof cur?.$ref === 'string' ? cur.$ref : undefined;
    if (ref !== undefined) cur = resolveRef<Record<string, unknown>>(spec.doc, { $ref: ref });
    cur = (cur?.properties as Record<string, Record<string, unknown>> | undefined)?.[key];
  }
  if (cur === undefined) return undefined;
  const own = typeof cur.$ref === 'string' ? SCHEMA_REF.exec(cur.$ref)?.[1] : undefined;
  if (pointer.length === 0 && own !== undefined) return { name: own, array: false };
  const resolved = own !== undefined ? resolveRef<Record<string, unknown>>(spec.doc, cur as { $ref: string }) : cur;
  const items = resolved.type === 'array' ? (resolved.items as Record<string, unknown> | undefined) : undefined;
  const item = typeof items?.$ref === 'string' ? SCHEMA_REF.exec(items.$ref)?.[1] : undefined;
  if (item === undefined) return undefined;
  // A named array schema stays its own name as a whole body (`AccountStatementV3`), its item below a pointer.
  return pointer.length === 0 && own !== undefined ? { name: own, array: false } : { name: item, array: true };
}

/** Names of `@x/node-types` the generated code uses, collected as types are written. */
export const used = new Set<string>();

/** The type of an operation's success body: its schema's name where it has one, else the body type by operation id. */
function bodyType(a: Action): string {
  const named = namedType(a.spec, bodySchema(a.spec, a));
  if (named === undefined) return `ResponseBody<'${a.id}'>`;
  used.add(named.name);
  return named.array ? `${named.name}[]` : named.name;
}

/** The type of a page's item at `pointer`: its schema's name where it has one. */
function itemType(a: Action, pointer: readonly string[]): string {
  const named = namedType(a.spec, bodySchema(a.spec, a), pointer);
  if (named === undefined || (!named.array && pointer.length > 0)) return `ItemOf<ResponseBody<'${a.id}'>, ${JSON.stringify(pointer)}>`;
  if (!named.array) {
    // A named array body (`AccountStatementV3`): its item's name.
    const inner = namedType(a.spec, resolveRef(a.spec.doc, { $ref: `#/components/schemas/${named.name}` }), []);
    if (inner === undefined || !inner.array) return `ItemOf<ResponseBody<'${a.id}'>, ${JSON.stringify(pointer)}>`;
    used.add(inner.name);
    return inner.name;
  }
  used.add(named.name);
  return named.name;
}

/** The 200 body schema of an operation. */
const bodySchema = (spec: Spec, a: Action): unknown => {
  const ok = a.op.responses['200'] ? resolveRef(spec.doc, a.op.responses['200']) : undefined;
  return ok && 'content' in ok ? ok.content?.['application/json']?.schema : undefined;
};

/** The TypeScript type a caller passes for a parameter: u64s in any of their forms, v1 byte cursors as bytes or hex. */
export function paramType(p: OperationEntry['params'][number]): string {
  if (p.encoding === 'u8-bytes-or-hex') return 'string | readonly number[]';
  if (p.schema.format === 'uint64') return 'U64Input';
  if (p.schema.type === 'integer' || p.schema.type === 'number') return 'number';
  if (p.schema.type === 'boolean') return 'boolean';
  if (Array.isArray(p.schema.enum)) return (p.schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  return 'string';
}

/** A TSDoc comment from lines, indented. */
export function doc(lines: readonly string[], indent = ''): string {
  const text = lines.flatMap((l) => l.split('\n')).map((l) => l.trimEnd());
  while (text.length > 0 && text.at(-1) === '') text.pop();
  return `${indent}/**\n${text.map((l) => `${indent} *${l === '' ? '' : ` ${l.replace(/\*\//g, '*\\/')}`}`).join('\n')}\n${indent} */\n`;
}

/** The newest operation of the same name in a later version, for a deprecated one's pointer. */
function successor(a: Action, all: readonly Action[]): Action | undefined {
  const later = all.filter((b) => b.name === a.name && b.version !== undefined && a.version !== undefined && Number(b.version.slice(1)) > Number(a.version.slice(1)) && !b.op.deprecated);
  return later.sort((x, y) => Number(y.version!.slice(1)) - Number(x.version!.slice(1)))[0];
}

/** The name of an operation's request body schema, where it has one. */
function requestType(a: Action): string {
  const body = a.op.requestBody === undefined ? undefined : resolveRef<{ content?: Record<string, { schema?: unknown }> }>(a.spec.doc, a.op.requestBody);
  const named = namedType(a.spec, body?.content?.['application/json']?.schema);
  if (named === undefined || named.array) throw new Error(`${a.id}: a request body must be a named object schema (components/schemas)`);
  used.add(named.name);
  // Fields with a default (a view call's `type_arguments`) may be left out: the client sends the default.
  const optional = (a.entry.body ?? []).filter((f) => f.default !== undefined).map((f) => `'${f.name}'`);
  return optional.length === 0 ? named.name : `Omit<${named.name}, ${optional.join(' | ')}> & Partial<Pick<${named.name}, ${optional.join(' | ')}>>`;
}

/** The parts of one operation's signature: the positional path parameters (and request body), the options' type, the result. */
export function signature(a: Action): { generic: string; positional: { name: string; camel: string; type: string }[]; options: string; query: string[]; result: string } {
  const extensions = a.op as unknown as Record<string, unknown>;
  const byType = extensions[RESULT_BY_TYPE] as string | undefined;
  if (byType !== undefined && !a.entry.params.some((p) => p.in === 'path' && p.name === byType)) {
    throw new Error(`${a.id}: ${RESULT_BY_TYPE} names '${byType}', which is not one of its path parameters`);
  }
  const byFunction = extensions[RESULT_BY_FUNCTION] as string | undefined;
  if (byFunction !== undefined && (typeof byFunction !== 'string' || !a.entry.body?.some((f) => f.name === byFunction))) {
    throw new Error(`${a.id}: ${RESULT_BY_FUNCTION} names '${byFunction}', which is not a field of its request body`);
  }
  // A type string infers the result (a framework resource, a typed view function); a type given instead
  // (`getResource<Registry>`, `view<[string]>`) is the result of one of your own.
  const positional = a.entry.params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, camel: camel(p.name), type: p.name === byType ? 'T extends string ? T : string' : paramType(p) }));
  // The request body follows the path parameters, as `request`.
  if (a.entry.body) positional.push({ name: 'body', camel: 'request', type: byFunction !== undefined ? 'F extends string ? ViewRequestOf<F> : ViewRequestOf<string>' : requestType(a) });
  const query = a.entry.params.filter((p) => p.in === 'query');
  const fields = query.map((p) => `${p.name}?: ${paramType(p)} | undefined`);
  const options = fields.length === 0 ? 'CallOptions' : `CallOptions & { ${fields.join('; ')} }`;
  return {
    generic: byType !== undefined ? '<T extends string | object = string>' : byFunction !== undefined ? '<F extends string | readonly unknown[] = string>' : '',
    positional,
    options,
    query: query.map((p) => p.name),
    // A header-cursor listing answers its items and the header's cursor: a bare array would lose the header.
    result:
      byType !== undefined
        ? 'MoveResourceOf<T>'
        : byFunction !== undefined
          ? 'ViewResultOf<F>'
          : a.paging?.next.from === 'header'
            ? a.paging.items.length === 0
              ? `CursorPage<${itemType(a, [])}>`
              : `CursorPage<${itemType(a, a.paging.items)}>`
            : bodyType(a),
  };
}

/** The query parameters a walk takes from its caller and sends on every page: its paging rule's `filters`. */
const walkFilters = (a: Action): OperationEntry['params'] => a.entry.params.filter((p) => a.paging!.filters?.includes(p.name));

/**
 * The options of a walk: its start's type; newest first where page starts are predictable, either order
 * where an order parameter says it; and the listing's filters.
 */
export function walkSignature(a: Action, rule: PagingRule): { options: string; item: string } {
  const start = a.entry.params.find((p) => p.in === 'query' && p.name === (rule.start ?? 'start'))!;
  const type = paramType(start);
  const order =
    rule.predictable && rule.newestFirstWithoutStart
      ? `WalkOrder<${type}>`
      : rule.order !== undefined
        ? `{ order?: 'asc' | 'desc' | undefined; start?: ${type} | undefined }`
        : `{ order?: 'asc' | undefined; start?: ${type} | undefined }`;
  const filters = walkFilters(a).map((p) => `${p.name}?: ${paramType(p)} | undefined`);
  return { options: `IterateOptions & ${order}${filters.length ? ` & { ${filters.join('; ')} }` : ''}`, item: itemType(a, rule.items) };
}

export function actionDoc(a: Action, all: readonly Action[], how: 'action' | 'method'): string[] {
  const lines: string[] = [];
  if (a.op.summary) lines.push(`${a.op.summary}.`);
  if (a.op.description) lines.push('', a.op.description.trim());
  lines.push('', `\`${a.entry.method} ${a.entry.path}\` (\`${a.id}\`).`);
  if (a.op.deprecated) {
    const next = successor(a, all);
    const use = next === undefined ? '' : how === 'action' ? ` Use {@link ${next.id}}.` : ` Use \`node.${next.version!.toLowerCase()}.${next.name}\`.`;
    lines.push(`@deprecated The node marks this operation deprecated.${use}`);
  }
  return lines;
}

/**
 * The operations of `node.vN`: those of version N, then every operation of an older version that no
 * version up to N replaces and the node does not deprecate (the chain id of v1, a table item of v2), so
 * that `node.v3` is the whole current API, and stays so when a v4 arrives.
 */
export function membersOf(all: readonly Action[], v: string): Action[] {
  const n = (a: Action): number => Number(a.version!.slice(1));
  const at = Number(v.slice(1));
  const versioned = all.filter((a) => a.version !== undefined);
  const carried = versioned.filter((a) => n(a) < at && !a.op.deprecated && !versioned.some((b) => b.name === a.name && n(b) > n(a) && n(b) <= at));
  return [...versioned.filter((a) => a.version === v), ...carried];
}

/** The import of the view functions' types, where an operation's answer is typed by its function. */
export const viewImport = (all: readonly Action[]): string =>
  all.some((a) => signature(a).result.startsWith('ViewResultOf')) ? "import type { ViewRequestOf, ViewResultOf } from '../view-functions.js';\n" : '';

/** The versions of the spec's operations (`V1`, `V2`, ...), in spec order. */
export const versionsOf = (all: readonly Action[]): string[] => [...new Set(all.flatMap((a) => (a.version === undefined ? [] : [a.version])))];

/** The TSDoc line of a version whose every operation the node deprecates; none otherwise. */
export const versionDeprecation = (all: readonly Action[], v: string): string[] =>
  all.filter((a) => a.version === v).every((a) => a.op.deprecated) ? ['@deprecated The node marks every operation of this version deprecated.'] : [];

/** A walk's positional parameters: a typed-by parameter is any string there (the walk's items are not typed by it). */
export const walkPositional = (s: ReturnType<typeof signature>): string[] => s.positional.map((p) => `${p.camel}: ${p.type === 'T' ? 'string' : p.type}`);

/**
 * The node client's generated actions, in three modules: `actions.ts`, one exported function per
 * operation (`getAccountV2(client, address, options)`) and per version the table of its operations and
 * walks under their short names with its type, which the convenience client binds (`node.v2.getAccount`,
 * `node.v2.transactions`); `walks.ts`, one walk per listing (`walkTransactionsV2(client, address,
 * options)`) and per range walk (`walkBlocksV3`), which the tables reach through `lazyWalk` so that a
 * client that never walks does not carry the walk engine; `readings.ts`, the operations that an action and
 * its walk send with their own reading of the answer. Each function reads only its own operation's entry,
 * so a bundle carries the operations it calls and no other.
 */
export function emitActions(spec: Spec): Map<string, string> {
  const all = actions(spec);
  const dir = 'packages/node-client/src/generated';
  return new Map([
    [`${dir}/actions.ts`, emitActionsModule(spec, all)],
    [`${dir}/walks.ts`, emitWalks(spec, all)],
    [`${dir}/readings.ts`, emitReadings(spec, all)],
  ]);
}

/** The readings an action or walk sends instead of the table's entry, as `import { ... } from './readings.js'`. */
const readingsImport = (list: readonly Action[]): string => {
  const names = [...new Set(list.filter((a) => answerOf(a)).map(opRef))];
  return names.length ? `import { ${names.join(', ')} } from './readings.js';\n` : '';
};

/** `readings.ts`: each operation with its own reading of its answer (a header cursor's page, page metadata, an echo check). */
function emitReadings(spec: Spec, all: readonly Action[]): string {
  const out: string[] = [];
  const readers = new Set<string>(['answering']);
  for (const a of all) {
    const reading = answerOf(a);
    if (!reading) continue;
    readers.add(reading);
    out.push(`/** \`${a.id}\` with its own reading of its answer (\`${reading}\`). */\nexport const ${a.id}Op = /* @__PURE__ */ answering('${a.id}', op.${a.id}, ${reading});\n`);
  }
  return `${header(spec.file)}
// The operations an action and its walk send with their own reading of the answer, made once each.
import { ${[...readers].sort().join(', ')} } from '../answers.js';
import * as op from '@x/common';

${out.join('\n')}`;
}

/** `walks.ts`: one walk per listing, one per range walk. */
function emitWalks(spec: Spec, all: readonly Action[]): string {
  used.clear();
  const out: string[] = [];
  const ranged = all.some((a) => rangeWalk(a, all));
  const walked = all.filter((a) => a.paging || rangeWalk(a, all));
  out.push('');
  for (const a of walked) {
    const s = signature(a);
    const range = rangeWalk(a, all);
    if (range) {
      const fixed = s.positional.filter((p) => p.name !== range.parameter);
      const item = bodyType(a);
      out.push(
        `${doc([`Every \`${a.id}\` over a range of \`${range.parameter}\`s, one request per ${range.parameter}, in order (see \`RangeWalkOptions\`).`, '', '@example', '```ts', `for await (const item of ${rangeFunction(a, range)}(http({ baseUrl: NODE_URLS.testnet }), ${[...fixed.map((p) => example(p.name)), '{ order: \'desc\', limit: 10 }'].join(', ')})) console.log(item);`, '```'])}` +
          `export function ${rangeFunction(a, range)}(client: Caller, ${[...fixed.map((p) => `${p.camel}: ${p.type}`), `options?: ${rangeOptions(a)}`].join(', ')}): Walk<${item}> {\n` +
          `  return walkRange(client, { operationId: '${a.id}', op: ${opRef(a)}, parameter: '${range.parameter}', latestId: '${range.latest}', latest: op.${range.latest}, pointer: ${JSON.stringify(range.pointer)} }, { ${fixed.map((p) => (p.name === p.camel ? p.name : `${p.name}: ${p.camel}`)).join(', ')} }, options) as Walk<${item}>;\n}\n`,
      );
    }
    if (a.paging) {
      const w = walkSignature(a, a.paging);
      const fixed = s.positional.map((p) => (p.name === p.camel ? p.name : `${p.name}: ${p.camel}`));
      out.push(
        `${doc([`Every item of \`${a.id}\`, page after page, as the spec's paging rule says (see \`IterateOptions\`).`, ...(a.op.deprecated ? actionDoc(a, all, 'action').filter((l) => l.startsWith('@deprecated')).map((l) => l.replace(/\{@link (\w+)V(\d+)\}/, (_, name: string, v: string) => `{@link ${walkFunction({ name, version: `V${v}` })}}`)) : []), '', '@example', '```ts', `for await (const item of ${walkFunction(a)}(${['http({ baseUrl: NODE_URLS.testnet })', ...s.positional.map((p) => example(p.name))].join(', ')})) console.log(item);`, '```'])}` +
          `export function ${walkFunction(a)}(client: Caller, ${[...walkPositional(s), `options?: ${w.options}`].join(', ')}): Walk<${w.item}> {\n` +
          `  return walkListing(client, '${a.id}', ${opRef(a)} as ListingSpec, { ${fixed.join(', ')} }, options) as Walk<${w.item}>;\n}\n`,
      );
    }
  }
  // The names of types.ts and @x/node-types the walks' signatures use (an action's result type is not one).
  const uses = (name: string): boolean => out.some((part) => new RegExp(`\\b${name}\\b`).test(part));
  const types = ['Caller', 'ItemOf', 'ResponseBody', 'U64Input', 'WalkOrder'].filter(uses);
  for (const name of [...used]) if (!uses(name)) used.delete(name);
  out[0] = `${header(spec.file)}
import type { ${types.join(', ')} } from '../types.js';
import { walkListing, type IterateOptions, type ListingSpec, type Walk } from '../walk.js';
${ranged ? "import { walkRange, type RangeWalkOptions } from '../walk-range.js';\n" : ''}${readingsImport(walked)}import * as op from '@x/common';
`;
  return withNodeTypes(out);
}

/** `actions.ts`: the actions, and per version the table `createNodeClient` binds. */
function emitActionsModule(spec: Spec, all: readonly Action[]): string {
  used.clear();
  const out: string[] = [];
  const usesByType = all.some((a) => signature(a).result.startsWith('MoveResourceOf'));
  const ranged = all.some((a) => rangeWalk(a, all));
  out.push(`${header(spec.file)}
import type { CallOptions } from '@x/client-core';
import type { Caller, CursorPage, ItemOf, ResponseBody, U64Input, WalkOrder } from '../types.js';
${usesByType ? "import type { MoveResourceOf } from '../resources.js';\n" : ''}${viewImport(all)}import type { IterateOptions, Walk } from '../walk.js';
${ranged ? "import type { RangeWalkOptions } from '../walk-range.js';\n" : ''}import { lazyWalk } from '../lazy-walk.js';
CHECKS
${readingsImport(all)}${all.some((a) => a.entry.body) ? "import { callWithBody } from '../body-call.js';\n" : ''}import * as op from '@x/common';
`);
  const checksUsed = new Set<string>();
  for (const a of all) {
    const s = signature(a);
    const params = s.positional.map((p) => `${p.camel}: ${p.type}`);
    const args = [...s.positional.map((p) => (p.name === p.camel ? p.name : `${p.name}: ${p.camel}`)), ...s.query.map((q) => `${q}: options?.${q}`)];
    // What the operation does beyond its parameters' own checks, generated here rather than looked up per call.
    const checks = [
      ...(a.entry.exclusive ? [`exclusive(args, ${JSON.stringify(a.entry.exclusive)})`] : []),
      ...(a.entry.ordered ? [`ordered(args, ${a.entry.ordered.map((n) => `'${n}'`).join(', ')})`] : []),
      ...(a.paging?.next.encoding === 'u8-bytes-or-hex' && s.query.includes('start') ? [`byteStart(args, op.${a.id}.paging)`] : []),
    ];
    for (const c of checks) checksUsed.add(c.slice(0, c.indexOf('(')));
    const send = `${a.entry.body ? `callWithBody(client, ` : 'client.call('}'${a.id}', ${opRef(a)}, ${checks.length ? 'args' : `{ ${args.join(', ')} }`}, options) as Promise<${s.result}>`;
    out.push(
      `${doc(actionDoc(a, all, 'action').concat(['', '@example', '```ts', `const answer = await ${a.id}(${['http({ baseUrl: NODE_URLS.testnet })', ...s.positional.map((p) => example(p.name))].join(', ')});`, '```']))}` +
        `export function ${a.id}${s.generic}(client: Caller, ${[...params, `options?: ${s.options}`].join(', ')}): Promise<${s.result}> {\n` +
        (checks.length
          ? `  const args: Record<string, unknown> = { ${args.join(', ')} };\n  const bad = ${checks.join(' ?? ')};\n  return bad ? Promise.reject(bad) : ${send};\n}\n`
          : `  return ${send};\n}\n`),
    );
  }
  // Per version: the methods of `node.vN` and their table; its walks load the walk engine on first use.
  const versions = versionsOf(all);
  // Typed by the walk's own `typeof` (imported as a type), which the declarations then name.
  const walkTypes = new Set<string>();
  const lazy = (name: string): string => (walkTypes.add(name), `/* @__PURE__ */ lazyWalk<typeof ${name}>((w) => w.${name})`);
  for (const v of versions) {
    const members = membersOf(all, v);
    const lower = v.toLowerCase();
    const type: string[] = [];
    const table: string[] = [];
    for (const a of members) {
      const s = signature(a);
      type.push(`${doc(actionDoc(a, all, 'method'), '  ')}  ${a.name}${s.generic}(${[...s.positional.map((p) => `${p.camel}: ${p.type}`), `options?: ${s.options}`].join(', ')}): Promise<${s.result}>;`);
      table.push(`  ${a.name}: ${a.id},`);
    }
    for (const a of members) {
      const range = rangeWalk(a, all);
      if (!range) continue;
      const fixed = signature(a).positional.filter((p) => p.name !== range.parameter);
      type.push(`${doc([`Every \`${a.name}\` over a range of \`${range.parameter}\`s, in order (\`${rangeFunction(a, range)}\`).`], '  ')}  ${range.name}(${[...fixed.map((p) => `${p.camel}: ${p.type}`), `options?: ${rangeOptions(a)}`].join(', ')}): Walk<${bodyType(a)}>;`);
      table.push(`  ${range.name}: ${lazy(rangeFunction(a, range))},`);
    }
    for (const a of members) {
      if (!a.paging) continue;
      const s = signature(a);
      const w = walkSignature(a, a.paging);
      const deprecated = a.op.deprecated ? actionDoc(a, all, 'method').filter((l) => l.startsWith('@deprecated')).map((l) => l.replace(/node\.(v\d+)\.(\w+)/, (_, nv: string, n: string) => `node.${nv}.${walkName(n)}`)) : [];
      type.push(`${doc([`Every item of \`${a.name}\`, page after page (\`${a.id}\`'s paging rule).`, ...deprecated], '  ')}  ${walkName(a.name)}(${[...walkPositional(s), `options?: ${w.options}`].join(', ')}): Walk<${w.item}>;`);
      table.push(`  ${walkName(a.name)}: ${lazy(walkFunction(a))},`);
    }
    const deprecated = versionDeprecation(all, v);
    out.push(
      `${doc([`The ${lower} operations and walks, as \`node.${lower}\` has them.`, ...deprecated])}export type Node${v}Api = {\n${type.join('\n')}\n};\n`,
      `${doc([`The ${lower} actions by the names \`node.${lower}\` binds them to (its walks load the walk engine on first use).`, ...deprecated])}export const ${lower}Actions = {\n${table.join('\n')}\n} as const;\n`,
    );
  }
  out.push(
    `/** Every version's actions by name (\`versionActions.v2.getAccount\` is {@link getAccountV2}): what \`createNodeClient\` binds. */\nexport const versionActions = { ${versions.map((v) => `${v.toLowerCase()}: ${v.toLowerCase()}Actions`).join(', ')} } as const;\n`,
    `/** The versions of the node client: \`node.v2\` and the others. */\nexport type NodeVersionApis = {\n${versions.map((v) => `${versionDeprecation(all, v).map((l) => `  /** ${l} */\n`).join('')}  readonly ${v.toLowerCase()}: Node${v}Api;`).join('\n')}\n};\n`,
  );
  out[0] = out[0]!.replace(
    'CHECKS\n',
    `${walkTypes.size ? `import type { ${[...walkTypes].sort().join(', ')} } from './walks.js';\n` : ''}${checksUsed.size ? `import { ${[...checksUsed].sort().join(', ')} } from '../checks.js';\n` : ''}`,
  );
  return withNodeTypes(out);
}

/**
 * How an action reads its answer, when it does more than take the body: a header cursor's page, another
 * listing's page metadata, an answer checked against the request (`x-echo`).
 */
function answerOf(a: Action): string | undefined {
  if (a.paging?.next.from === 'header') return 'headerPage';
  if (a.paging && declaresPageInfo(a)) return 'listingPage';
  if (a.entry.echo) return 'echoed';
  return undefined;
}

/** The response headers `pageInfo` reads (node-client's page-info.ts): where the node's kept history starts, its chain. */
const PAGE_INFO_HEADERS = ['x-supra-oldest-block', 'x-supra-chain-id'];

/**
 * Whether the operation's 200 declares a header of a page's metadata: a listing that does is read for them
 * (`pageInfo`, and the walks' pruned-history check); one that declares none (v1) sends the table's entry.
 */
function declaresPageInfo(a: Action): boolean {
  const ok = (a.op.responses as Record<string, unknown> | undefined)?.['200'];
  const headers = ok === undefined ? undefined : resolveRef<{ headers?: Record<string, unknown> }>(a.spec.doc, ok as { $ref: string }).headers;
  return PAGE_INFO_HEADERS.some((name) => headers !== undefined && name in headers);
}

/** The operation an action and its walks send: its own, with a reading of its answer, or the table's entry. */
const opRef = (a: Action): string => (answerOf(a) ? `${a.id}Op` : `op.${a.id}`);

/** The emitted parts with the `@x/node-types` names they use imported after the header. */
export const withNodeTypes = (out: string[]): string =>
  [out[0]!.replace(/\n$/, `\n${used.size ? `import type { ${[...used].sort().join(', ')} } from '@x/node-types';\n` : ''}`), ...out.slice(1)].join('\n');
