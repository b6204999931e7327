/**
 * Spec coverage: the specs in `specs/` must state everything the two API documents state. The documents'
 * tables are transcribed in `documents.ts` (independently of the specs); `coverage.ts` compares. The last
 * block mutates clones of the real specs to prove the comparison notices what it claims to notice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  checkEnum,
  checkField,
  checkOperation,
  checkPaths,
  checkRecordShape,
  checkSchemaSet,
  checkServers,
  checkUnion,
  coverageProblems,
  showType,
} from './coverage.ts';
import { type DocumentTable, nodeDocument, priceDocument } from './documents.ts';

type Obj = Record<string, unknown>;
const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Integers as bigint, so the u64 maximum arrives exactly. */
const loadSpec = (file: string): Obj => parse(readFileSync(join(ROOT, 'specs', file), 'utf8'), { intAsBigInt: true }) as Obj;
/**
 * The node spec as the account document describes it: what the spec adds from the node's own served
 * document (v3 paths, the reads beyond accounts, the EVM form of TransactionOutput, and their schemas) is left out, and the v2 operations are read as the document has
 * them, not deprecated (the served document, the node's newer word, deprecates them; the node types'
 * tests hold that). What remains must match the document exactly.
 */
function asTheDocumentHasIt(whole: Obj): Obj {
  const spec = withoutServedForms(whole);
  const copy = structuredClone(spec);
  const paths = Object.entries(copy.paths as Record<string, Record<string, Obj>>).filter(([path]) => /^\/rpc\/v[12]\/accounts\//.test(path));
  for (const [path, item] of paths) if (path.startsWith('/rpc/v2/')) for (const op of Object.values(item)) delete op.deprecated;
  copy.paths = Object.fromEntries(paths);
  const components = copy.components as Obj;
  const served = servedSchemas(spec, paths.map(([path]) => path));
  const formsOnly = [...schemasReached(whole, whole.paths)].filter((name) => !schemasReached(spec, spec.paths).has(name));
  components.schemas = Object.fromEntries(Object.entries(components.schemas as Obj).filter(([name]) => !served.has(name) && !formsOnly.includes(name)));
  return copy;
}

/** Forms of a documented union that only the node's served document has: an EVM transaction's output. */
const SERVED_FORMS: Readonly<Record<string, readonly string[]>> = { TransactionOutput: ['Evm'] };

/** The spec without the served-only union forms; the schemas only they reach are then reached by nothing. */
function withoutServedForms(spec: Obj): Obj {
  const copy = structuredClone(spec);
  const schemas = (copy.components as Obj).schemas as Record<string, Obj>;
  for (const [name, keys] of Object.entries(SERVED_FORMS)) {
    const union = schemas[name] as Obj;
    union.oneOf = (union.oneOf as Obj[]).filter((b) => !keys.some((k) => Array.isArray(b.required) && b.required.includes(k)));
  }
  return copy;
}

/** The component schemas a value refers to, directly or through other components (parameters, responses, schemas). */
function schemasReached(spec: Obj, from: unknown): Set<string> {
  const seen = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== 'object' || v === null) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith('#/components/') && !seen.has(x)) {
        seen.add(x);
        const [kind, name] = x.slice('#/components/'.length).split('/') as [string, string];
        walk(((spec.components as Obj)[kind] as Obj | undefined)?.[name]);
      } else walk(x);
    }
  };
  walk(from);
  return new Set([...seen].filter((ref) => ref.startsWith('#/components/schemas/')).map((ref) => ref.slice('#/components/schemas/'.length)));
}

/**
 * The schemas the node spec takes from the node's served document, not from the account document: those
 * only the other paths (v3 and later, the reads beyond accounts) reach. Read from the spec, so a schema a
 * new operation brings needs no entry here; one no path reaches stays, and is reported.
 */
