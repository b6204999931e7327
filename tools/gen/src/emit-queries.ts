import type { Spec } from './specs.ts';
import { header } from './files.ts';
import {
  actionDoc,
  actions,
  doc,
  example,
  membersOf,
  paramType,
  signature,
  used,
  versionDeprecation,
  versionsOf,
  viewImport,
  walkName,
  walkPositional,
  walkSignature,
  withNodeTypes,
  type Action,
} from './emit-actions.ts';

/*
 * The node client's `/query` subpath, generated: one function per operation (`getAccountV3QueryOptions`)
 * and one per listing (`listTransactionsV3InfiniteQueryOptions`), each importing only its own action or
 * operation entry and the small shared helpers (`query-options.ts`, `query-pages.ts`), so that a bundle
 * carries the query options it imports and no other; and per version the table `createNodeQueries` binds.
 */

/** The exported query option of an operation: `getAccountV3QueryOptions`. */
export const queryFunction = (a: Action): string => `${a.id}QueryOptions`;

/** The exported infinite query option of a listing: `listTransactionsV3InfiniteQueryOptions`. */
export const infiniteFunction = (a: Action): string => `${a.id}InfiniteQueryOptions`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** A key's property name and a read of `params`, quoted where the parameter's name is not an identifier. */
const prop = (name: string): string => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const read = (name: string): string => (IDENTIFIER.test(name) ? `params?.${name}` : `params?.[${JSON.stringify(name)}]`);

/**
 * A parameter's value as the key holds it (what the request sends, in JSON): an address in its
 * canonical form, a u64 in decimal, a v1 byte cursor as hex, a request body as plain JSON.
 */
function keyValue(a: Action, name: string, value: string): string {
  if (name === 'body') return `bodyKey(${value})`;
  const p = a.entry.params.find((q) => q.name === name);
  if (p?.schema.format === 'uint64') return `u64Text(${value})`;
  if (p?.encoding === 'u8-bytes-or-hex') return `bytesKey(${value})`;
  if (p?.in === 'path' && name === 'address') return `normalizeAddress(${value})`;
  return value;
}

/** The `{@link X}` of a deprecated operation's successor, pointed at the successor's query option (or dropped where it has none). */
function deprecation(a: Action, all: readonly Action[], to: (b: Action) => string | undefined): string[] {
  return actionDoc(a, all, 'action')
    .filter((l) => l.startsWith('@deprecated'))
    .map((l) =>
      l.replace(/ Use \{@link (\w+)\}\./, (_, id: string) => {
        const b = all.find((c) => c.id === id);
        const name = b === undefined ? undefined : to(b);
        return name === undefined ? '' : ` Use {@link ${name}}.`;
      }),
    );
}

/** The summary lines of an operation's doc, without its `@deprecated` line. */
const summary = (a: Action, all: readonly Action[]): string[] => actionDoc(a, all, 'action').filter((l) => !l.startsWith('@deprecated'));

/** The query option of one operation, for `useQuery` and `fetchQuery`. */
function emitQuery(a: Action, all: readonly Action[]): string {
  const s = signature(a);
  const query = a.entry.params.filter((p) => p.in === 'query');
  const params = query.length === 0 ? [] : [`params?: { ${query.map((p) => `${p.name}?: ${paramType(p)} | undefined`).join('; ')} }`];
  const key = [...s.positional.map((p) => `${prop(p.name)}: ${keyValue(a, p.name, p.camel)}`), ...query.map((p) => `${prop(p.name)}: ${keyValue(a, p.name, read(p.name))}`)];
  const call = [...s.positional.map((p) => p.camel), query.length === 0 ? '{ signal }' : '{ ...params, signal }'];
  const type = `NodeQueryOptions<${s.result}, NodeQueryKey<'${a.id}'>>`;
  const lines = [
    `TanStack Query options of {@link action.${a.id} | ${a.id}}, for \`useQuery\`, \`fetchQuery\` and the like: key \`[NODE_QUERY_SCOPE, baseUrls, '${a.id}', parameters]\`.`,
    '',
    ...summary(a, all),
    ...deprecation(a, all, queryFunction),
    '',
    '@example',
    '```ts',
    `const answer = await queryClient.fetchQuery(${queryFunction(a)}(${['http({ baseUrl: NODE_URLS.testnet })', ...s.positional.map((p) => example(p.name))].join(', ')}));`,
    '```',
  ];
  return (
    `${doc(lines)}export function ${queryFunction(a)}${s.generic}(${['client: NodeQueryClient', ...s.positional.map((p) => `${p.camel}: ${p.type}`), ...params].join(', ')}): ${type} {\n` +
    `  return queryOptions(client, '${a.id}', { ${key.join(', ')} }, (caller, signal) => action.${a.id}(caller, ${call.join(', ')}));\n}\n`
  );
}

