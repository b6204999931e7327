import type { Spec } from './specs.ts';
import { header } from './files.ts';
import { actionDoc, actions, doc, membersOf, paramType, signature, used, versionDeprecation, versionsOf, viewImport, walkName, walkPositional, walkSignature, withNodeTypes } from './emit-actions.ts';

/**
 * `queries.ts` of the node client's `/query` subpath: per version, the type of `queries.vN` (one query
 * per operation, one infinite query per listing, typed as the actions are) and the table the runtime
 * builds them from (method name to operation id; `walk: true` for an infinite query).
 */
export function emitQueries(spec: Spec): string {
  used.clear();
  const all = actions(spec);
  const out: string[] = [];
  const usesByType = all.some((a) => signature(a).result.startsWith('MoveResourceOf'));
  out.push(`${header(spec.file)}
import type { CursorPage, ItemOf, ResponseBody, U64Input, WalkOrder } from '../types.js';
${usesByType ? "import type { MoveResourceOf } from '../resources.js';\n" : ''}${viewImport(all)}import type { NodeInfiniteQueryKey, NodeInfiniteQueryOptions, NodeQueryKey, NodeQueryOptions, PageOptions } from '../query-types.js';
`);
  const versions = versionsOf(all);
  for (const v of versions) {
    const members = membersOf(all, v);
    const lower = v.toLowerCase();
    const type: string[] = [];
    const table: string[] = [];
    for (const a of members) {
      const s = signature(a);
      const params = s.query.length === 0 ? [] : [`params?: { ${a.entry.params.filter((p) => p.in === 'query').map((p) => `${p.name}?: ${paramType(p)} | undefined`).join('; ')} }`];
      type.push(`${doc(actionDoc(a, all, 'method').map((l) => l.replace(/node\.(v\d+)/, 'queries.$1')), '  ')}  ${a.name}${s.generic}(${[...s.positional.map((p) => `${p.camel}: ${p.type}`), ...params].join(', ')}): NodeQueryOptions<${s.result}, NodeQueryKey<'${a.id}'>>;`);
      table.push(`  ${a.name}: { id: '${a.id}' },`);
    }
    for (const a of members) {
      if (!a.paging) continue;
      const s = signature(a);
      const options = walkSignature(a, a.paging).options.replace(/^IterateOptions & /, 'PageOptions & ');
      const deprecated = a.op.deprecated ? actionDoc(a, all, 'method').filter((l) => l.startsWith('@deprecated')).map((l) => l.replace(/node\.(v\d+)\.(\w+)/, (_, nv: string, n: string) => `queries.${nv}.${walkName(n)}`)) : [];
      type.push(`${doc([`\`${a.name}\`, page after page, for \`useInfiniteQuery\` (\`${a.id}\`'s paging rule).`, ...deprecated], '  ')}  ${walkName(a.name)}(${[...walkPositional(s), `options?: ${options}`].join(', ')}): NodeInfiniteQueryOptions<${s.result}, NodeInfiniteQueryKey<'${a.id}'>>;`);
      table.push(`  ${walkName(a.name)}: { id: '${a.id}', walk: true },`);
    }
    const deprecated = versionDeprecation(all, v);
    out.push(
      `${doc([`The query options of the ${lower} operations (\`queries.${lower}\`).`, ...deprecated])}export type Node${v}Queries = {\n${type.join('\n')}\n};\n`,
      `/** The ${lower} query options by name: the operation each is built from, and whether it is an infinite query. */\nexport const ${lower}Queries = {\n${table.join('\n')}\n} as const;\n`,
    );
  }
  out.push(
    `/** Every version's query options by name: what \`createNodeQueries\` builds. */\nexport const versionQueries = { ${versions.map((v) => `${v.toLowerCase()}: ${v.toLowerCase()}Queries`).join(', ')} } as const;\n`,
    `/** The query options of every version: \`queries.v2\` and the others. */\nexport type NodeVersionQueries = {\n${versions.map((v) => `${versionDeprecation(all, v).map((l) => `  /** ${l} */\n`).join('')}  readonly ${v.toLowerCase()}: Node${v}Queries;`).join('\n')}\n};\n`,
  );
  return withNodeTypes(out);
}