function servedSchemas(spec: Obj, accountPaths: readonly string[]): Set<string> {
  const items = (keep: (path: string) => boolean) => Object.entries(spec.paths as Obj).filter(([path]) => keep(path)).map(([, item]) => item);
  const account = schemasReached(spec, items((p) => accountPaths.includes(p)));
  const other = schemasReached(spec, items((p) => !accountPaths.includes(p)));
  return new Set([...other].filter((name) => !account.has(name)));
}
const NODE = asTheDocumentHasIt(loadSpec('node-rpc.openapi.yaml'));
const PRICE = loadSpec('price-history.openapi.yaml');

const fieldRows = (table: DocumentTable) =>
  table.records.flatMap((row) =>
    row.fields.map((field) => ({
      row,
      field,
      title: `${row.name}.${field[0]}: ${showType(field[1])}, ${field[2] ? 'required' : 'optional'}`,
    })),
  );

describe.each([
  { spec: 'node-rpc.openapi.yaml', doc: NODE, table: nodeDocument },
  { spec: 'price-history.openapi.yaml', doc: PRICE, table: priceDocument },
])('$spec covers $table.name', ({ doc, table }) => {
  it('has no coverage problems at all', () => {
    expect(coverageProblems(doc, table)).toEqual([]);
  });

  it.each(table.operations)('operation $operationId: $method $path', (row) => {
    expect(checkOperation(doc, row)).toEqual([]);
  });

  it.each(table.records)('record $name ($section): present, deprecation, no undocumented fields', (row) => {
    expect(checkRecordShape(doc, row)).toEqual([]);
  });

  it.each(fieldRows(table))('field $title', ({ row, field }) => {
    expect(checkField(doc, row, field)).toEqual([]);
  });

  it.runIf(table.unions.length > 0).each(table.unions)('union $name: exclusive, every documented form', (row) => {
    expect(checkUnion(doc, row)).toEqual([]);
  });

  it.runIf(table.enums.length > 0).each(table.enums)('enum $name: exactly the documented values', (row) => {
    expect(checkEnum(doc, row)).toEqual([]);
  });

  it('servers, paths and component schemas', () => {
    expect([...checkServers(doc, table), ...checkPaths(doc, table), ...checkSchemaSet(doc, table)]).toEqual([]);
  });
});

describe('the transcribed tables themselves', () => {
  it('name every operation of both documents with the operation ids of the specs (<name>V1, <name>V2)', () => {
    const node = ['getAccount', 'listCoinTransactions', 'listModules', 'getModule', 'listResources', 'getResource', 'listTransactions'];
    expect(nodeDocument.operations.map((o) => o.operationId).sort()).toEqual([...node.map((n) => `${n}V1`), ...node.map((n) => `${n}V2`)].sort());
    expect(priceDocument.operations.map((o) => `${o.operationId} ${o.path}`)).toEqual(['getHistory /history', 'getLatest /latest']);
  });

  it('cover every record of the node document', () => {
    const names = [...nodeDocument.records, ...nodeDocument.unions, ...nodeDocument.enums].map((r) => r.name).sort();
    expect(names).toMatchInlineSnapshot(`
      [
        "AccountCoinStatementV1",
        "AccountCoinStatementV2",
        "AccountData",
        "AccountStatementV1",
        "AccountStatementV2",
        "BlockHeaderInfo",
        "EpochId",
        "Event",
        "MoveList",
        "MoveModule",
        "MoveModuleBytecode",
        "MoveModuleList",
        "MoveModuleListV2",
        "MoveResource",
        "MoveResourceList",
        "MoveResourcesResponse",
        "MoveTransactionOutput",
        "MoveValue",
        "MoveValueResponseV1",
        "SmrTimestamp",
        "SmrTransactionHeader",
        "StructTag",
        "TransactionBlockInfo",
        "TransactionInfoV1",
        "TransactionInfoV2",
        "TransactionOutput",
        "TxExecutionStatus",
        "TypeTag",
        "View",
      ]
    `);
  });
});

