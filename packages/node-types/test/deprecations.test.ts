/**
 * `@deprecated` is JSDoc, invisible to type assertions: read it from the generated declarations with the
 * TypeScript parser. Editors strike through what carries it, so it must sit on every v1 and v2 operation
 * (v2 as the node's served document marks it) and on the deprecated v1 types, and nowhere in v3.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const FILE = join(import.meta.dirname, '..', 'src', 'generated', 'node-rpc.ts');
const SPEC = join(import.meta.dirname, '..', '..', '..', 'specs', 'node-rpc.openapi.yaml');
const source = ts.createSourceFile(FILE, readFileSync(FILE, 'utf8'), ts.ScriptTarget.Latest, true);
const deprecated = (node: ts.Node): boolean => ts.getJSDocTags(node).some((t) => t.tagName.text === 'deprecated');

const aliases = new Map<string, boolean>();
const pathGets = new Map<string, boolean>();
for (const st of source.statements) {
  if (ts.isTypeAliasDeclaration(st)) aliases.set(st.name.text, deprecated(st));
  if (ts.isInterfaceDeclaration(st) && st.name.text === 'paths') {
    for (const member of st.members) {
      if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) continue;
      const get = member.type.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === 'get');
      if (get) pathGets.set((member.name as ts.StringLiteral).text, deprecated(get));
    }
  }
}

describe('@deprecated in the generated node types', () => {
  it('reads every GET operation of the node spec', () => {
    const spec = parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, { get?: unknown }> };
    const paths = Object.keys(spec.paths).filter((p) => spec.paths[p]!.get !== undefined);
    expect([...pathGets.keys()].sort()).toEqual(paths.sort());
  });

  it.each([...pathGets].filter(([p]) => /^\/rpc\/v[12]\//.test(p)))('v1 and v2 GET %s is @deprecated', (_path, isDeprecated) => {
    expect(isDeprecated).toBe(true);
  });

  it.each([...pathGets].filter(([p]) => p.startsWith('/rpc/v3/')))('v3 GET %s is not @deprecated', (_path, isDeprecated) => {
    expect(isDeprecated).toBe(false);
  });

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
  ])('alias %s exists and is not @deprecated', (name) => {
    expect(aliases.get(name)).toBe(false);
  });
});