/** The infinite query option of one listing, for `useInfiniteQuery` and `fetchInfiniteQuery`: pages as its walk reads them. */
function emitInfinite(a: Action, all: readonly Action[]): string {
  const s = signature(a);
  const options = walkSignature(a, a.paging!).options.replace(/^IterateOptions & /, 'PageOptions & ');
  const keyed = s.positional.map((p) => `${prop(p.name)}: ${keyValue(a, p.name, p.camel)}`);
  const lines = [
    `\`${a.id}\`, page after page as \`${walkFunctionOf(a)}\` reads it, for \`useInfiniteQuery\` and \`fetchInfiniteQuery\`: key \`[NODE_QUERY_SCOPE, baseUrls, '${a.id}', 'infinite', parameters]\`.`,
    ...deprecation(a, all, (b) => (b.paging ? infiniteFunction(b) : undefined)),
    '',
    '@example',
    '```ts',
    `const pages = await queryClient.fetchInfiniteQuery({ ...${infiniteFunction(a)}(${['http({ baseUrl: NODE_URLS.testnet })', ...s.positional.map((p) => example(p.name))].join(', ')}, { pageSize: 25 }), pages: 2 });`,
    '```',
  ];
  return (
    `${doc(lines)}export function ${infiniteFunction(a)}(${['client: NodeQueryClient', ...walkPositional(s), `options?: ${options}`].join(', ')}): NodeInfiniteQueryOptions<${s.result}, NodeInfiniteQueryKey<'${a.id}'>> {\n` +
    `  return infiniteQueryOptions(client, '${a.id}', op.${a.id}, { ${keyed.join(', ')} }, options, (caller, page, signal) => action.${a.id}(caller, ${[...s.positional.map((p) => p.camel), '{ ...page, signal }'].join(', ')}));\n}\n`
  );
}

/** The walk of a listing, for the doc's link: `walkTransactionsV3`. */
const walkFunctionOf = (a: Action): string => {
  const n = walkName(a.name);
  return `walk${n.charAt(0).toUpperCase()}${n.slice(1)}${a.version ?? ''}`;
};

/**
 * `queries.ts` of the node client's `/query` subpath: the query option of every operation and the
 * infinite query option of every listing, typed as the actions are; per version, the type of
 * `queries.vN` (the same options under their short names, without the client).
 */