// ---------------------------------------------------------------------------------------------------
// The checker can fail: each mutation of a clone of the real spec is reported, and only it.

const o = (v: unknown): Obj => v as Obj;
const has = (v: unknown, key: string): boolean => key in ((v ?? {}) as Obj);
const schemas = (d: Obj): Obj => o(o(d.components).schemas);
const schema = (d: Obj, name: string): Obj => o(schemas(d)[name]);
const prop = (d: Obj, name: string, field: string): Obj => o(o(schema(d, name).properties)[field]);
const param = (d: Obj, name: string): Obj => o(o(o(d.components).parameters)[name]);
const op = (d: Obj, path: string): Obj => o(o(o(d.paths)[path]).get);
const branch = (d: Obj, name: string, key: string): Obj =>
  o((schema(d, name).oneOf as Obj[]).find((b) => has(b.properties, key)));

const v1 = (p: string) => `/rpc/v1/accounts/{address}${p}`;
const v2 = (p: string) => `/rpc/v2/accounts/{address}${p}`;
const U64 = '18446744073709551615';

type Mutation = { name: string; spec: 'node' | 'price'; mutate: (d: Obj) => void; expected: string[] };

const mutations: Mutation[] = [
  // fields, required flags, types
  {
    name: 'a required field dropped from the required list',
    spec: 'node',
    mutate: (d) => { schema(d, 'TransactionInfoV2').required = ['authenticator', 'header', 'payload', 'status']; },
    expected: ['schema TransactionInfoV2.hash: required in the document, optional in the spec'],
  },
  {
    name: 'an optional field made required',
    spec: 'node',
    mutate: (d) => { (schema(d, 'TransactionInfoV1').required as string[]).push('block_header'); },
    expected: ['schema TransactionInfoV1.block_header: optional in the document, required in the spec'],
  },
  {
    name: 'a field removed',
    spec: 'node',
    mutate: (d) => { delete o(schema(d, 'SmrTransactionHeader').properties).gas_unit_price; },
    expected: ['schema SmrTransactionHeader.gas_unit_price: missing'],
  },
  {
    name: 'an undocumented field added',
    spec: 'node',
    mutate: (d) => { o(schema(d, 'AccountData').properties).balance = { type: 'integer' }; },
    expected: ['schema AccountData.balance: not in the document'],
  },
  {
    name: 'a u64 field narrowed to 2^53-1',
    spec: 'node',
    mutate: (d) => { prop(d, 'MoveTransactionOutput', 'gas_used').maximum = 9007199254740991n; },
    expected: [`schema MoveTransactionOutput.gas_used: maximum is 9007199254740991, expected ${U64}`],
  },
  {
    name: 'a u64 field without format',
    spec: 'node',
    mutate: (d) => { delete prop(d, 'Event', 'sequence_number').format; },
    expected: ['schema Event.sequence_number: format is (none), expected uint64'],
  },
  {
    name: 'a u8 field widened',
    spec: 'node',
    mutate: (d) => { prop(d, 'EpochId', 'chain_id').maximum = 256n; },
    expected: ['schema EpochId.chain_id: maximum is 256, expected 255'],
  },
  {
    name: 'a u64 field typed as string',
    spec: 'node',
    mutate: (d) => { Object.assign(prop(d, 'View', 'round'), { type: 'string' }); },
    expected: ['schema View.round: type is "string", expected integer'],
  },
  {
    name: 'a nullable field made non-nullable',
    spec: 'node',
    mutate: (d) => { o(schema(d, 'TransactionInfoV2').properties).output = { $ref: '#/components/schemas/TransactionOutput' }; },
    expected: ['schema TransactionInfoV2.output: does not allow null; the document says null or TransactionOutput'],
  },
  {
    name: 'block_header pointing at the other version\'s block type',
    spec: 'node',
    mutate: (d) => { o((prop(d, 'TransactionInfoV1', 'block_header').anyOf as Obj[])[0]).$ref = '#/components/schemas/BlockHeaderInfo'; },
    expected: ['schema TransactionInfoV1.block_header: refers to #/components/schemas/BlockHeaderInfo, expected #/components/schemas/TransactionBlockInfo'],
  },
  {
    name: 'a v1 list cursor that no longer allows null',
    spec: 'node',
    mutate: (d) => { schema(d, 'MoveListCursor').type = 'array'; },
    expected: [
      'schema MoveResourceList.cursor: does not allow null; the document says null or u8[]',
      'schema MoveModuleList.cursor: does not allow null; the document says null or u8[]',
    ],
  },
  {
    name: 'the v2 resources cursor made nullable',
    spec: 'node',
    mutate: (d) => { o(schema(d, 'MoveResourcesResponse').properties).cursor = { type: ['string', 'null'] }; },
    expected: ['schema MoveResourcesResponse.cursor: type is ["string","null"], expected string (the document does not allow null here)'],
  },
  {
    name: 'a free-form object given properties',
    spec: 'node',
    mutate: (d) => { prop(d, 'MoveResource', 'data').additionalProperties = false; },
    expected: ['schema MoveResource.data: is not a free-form object (the document types it only as object)'],
  },
  {
    name: 'Event.data restricted to objects',
    spec: 'node',
    mutate: (d) => { prop(d, 'Event', 'data').type = 'object'; },
    expected: ['schema Event.data: constrains the value (type), the document allows any JSON value'],
  },
  {
    name: 'the [string, StructTag] tuple opened to more elements',
    spec: 'node',
    mutate: (d) => { delete o(prop(d, 'MoveResourceList', 'resource').items).items; },
    expected: ['schema MoveResourceList.resource[]: items is (none), expected false (exactly 2 elements)'],
  },
  {
    name: 'the module id of MoveModuleList losing its name',
    spec: 'node',
    mutate: (d) => { schema(d, 'MoveModuleId').required = ['address']; },
    expected: ['schema MoveModuleList.modules[][1].name: required in the document, optional in the spec'],
  },
  {
    name: 'a hex pattern that rejects addresses without 0x',
    spec: 'node',
    mutate: (d) => { schema(d, 'AccountAddress').pattern = '^0x[0-9a-fA-F]{1,64}$'; },
    expected: [
      'schema SmrTransactionHeader.sender: pattern ^0x[0-9a-fA-F]{1,64}$ rejects the documented value "1"',
      'schema MoveModuleList.modules[][1].address: pattern ^0x[0-9a-fA-F]{1,64}$ rejects the documented value "1"',
      'schema StructTag.address: pattern ^0x[0-9a-fA-F]{1,64}$ rejects the documented value "1"',
    ],
  },
  // deprecation
  {
    name: 'a documented deprecated type no longer deprecated',
    spec: 'node',
    mutate: (d) => { delete schema(d, 'MoveValueResponseV1').deprecated; },
    expected: ['schema MoveValueResponseV1: deprecated is false, expected true'],
  },
  {
    name: 'a v2 record deprecated',
    spec: 'node',
    mutate: (d) => { schema(d, 'BlockHeaderInfo').deprecated = true; },
    expected: ['schema BlockHeaderInfo: deprecated is true, expected false'],
  },
  // unions and enums
  {
    name: 'a TxExecutionStatus value dropped',
    spec: 'node',
    mutate: (d) => { schema(d, 'TxExecutionStatus').enum = ['Success', 'Fail', 'Invalid', 'PendingAfterExecution']; },
    expected: ['schema TxExecutionStatus: enum value "Pending" missing'],
  },
  {
    name: 'an undocumented TxExecutionStatus value',
    spec: 'node',
    mutate: (d) => { (schema(d, 'TxExecutionStatus').enum as string[]).push('Aborted'); },
    expected: ['schema TxExecutionStatus: enum value "Aborted" not in the document'],
  },
  {
    name: 'the Move form of TransactionOutput removed',
    spec: 'node',
    mutate: (d) => { schema(d, 'TransactionOutput').oneOf = (schema(d, 'TransactionOutput').oneOf as Obj[]).filter((b) => !has(b.properties, 'Move')); },
    expected: ['schema TransactionOutput form {Move}: missing'],
  },
  {
    name: 'the "Empty" form of TransactionOutput renamed',
    spec: 'node',
    mutate: (d) => { o((schema(d, 'TransactionOutput').oneOf as Obj[])[0]).const = 'None'; },
    expected: ['schema TransactionOutput form "Empty": missing', 'schema TransactionOutput: branch 0 ({"type":"string","const":"None","description":"No output."}) is not a documented form'],
  },
  {
    name: 'a union form that admits further keys',
    spec: 'node',
    mutate: (d) => { delete branch(d, 'TransactionOutput', 'Dkg').additionalProperties; },
    expected: ['schema TransactionOutput form {Dkg}: not exclusive (additionalProperties is (none), expected false)'],
  },
  {
    name: 'the Oracle form carrying the wrong type',
    spec: 'node',
    mutate: (d) => { o(branch(d, 'TransactionOutput', 'Oracle').properties).Oracle = { $ref: '#/components/schemas/MoveTransactionOutput' }; },
    expected: ['schema TransactionOutput form {Oracle}: refers to #/components/schemas/MoveTransactionOutput, expected #/components/schemas/TxExecutionStatus'],
  },
  {
    name: 'a union made non-exclusive (anyOf)',
    spec: 'node',
    mutate: (d) => { const s = schema(d, 'MoveList'); s.anyOf = s.oneOf; delete s.oneOf; },
    expected: ['schema MoveList: is not an exclusive union (no oneOf)'],
  },
  {
    name: 'a TypeTag primitive dropped',
    spec: 'node',
    mutate: (d) => { const b = o((schema(d, 'TypeTag').oneOf as Obj[])[0]); b.enum = (b.enum as string[]).filter((v) => v !== 'signer'); },
    expected: ['schema TypeTag: value "signer" missing'],
  },
  {
    name: 'TypeTag no longer recursive',
    spec: 'node',
    mutate: (d) => { o(branch(d, 'TypeTag', 'vector').properties).vector = { type: 'string' }; },
    expected: ['schema TypeTag form {vector}: expected a $ref to TypeTag, found {"type":"string"}'],
  },
  {
    name: 'a MoveValue key typed as a number where the document says decimal string',
    spec: 'node',
    mutate: (d) => { o(branch(d, 'MoveValue', 'U128').properties).U128 = { type: 'integer', minimum: 0n }; },
    expected: ['schema MoveValue form {U128}: type is "integer", expected string'],
  },
  {
    name: 'a MoveValue key removed',
    spec: 'node',
    mutate: (d) => { schema(d, 'MoveValue').oneOf = (schema(d, 'MoveValue').oneOf as Obj[]).filter((b) => !has(b.properties, 'Bytes')); },
    expected: ['schema MoveValue form {Bytes}: missing'],
  },
  // operations and parameters
  {
    name: 'the transaction count limit raised',
    spec: 'node',
    mutate: (d) => { o(param(d, 'countTransactions').schema).maximum = 1000n; },
    expected: ['listCoinTransactionsV1', 'listTransactionsV1', 'listCoinTransactionsV2', 'listTransactionsV2'].map((id) => {
      const path = id.includes('Coin') ? '/coin_transactions' : '/transactions';
      return `GET ${id.endsWith('V1') ? v1(path) : v2(path)} (${id}): parameter query count: maximum is 1000, expected 100`;
    }),
  },
  {
    name: 'the 100 limit applied to a module listing',
    spec: 'node',
    mutate: (d) => { (op(d, v2('/modules')).parameters as Obj[])[1] = { $ref: '#/components/parameters/countTransactions' }; },
    expected: [`GET ${v2('/modules')} (listModulesV2): parameter query count: maximum is 100, expected none`],
  },
  {
    name: 'count default changed',
    spec: 'node',
    mutate: (d) => { o(param(d, 'count').schema).default = 25n; },
    expected: [
      `GET ${v1('/modules')} (listModulesV1): parameter query count: default is 25, expected 20`,
      `GET ${v1('/resources')} (listResourcesV1): parameter query count: default is 25, expected 20`,
      `GET ${v2('/modules')} (listModulesV2): parameter query count: default is 25, expected 20`,
      `GET ${v2('/resources')} (listResourcesV2): parameter query count: default is 25, expected 20`,
    ],
  },
  {
    name: 'count allowed to go negative',
    spec: 'node',
    mutate: (d) => { delete o(param(d, 'countTransactions').schema).minimum; },
    expected: ['listCoinTransactionsV1', 'listTransactionsV1', 'listCoinTransactionsV2', 'listTransactionsV2'].map((id) => {
      const path = id.includes('Coin') ? '/coin_transactions' : '/transactions';
      return `GET ${id.endsWith('V1') ? v1(path) : v2(path)} (${id}): parameter query count: minimum is (none), expected 0`;
    }),
  },
  {
    name: 'start of a transaction listing typed as a string cursor',
    spec: 'node',
    mutate: (d) => { (op(d, v2('/transactions')).parameters as Obj[])[2] = { $ref: '#/components/parameters/startCursor' }; },
    expected: [
      `GET ${v2('/transactions')} (listTransactionsV2): parameter query start: type is "string", expected integer`,
      `GET ${v2('/transactions')} (listTransactionsV2): parameter query start: format is (none), expected uint64`,
      `GET ${v2('/transactions')} (listTransactionsV2): parameter query start: minimum is (none), expected 0`,
      `GET ${v2('/transactions')} (listTransactionsV2): parameter query start: maximum is (none), expected ${U64}`,
    ],
  },
  {
    name: 'start of a resource listing typed as an integer',
    spec: 'node',
    mutate: (d) => { (op(d, v1('/resources')).parameters as Obj[])[2] = { $ref: '#/components/parameters/startCoinCursor' }; },
    expected: [`GET ${v1('/resources')} (listResourcesV1): parameter query start: type is "integer", expected string`],
  },
  {
    name: 'the resource_type pattern changed',
    spec: 'node',
    mutate: (d) => { o(param(d, 'resource_type').schema).pattern = '^0x[0-9a-zA-Z:_<>, ]+$'; },
    expected: [v1('/resources/{resource_type}') + ' (getResourceV1)', v2('/resources/{resource_type}') + ' (getResourceV2)'].map(
      (at) => `GET ${at}: parameter path resource_type: pattern is "^0x[0-9a-zA-Z:_<>, ]+$", expected ^0x[0-9a-zA-Z:_<>]+$`,
    ),
  },
  {
    name: 'module_name missing from getModuleV2',
    spec: 'node',
    mutate: (d) => { op(d, v2('/modules/{module_name}')).parameters = [{ $ref: '#/components/parameters/address' }]; },
    expected: [`GET ${v2('/modules/{module_name}')} (getModuleV2): parameter path module_name: missing`],
  },
  {
    name: 'an undocumented parameter',
    spec: 'node',
    mutate: (d) => { (op(d, v2('')).parameters as Obj[]).push({ name: 'ledger_version', in: 'query', schema: { type: 'integer' } }); },
    expected: [`GET ${v2('')} (getAccountV2): parameter query ledger_version is not in the document`],
  },
  {
    name: 'a v1 operation no longer deprecated',
    spec: 'node',
    mutate: (d) => { delete op(d, v1('/modules')).deprecated; },
    expected: [`GET ${v1('/modules')} (listModulesV1): deprecated is false, expected true`],
  },
  {
    name: 'a v2 operation deprecated',
    spec: 'node',
    mutate: (d) => { op(d, v2('/resources')).deprecated = true; },
    expected: [`GET ${v2('/resources')} (listResourcesV2): deprecated is true, expected false`],
  },
  {
    name: 'an operationId renamed',
    spec: 'node',
    mutate: (d) => { op(d, v2('/coin_transactions')).operationId = 'getCoinTransactionsV2'; },
    expected: [`GET ${v2('/coin_transactions')} (listCoinTransactionsV2): operationId is "getCoinTransactionsV2", expected listCoinTransactionsV2`],
  },
  {
    name: 'an operation removed',
    spec: 'node',
    mutate: (d) => { Reflect.deleteProperty(o(d.paths), v2('/resources/{resource_type}')); },
    expected: [`GET ${v2('/resources/{resource_type}')} (getResourceV2): missing`],
  },
  {
    name: 'an operation moved to another path',
    spec: 'node',
    mutate: (d) => { const p = o(d.paths); p['/rpc/v2/account/{address}'] = p[v2('')]; Reflect.deleteProperty(p, v2('')); },
    expected: [
      'paths: /rpc/v2/account/{address} is not in the document',
      `GET ${v2('')} (getAccountV2): missing (operationId found at GET /rpc/v2/account/{address})`,
    ],
  },
  {
    name: 'a v1 response no longer nullable',
    spec: 'node',
    mutate: (d) => { o(o(o(o(op(d, v1('')).responses)['200']).content)['application/json']).schema = { $ref: '#/components/schemas/AccountData' }; },
    expected: [`GET ${v1('')} (getAccountV1): response 200: does not allow null; the document says null or AccountData`],
  },
  {
    name: 'a v2 response made nullable',
    spec: 'node',
    mutate: (d) => {
      o(o(o(o(op(d, v2('/modules/{module_name}')).responses)['200']).content)['application/json']).schema = {
        anyOf: [{ $ref: '#/components/schemas/MoveModuleBytecode' }, { type: 'null' }],
      };
    },
    expected: [`GET ${v2('/modules/{module_name}')} (getModuleV2): response 200: expected a $ref to MoveModuleBytecode, found {"anyOf":[{"$ref":"#/components/schemas/MoveModuleBytecode"},{"type":"null"}]}`],
  },
  {
    name: 'a request body added',
    spec: 'node',
    mutate: (d) => { op(d, v2('/transactions')).requestBody = { content: {} }; },
    expected: [`GET ${v2('/transactions')} (listTransactionsV2): has a request body; the document says none`],
  },
  {
    name: 'an undocumented schema',
    spec: 'node',
    mutate: (d) => { schemas(d).Balance = { type: 'object' }; },
    expected: ['schema Balance: not in the document'],
  },
  // servers
  {
    name: 'the local network server no longer first',
    spec: 'node',
    mutate: (d) => { (d.servers as Obj[]).push((d.servers as Obj[]).shift()!); },
    expected: ['servers: the first is "{base_url}", expected http://localhost:27000'],
  },
  {
    name: 'the archive node server dropped',
    spec: 'node',
    mutate: (d) => { d.servers = (d.servers as Obj[]).filter((s) => !String(s.description).includes('Archive')); },
    expected: ['servers: none is described as the archive node'],
  },
  {
    name: 'a u64 maximum read by a plain (rounding) YAML parse',
    spec: 'node',
    mutate: (d) => { o(param(d, 'startSequenceNumber').schema).maximum = Number(U64); },
    expected: [`GET ${v1('/transactions')} (listTransactionsV1)`, `GET ${v2('/transactions')} (listTransactionsV2)`].map(
      (at) => `${at}: parameter query start: maximum 18446744073709552000 is not exact (parsed as a rounded number), expected ${U64}`,
    ),
  },
  // price-history
  {
    name: 'the interval parameter named as in the parameter table',
    spec: 'price',
    mutate: (d) => { (op(d, '/history').parameters as Obj[]).find((p) => p.name === 'interval')!.name = 'Resolution'; },
    expected: ['GET /history (getHistory): parameter query interval: missing', 'GET /history (getHistory): parameter query Resolution is not in the document'],
  },
  {
    name: 'the interval description no longer explaining the Resolution name',
    spec: 'price',
    mutate: (d) => { (op(d, '/history').parameters as Obj[]).find((p) => p.name === 'interval')!.description = 'Seconds between candles.'; },
    expected: [
      'GET /history (getHistory): parameter query interval: description does not mention "Resolution"',
      'GET /history (getHistory): parameter query interval: description does not mention "seconds"',
    ],
  },
  {
    name: 'the API key not required on /history',
    spec: 'price',
    mutate: (d) => { op(d, '/history').security = [{}, { ApiKey: [] }]; },
    expected: ['GET /history (getHistory): security allows anonymous calls, expected an apiKey header x-api-key'],
  },
  {
    name: 'the API key sent as a query parameter',
    spec: 'price',
    mutate: (d) => { o(o(o(d.components).securitySchemes).ApiKey).in = 'query'; },
    expected: ['GET /history (getHistory): security requirement {"ApiKey":[]} does not use an apiKey header x-api-key'],
  },
  {
    name: 'a documented error status removed',
    spec: 'price',
    mutate: (d) => { delete o(op(d, '/latest').responses)['404']; },
    expected: ['GET /latest (getLatest): response 404 missing'],
  },
  {
    name: 'an instrument field removed',
    spec: 'price',
    mutate: (d) => { delete o(schema(d, 'Instrument').properties)['24h_low']; },
    expected: ['schema Instrument.24h_low: missing'],
  },
  {
    name: 'candle volume typed as integer',
    spec: 'price',
    mutate: (d) => { prop(d, 'Candle', 'volume').type = 'integer'; },
    expected: ['schema Candle.volume: type is "integer", expected number'],
  },
  {
    name: 'a price change that cannot be negative',
    spec: 'price',
    mutate: (d) => { schema(d, 'SignedDecimalString').pattern = '^[0-9]+(\\.[0-9]+)?$'; },
    expected: ['schema Instrument.24h_change: pattern ^[0-9]+(\\.[0-9]+)?$ rejects the documented value "-1.25"'],
  },
  {
    name: '/latest removed',
    spec: 'price',
    mutate: (d) => { delete o(d.paths)['/latest']; },
    expected: ['GET /latest (getLatest): missing'],
  },
];

