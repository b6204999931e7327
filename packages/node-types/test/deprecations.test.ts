/**
 * `@deprecated` is JSDoc, invisible to type assertions: read it from the generated declarations with the
 * TypeScript parser. Editors strike through what carries it, so it must sit exactly on the operations the
 * spec marks `deprecated: true` (the v1 and v2 account reads, as the node's served document marks them),
 * whatever their method, and on none other: not on v3, and not on the v1 and v2 reads no newer version
 * replaces (the chain id, the transaction parameters, a table item). And on the deprecated v1 types.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const FILE = join(import.meta.dirname, '..', 'src', 'generated', 'node-rpc.ts');
const SPEC = join(import.meta.dirname, '..', '..', '..', 'specs', 'node-rpc.openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const source = ts.createSourceFile(FILE, readFileSync(FILE, 'utf8'), ts.ScriptTarget.Latest, true);
const deprecated = (node: ts.Node): boolean => ts.getJSDocTags(node).some((t) => t.tagName.text === 'deprecated');

/** `METHOD /path` of every operation the declarations' `paths` carry (a member typed other than `never`), and whether it is @deprecated. */
const aliases = new Map<string, boolean>();
const declared = new Map<string, boolean>();
for (const st of source.statements) {
  if (ts.isTypeAliasDeclaration(st)) aliases.set(st.name.text, deprecated(st));
  if (ts.isInterfaceDeclaration(st) && st.name.text === 'paths') {
    for (const member of st.members) {
      if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) continue;
      const path = (member.name as ts.StringLiteral).text;
      for (const m of member.type.members) {
        if (!ts.isPropertySignature(m) || !m.name || !ts.isIdentifier(m.name) || !METHODS.includes(m.name.text)) continue;
        if (m.type?.kind === ts.SyntaxKind.NeverKeyword) continue;
        declared.set(`${m.name.text.toUpperCase()} ${path}`, deprecated(m));
      }
    }
  }
}

type Operation = { operationId: string; deprecated?: boolean };
const spec = parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
/** `METHOD /path` of every operation of the spec, and its `deprecated`. */
const inSpec = new Map(
  Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.deprecated === true] as const),
  ),
);

describe('@deprecated in the generated node types', () => {
  it('reads every operation of the node spec, of every method (the view and table item reads are POSTs)', () => {
    expect([...declared.keys()].sort()).toEqual([...inSpec.keys()].sort());
    expect(declared.get('POST /rpc/v3/view')).toBeDefined();
    expect(declared.get('POST /rpc/v2/tables/{table_handle}/item')).toBeDefined();
  });

  it.each([...inSpec])('%s carries @deprecated exactly when the spec says deprecated (%s)', (operation, isDeprecated) => {
    expect(declared.get(operation)).toBe(isDeprecated);
  });

  it('the spec deprecates every v1 and v2 account operation and nothing of v3', () => {
    for (const [operation, isDeprecated] of inSpec) {
      const path = operation.split(' ')[1]!;
      if (/^\/rpc\/v[12]\/accounts\//.test(path)) expect(isDeprecated, operation).toBe(true);
      if (path.startsWith('/rpc/v3/')) expect(isDeprecated, operation).toBe(false);
    }
  });

  // v1 and v2 reads that no newer version replaces stay current (their descriptions say "No newer version exists").
  it.each(['GET /rpc/v1/transactions/chain_id', 'GET /rpc/v1/transactions/parameters', 'POST /rpc/v2/tables/{table_handle}/item'])(
    '%s, which no newer version replaces, is not @deprecated',
    (operation) => {
      expect(declared.get(operation)).toBe(false);
    },
  );

  // The document names TransactionBlockInfo and MoveValueResponseV1 deprecated; the V1 records are v1-only.
  it.each(['TransactionBlockInfo', 'MoveValueResponseV1', 'TransactionInfoV1', 'AccountStatementV1', 'AccountCoinStatementV1'])(
    'alias %s exists and is @deprecated',
    (name) => {
      expect(aliases.get(name)).toBe(true);
    },
  );

  it.each([
    'AccountData', 'TransactionInfoV2', 'BlockHeaderInfo', 'AccountStatementV2', 'AccountCoinStatementV2', 'MoveModuleBytecode',
    'MoveModuleListV2', 'MoveResource', 'MoveResourcesResponse', 'MoveModule', 'TransactionOutput', 'TxExecutionStatus',
    'TransactionV3', 'AccountStatementV3', 'BlockMetadataInfoV3', 'AutomationRecordInfoV3',
    'ExecutedBlockInfo', 'BlockV3', 'EventsV3', 'GasPriceResV3', 'VersionInfo', 'TransactionParameters', 'ViewRequest', 'ViewResultV3', 'TableItemRequest',
  ])('alias %s exists and is not @deprecated', (name) => {
    expect(aliases.get(name)).toBe(false);
  });
});