export function emitQueries(spec: Spec): string {
  used.clear();
  const all = actions(spec);
  const out: string[] = [];
  const usesByType = all.some((a) => signature(a).result.startsWith('MoveResourceOf'));
  out.push(`${header(spec.file)}
import type { CursorPage, ItemOf, ResponseBody, U64Input, WalkOrder } from '../types.js';
${usesByType ? "import type { MoveResourceOf } from '../resources.js';\n" : ''}${viewImport(all)}import type { NodeInfiniteQueryKey, NodeInfiniteQueryOptions, NodeQueryKey, NodeQueryOptions, PageOptions } from '../query-types.js';
__RUNTIME__`);
  for (const a of all) {
    out.push(emitQuery(a, all));
    if (a.paging) out.push(emitInfinite(a, all));
  }
  // The helpers imported are those the functions call (a spec without a listing imports no paging).
  const code = out.slice(1).join('\n');
  const helpers = ['bodyKey', 'bytesKey', 'queryOptions', 'u64Text'].filter((h) => code.includes(`${h}(`));
  out[0] = out[0]!.replace(
    '__RUNTIME__',
    `import { ${[...helpers, 'type NodeQueryClient'].join(', ')} } from '../query-options.js';\n` +
      (code.includes('infiniteQueryOptions(') ? "import { infiniteQueryOptions } from '../query-pages.js';\n" : '') +
      (code.includes('normalizeAddress(') ? "import { normalizeAddress } from '../address.js';\n" : '') +
      "import * as action from './actions.js';\n" +
      (code.includes(' op.') ? "import * as op from '@x/common';\n" : ''),
  );
  const versions = versionsOf(all);
  for (const v of versions) {
    const members = membersOf(all, v);
    const lower = v.toLowerCase();
    const type: string[] = [];
    for (const a of members) {
      const s = signature(a);
      const params = s.query.length === 0 ? [] : [`params?: { ${a.entry.params.filter((p) => p.in === 'query').map((p) => `${p.name}?: ${paramType(p)} | undefined`).join('; ')} }`];
      type.push(`${doc(actionDoc(a, all, 'method').map((l) => l.replace(/node\.(v\d+)/, 'queries.$1')), '  ')}  ${a.name}${s.generic}(${[...s.positional.map((p) => `${p.camel}: ${p.type}`), ...params].join(', ')}): NodeQueryOptions<${s.result}, NodeQueryKey<'${a.id}'>>;`);
    }
    for (const a of members) {
      if (!a.paging) continue;
      const s = signature(a);
      const options = walkSignature(a, a.paging).options.replace(/^IterateOptions & /, 'PageOptions & ');
      const deprecated = a.op.deprecated ? actionDoc(a, all, 'method').filter((l) => l.startsWith('@deprecated')).map((l) => l.replace(/node\.(v\d+)\.(\w+)/, (_, nv: string, n: string) => `queries.${nv}.${walkName(n)}`)) : [];
      type.push(`${doc([`\`${a.name}\`, page after page, for \`useInfiniteQuery\` (\`${a.id}\`'s paging rule).`, ...deprecated], '  ')}  ${walkName(a.name)}(${[...walkPositional(s), `options?: ${options}`].join(', ')}): NodeInfiniteQueryOptions<${s.result}, NodeInfiniteQueryKey<'${a.id}'>>;`);
    }
    const deprecated = versionDeprecation(all, v);
    out.push(`${doc([`The query options of the ${lower} operations (\`queries.${lower}\`).`, ...deprecated])}export type Node${v}Queries = {\n${type.join('\n')}\n};\n`);
  }
  out.push(
    `/** The query options of every version: \`queries.v2\` and the others. */\nexport type NodeVersionQueries = {\n${versions.map((v) => `${versionDeprecation(all, v).map((l) => `  /** ${l} */\n`).join('')}  readonly ${v.toLowerCase()}: Node${v}Queries;`).join('\n')}\n};\n`,
  );
  return withNodeTypes(out);
}

/**
 * `query-tables.ts`: per version, the query options of `queries.vN` by their short names (an
 * operation's name, a listing's walk name for its infinite query), which `createNodeQueries` binds to
 * one client. A file of its own so that `/query` exports the options and not the tables.
 */
export function emitQueryTables(spec: Spec): string {
  const all = actions(spec);
  const versions = versionsOf(all).map((v) => {
    const members = membersOf(all, v);
    const rows = [...members.map((a) => `    ${a.name}: q.${queryFunction(a)},`), ...members.filter((a) => a.paging).map((a) => `    ${walkName(a.name)}: q.${infiniteFunction(a)},`)];
    return `  ${v.toLowerCase()}: {\n${rows.join('\n')}\n  },`;
  });
  return `${header(spec.file)}
import * as q from './queries.js';

/** Every version's query options by name (\`versionQueries.v2.getAccount\` is \`getAccountV2QueryOptions\`): what \`createNodeQueries\` binds. */
export const versionQueries = {
${versions.join('\n')}
} as const;
`;
}