describe('coverageProblems reports a mutated spec', () => {
  it.each(mutations)('$spec: $name', ({ spec, mutate, expected }) => {
    const clone = structuredClone(spec === 'node' ? NODE : PRICE);
    mutate(clone);
    expect(coverageProblems(clone, spec === 'node' ? nodeDocument : priceDocument)).toEqual(expected);
  });

  it('leaves the real specs untouched by the mutations above', () => {
    expect(coverageProblems(NODE, nodeDocument)).toEqual([]);
    expect(coverageProblems(PRICE, priceDocument)).toEqual([]);
  });

  it('reports everything on an empty document instead of throwing', () => {
    const problems = coverageProblems({}, nodeDocument);
    expect(problems).toContain('servers: none');
    expect(problems).toContain(`GET ${v1('')} (getAccountV1): missing`);
    expect(problems).toContain('schema TypeTag: missing');
    expect(problems.length).toBeGreaterThan(nodeDocument.operations.length + nodeDocument.records.length);
  });

  it('reports the rounded u64 maximum of a plain YAML parse, which is why the specs are read with intAsBigInt', () => {
    const plain = asTheDocumentHasIt(parse(readFileSync(join(ROOT, 'specs', 'node-rpc.openapi.yaml'), 'utf8')) as Obj);
    const problems = coverageProblems(plain, nodeDocument);
    expect(problems).toContain(`schema AccountData.sequence_number: maximum 18446744073709552000 is not exact (parsed as a rounded number), expected ${U64}`);
    expect(problems.every((p) => p.includes('is not exact'))).toBe(true);
  });
});
