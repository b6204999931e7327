import { describe, expect, it } from 'vitest';
import type { ValidateOptions } from '@x/validators';
import {
  automationRecordTransactionV3,
  blockExecutionStatistics,
  blockMetadataTransactionV3,
  blockV3,
  eventV3,
  eventWithContextV3,
  executedBlockInfo,
  fixtures,
  moveResourceList,
  smrTransactionHeader,
  structTag,
  tableItemRequest,
  transactionInfoV2,
  userTransactionV3,
  viewRequest,
} from './fixtures.js';
import { fns, issuesOf } from './helpers.js';

const UNION_OUTPUT = 'must be "Empty" or an object with exactly one of the keys Dkg, Move, Oracle, Evm';
const UNION_TYPETAG =
  'must be one of "bool", "u8", "u16", "u32", "u64", "u128", "u256", "address", "signer" or an object with exactly one of the keys vector, struct';

const statement = (record: unknown[]) => ({ record });
const tx = (patch: Record<string, unknown>) => ({ ...transactionInfoV2, ...patch });
const deepTypeTag = (leaf: unknown) => ({
  ...structTag,
  type_args: [{ vector: { vector: { struct: { ...structTag, type_args: [leaf] } } } }],
});

type Case = {
  rule: string;
  schema: string;
  value: unknown;
  options?: ValidateOptions;
  /** Expected issues: path, keyword and (when given) the exact message. */
  issues: { path: string; keyword: string; message?: string }[];
};

const cases: Case[] = [
  // missing required field
  {
    rule: 'missing required field',
    schema: 'AccountData',
    value: { authentication_key: '0x1' },
    issues: [{ path: '/sequence_number', keyword: 'required', message: 'required property "sequence_number" is missing' }],
  },
  {
    rule: 'missing required field, nested',
    schema: 'AccountStatementV2',
    value: statement([transactionInfoV2, tx({ header: { ...smrTransactionHeader, chain_id: undefined } })]),
    issues: [{ path: '/record/1/header/chain_id', keyword: 'required' }],
  },
  {
    rule: 'missing required field, name needing no escaping in a pointer',
    schema: 'Instrument',
    value: { ...(fixtures.Instrument as object), '24h_high': undefined },
    issues: [{ path: '/24h_high', keyword: 'required' }],
  },
  // wrong type
  { rule: 'wrong type', schema: 'Candle', value: { ...(fixtures.Candle as object), open: '1' }, issues: [{ path: '/open', keyword: 'type', message: 'must be number' }] },
  { rule: 'wrong type: null where not nullable', schema: 'AccountData', value: null, issues: [{ path: '', keyword: 'type', message: 'must be object' }] },
  { rule: 'wrong type: array or null', schema: 'MoveListCursor', value: 'ab', issues: [{ path: '', keyword: 'type', message: 'must be array or null' }] },
  { rule: 'u64 not an integer', schema: 'AccountData', value: { sequence_number: 1.5, authentication_key: '0x1' }, issues: [{ path: '/sequence_number', keyword: 'type', message: 'must be integer' }] },
  // integer ranges
  { rule: 'u8 out of range', schema: 'EpochId', value: { chain_id: 256, epoch: 1 }, issues: [{ path: '/chain_id', keyword: 'maximum', message: 'must be <= 255' }] },
  { rule: 'u8 out of range in a cursor', schema: 'MoveListCursor', value: [0, 256], issues: [{ path: '/1', keyword: 'maximum' }] },
  { rule: 'u8 out of range in a MoveValue', schema: 'MoveValue', value: { U8: 300 }, issues: [{ path: '/U8', keyword: 'maximum' }] },
  { rule: 'negative u8', schema: 'SmrTransactionHeader', value: { ...smrTransactionHeader, chain_id: -1 }, issues: [{ path: '/chain_id', keyword: 'minimum' }] },
  { rule: 'negative u64', schema: 'SmrTransactionHeader', value: { ...smrTransactionHeader, gas_unit_price: -1 }, issues: [{ path: '/gas_unit_price', keyword: 'minimum', message: 'must be >= 0' }] },
  // u64 beyond 2^53-1
  { rule: 'u64 above 2^53-1', schema: 'AccountData', value: { sequence_number: 2 ** 53, authentication_key: '0x1' }, issues: [{ path: '/sequence_number', keyword: 'unsafeInteger' }] },
  {
    rule: 'u64 maximum, rounded by JSON.parse',
    schema: 'AccountCoinStatementV2',
    value: JSON.parse('{"record": [], "cursor": 18446744073709551615}'),
    issues: [{ path: '/cursor', keyword: 'unsafeInteger' }],
  },
  {
    rule: 'u64 above 2^53-1, deep',
    schema: 'AccountStatementV1',
    value: statement([{ ...(fixtures.TransactionInfoV1 as object), header: { ...smrTransactionHeader, max_gas_amount: 2 ** 60 } }]),
    issues: [{ path: '/record/0/header/max_gas_amount', keyword: 'unsafeInteger' }],
  },
  { rule: 'u64 above the u64 range', schema: 'View', value: { epoch_id: { chain_id: 1, epoch: 1 }, round: 1e30 }, issues: [{ path: '/round', keyword: 'maximum' }] },
  // enums
  {
    rule: 'unknown enum value',
    schema: 'TxExecutionStatus',
    value: 'Done',
    issues: [{ path: '', keyword: 'enum', message: 'must be one of "Success", "Fail", "Invalid", "PendingAfterExecution", "Pending"' }],
  },
  { rule: 'unknown enum value in a record', schema: 'TransactionInfoV2', value: tx({ status: 'Done' }), issues: [{ path: '/status', keyword: 'enum' }] },
  { rule: 'unknown enum value inside a union branch', schema: 'TransactionOutput', value: { Oracle: 'Done' }, issues: [{ path: '/Oracle', keyword: 'enum' }] },
  // patterns
  { rule: 'pattern', schema: 'Address', value: '0xZZ', issues: [{ path: '', keyword: 'pattern', message: 'must be an account address: 0x followed by 1 to 64 hex digits' }] },
  { rule: 'pattern of a trading pair', schema: 'TradingPair', value: 'BTC_USDT', issues: [{ path: '', keyword: 'pattern' }] },
  { rule: 'pattern inside a MoveValue', schema: 'MoveValue', value: { Bytes: '0x0' }, issues: [{ path: '/Bytes', keyword: 'pattern' }] },
  // tuples
  { rule: 'tuple too short', schema: 'MoveResourceList', value: { resource: [['name']] }, issues: [{ path: '/resource/0', keyword: 'minItems', message: 'must NOT have fewer than 2 items' }] },
  { rule: 'tuple item of the wrong shape', schema: 'MoveModuleList', value: { modules: [['coin', { address: '0x1' }]] }, issues: [{ path: '/modules/0/1/name', keyword: 'required' }] },
  // keyed unions
  { rule: 'error inside the branch the key selects', schema: 'AccountStatementV2', value: statement([transactionInfoV2, transactionInfoV2, transactionInfoV2, tx({ output: { Move: { gas_used: '7', events: [], vm_status: 'x' } } })]), issues: [{ path: '/record/3/output/Move/gas_used', keyword: 'type', message: 'must be integer' }] },
  {
    rule: 'two keys in a one-key union',
    schema: 'TransactionOutput',
    value: { Move: { gas_used: 1, events: [], vm_status: 'x' }, Dkg: 'Success' },
    issues: [{ path: '', keyword: 'maxProperties', message: 'must have exactly one key, one of Dkg, Move, Oracle, Evm (found "Move", "Dkg")' }],
  },
  { rule: 'two keys in a MoveValue', schema: 'MoveValueResponseV1', value: { result: [{ U8: 1 }, { U8: 1, U16: 1 }] }, issues: [{ path: '/result/1', keyword: 'maxProperties' }] },
  { rule: 'no key in a one-key union', schema: 'MoveList', value: {}, issues: [{ path: '', keyword: 'minProperties', message: 'must have exactly one key, one of Resources, Modules (found none)' }] },
  {
    rule: 'unknown key in a union',
    schema: 'TransactionOutput',
    value: { Foo: 'Success' },
    issues: [{ path: '/Foo', keyword: 'propertyNames', message: 'unknown key "Foo"; the allowed keys are Dkg, Move, Oracle, Evm' }],
  },
  { rule: 'unknown key in a union, lenient too', schema: 'MoveValue', value: { U7: 1 }, options: { strict: false }, issues: [{ path: '/U7', keyword: 'propertyNames' }] },
  { rule: 'wrong basic shape: number for TransactionOutput', schema: 'TransactionOutput', value: 42, issues: [{ path: '', keyword: 'type', message: UNION_OUTPUT }] },
  { rule: 'wrong basic shape, all errors: still one issue', schema: 'TransactionOutput', value: 42, options: { allErrors: true, strict: true }, issues: [{ path: '', keyword: 'type', message: UNION_OUTPUT }] },
  { rule: 'wrong basic shape: array for TransactionOutput', schema: 'TransactionOutput', value: ['Empty'], issues: [{ path: '', keyword: 'type', message: UNION_OUTPUT }] },
  { rule: 'wrong basic shape in a nullable field, all errors', schema: 'TransactionInfoV2', value: tx({ output: 42 }), options: { allErrors: true }, issues: [{ path: '/output', keyword: 'type', message: UNION_OUTPUT }] },
  { rule: 'wrong basic shape: string where only objects are allowed', schema: 'MoveList', value: 'Resources', issues: [{ path: '', keyword: 'type', message: 'must be an object with exactly one of the keys Resources, Modules' }] },
  { rule: 'unknown string of a union', schema: 'TransactionOutput', value: 'Nothing', issues: [{ path: '', keyword: 'enum', message: UNION_OUTPUT }] },
  // tagged unions: the v3 transactions, by txn_type
  {
    rule: 'a txn_type outside the union',
    schema: 'AccountStatementV3',
    value: [userTransactionV3, { ...userTransactionV3, txn_type: 'oracle' }],
    issues: [{ path: '/1/txn_type', keyword: 'enum', message: 'must be one of "user", "automated", "block_metadata", "automation_record"' }],
  },
  { rule: 'a txn_type outside the union, all errors: still one issue', schema: 'TransactionV3', value: { ...userTransactionV3, txn_type: 'User' }, options: { allErrors: true, strict: true }, issues: [{ path: '/txn_type', keyword: 'enum' }] },
  { rule: 'no txn_type', schema: 'TransactionV3', value: { ...userTransactionV3, txn_type: undefined }, issues: [{ path: '/txn_type', keyword: 'required', message: 'required property "txn_type" is missing' }] },
  { rule: 'a txn_type that is no string', schema: 'TransactionV3', value: { ...userTransactionV3, txn_type: 1 }, issues: [{ path: '/txn_type', keyword: 'type', message: 'must be string' }] },
  {
    rule: 'wrong basic shape for a tagged union',
    schema: 'AccountStatementV3',
    value: [[userTransactionV3]],
    issues: [{ path: '/0', keyword: 'type', message: 'must be an object whose "txn_type" is one of "user", "automated", "block_metadata", "automation_record"' }],
  },
  { rule: 'error inside the branch the tag selects', schema: 'AccountStatementV3', value: [userTransactionV3, { ...userTransactionV3, header: { ...smrTransactionHeader, chain_id: 256 } }], issues: [{ path: '/1/header/chain_id', keyword: 'maximum', message: 'must be <= 255' }] },
  { rule: 'a block metadata transaction without output', schema: 'TransactionV3', value: { ...blockMetadataTransactionV3, output: undefined }, issues: [{ path: '/output', keyword: 'required' }] },
  { rule: 'a user transaction tagged as another kind is judged as that kind', schema: 'TransactionV3', value: { ...userTransactionV3, txn_type: 'block_metadata' }, options: { strict: true }, issues: [{ path: '/authenticator', keyword: 'additionalProperties' }] },
  { rule: 'an automation record (open when lenient) with a bad known field', schema: 'TransactionV3', value: { ...automationRecordTransactionV3, status: 'Done', task: 1 }, options: { allErrors: true }, issues: [{ path: '/status', keyword: 'enum' }] },
  // TypeTag, recursive
  { rule: 'deep TypeTag: unknown primitive', schema: 'StructTag', value: deepTypeTag('u7'), issues: [{ path: '/type_args/0/vector/vector/struct/type_args/0', keyword: 'enum', message: UNION_TYPETAG }] },
  { rule: 'deep TypeTag: two keys', schema: 'StructTag', value: deepTypeTag({ vector: 'u8', struct: structTag }), issues: [{ path: '/type_args/0/vector/vector/struct/type_args/0', keyword: 'maxProperties' }] },
  { rule: 'deep TypeTag: wrong basic shape', schema: 'StructTag', value: deepTypeTag(8), issues: [{ path: '/type_args/0/vector/vector/struct/type_args/0', keyword: 'type', message: UNION_TYPETAG }] },
  { rule: 'deep TypeTag: missing field of a nested StructTag', schema: 'StructTag', value: deepTypeTag({ struct: { address: '0x1', name: 'X', type_args: [] } }), issues: [{ path: '/type_args/0/vector/vector/struct/type_args/0/struct/module', keyword: 'required' }] },
  { rule: 'deep TypeTag inside a v1 resource listing', schema: 'MoveList', value: { Resources: { ...moveResourceList, resource: [['r', deepTypeTag({ vector: 'u7' })]] } }, issues: [{ path: '/Resources/resource/0/1/type_args/0/vector/vector/struct/type_args/0/vector', keyword: 'enum' }] },
  // the reads beyond accounts: what a node or a client gets wrong in them
  { rule: 'an event in the documented v2 form (guid a string) where v3 sends an object', schema: 'EventV3', value: { ...eventV3, guid: '0x1::coin::DepositEvent#3' }, issues: [{ path: '/guid', keyword: 'type', message: 'must be object' }] },
  { rule: 'an event sequence number as a number where v3 sends a decimal string', schema: 'EventV3', value: { ...eventV3, sequence_number: 0 }, issues: [{ path: '/sequence_number', keyword: 'type', message: 'must be string' }] },
  { rule: 'a guid creation number as a number', schema: 'EventV3', value: { ...eventV3, guid: { creation_number: 2, account_address: '0x0' } }, issues: [{ path: '/guid/creation_number', keyword: 'type' }] },
  { rule: 'an events page holding one event, as the served document writes it, not an array', schema: 'EventsV3', value: { data: eventWithContextV3 }, issues: [{ path: '/data', keyword: 'type', message: 'must be array' }] },
  { rule: 'a negative block height deep in an events page', schema: 'EventsV3', value: { data: [eventWithContextV3, { ...eventWithContextV3, block_height: -1 }] }, issues: [{ path: '/data/1/block_height', keyword: 'minimum' }] },
  { rule: 'an event without the transaction it was emitted in', schema: 'EventWithContextV3', value: { event: eventV3, block_height: 1 }, issues: [{ path: '/transaction_hash', keyword: 'required' }] },
  { rule: 'a count as a decimal string', schema: 'BlockExecutionStatistics', value: { ...blockExecutionStatistics, user_txn_count: '3' }, issues: [{ path: '/user_txn_count', keyword: 'type', message: 'must be integer' }] },
  { rule: 'gas above 2^53-1, rounded by JSON.parse', schema: 'BlockExecutionStatistics', value: { ...blockExecutionStatistics, block_total_user_gas_used: 2 ** 53 }, issues: [{ path: '/block_total_user_gas_used', keyword: 'unsafeInteger' }] },
  { rule: 'a u64-or-null as a string', schema: 'U64OrNull', value: '1581', issues: [{ path: '', keyword: 'type', message: 'must be integer' }] },
  { rule: 'a block without its header', schema: 'ExecutedBlockInfo', value: { execution_statistics: null }, issues: [{ path: '/header', keyword: 'required' }] },
  { rule: 'execution statistics that are no object', schema: 'ExecutedBlockInfo', value: { ...executedBlockInfo, execution_statistics: [] }, issues: [{ path: '/execution_statistics', keyword: 'type', message: 'must be object' }] },
  { rule: "a block's transaction without its txn_type", schema: 'BlockV3', value: { ...blockV3, transactions: [{ ...userTransactionV3, txn_type: undefined }] }, issues: [{ path: '/transactions/0/txn_type', keyword: 'required' }] },
  { rule: "a block's transactions as an object", schema: 'BlockV3', value: { ...blockV3, transactions: {} }, issues: [{ path: '/transactions', keyword: 'type', message: 'must be array' }] },
  { rule: 'a gas price as a decimal string', schema: 'GasPriceResV3', value: { ...(fixtures.GasPriceResV3 as object), mean_gas_price: '100' }, issues: [{ path: '/mean_gas_price', keyword: 'type', message: 'must be integer' }] },
  { rule: 'a build without its tool chain', schema: 'VersionInfo', value: { ...(fixtures.VersionInfo as object), build_env: undefined }, issues: [{ path: '/build_env', keyword: 'required' }] },
  { rule: 'a negative time to live', schema: 'TransactionParameters', value: { max_transaction_time_to_live_seconds: -300 }, issues: [{ path: '/max_transaction_time_to_live_seconds', keyword: 'minimum' }] },
  { rule: 'a function id without its function', schema: 'MoveFunctionId', value: '0x1::timestamp', issues: [{ path: '', keyword: 'pattern' }] },
  { rule: 'a type tag in the wrong case', schema: 'MoveTypeTag', value: 'U64', issues: [{ path: '', keyword: 'pattern' }] },
  { rule: 'a view request without type_arguments (the node requires all three fields)', schema: 'ViewRequest', value: { function: '0x1::coin::balance', arguments: [] }, issues: [{ path: '/type_arguments', keyword: 'required' }] },
  { rule: 'a type argument that is no Move type', schema: 'ViewRequest', value: { ...viewRequest, type_arguments: ['SupraCoin'] }, issues: [{ path: '/type_arguments/0', keyword: 'pattern' }] },
  { rule: 'view results that are no array', schema: 'ViewResultV3', value: { result: '799817600' }, issues: [{ path: '/result', keyword: 'type', message: 'must be array' }] },
  { rule: 'a table item request without its key', schema: 'TableItemRequest', value: { key_type: 'address', value_type: '0x1::string::String' }, issues: [{ path: '/key', keyword: 'required' }] },
  { rule: 'a table key type that is no Move type', schema: 'TableItemRequest', value: { ...tableItemRequest, key_type: 'Address' }, issues: [{ path: '/key_type', keyword: 'pattern' }] },
];

describe('rejections: exact JSON pointer, keyword and message', () => {
  it.each(cases)('$rule ($schema)', ({ schema, value, options, issues }) => {
    const got = issuesOf(fns(schema).validate(value, options));
    expect(got).toHaveLength(issues.length);
    issues.forEach((want, i) => {
      expect(got[i]).toMatchObject(want.message === undefined ? { path: want.path, keyword: want.keyword } : want);
    });
    expect(fns(schema).is(value, options)).toBe(false);
  });
});

describe('strict and lenient profiles', () => {
  const unknown: { schema: string; value: unknown; path: string }[] = [
    { schema: 'AccountData', value: { ...(fixtures.AccountData as object), extra: 1 }, path: '/extra' },
    { schema: 'TransactionInfoV2', value: tx({ header: { ...smrTransactionHeader, memo: 'x' } }), path: '/header/memo' },
    { schema: 'AccountStatementV1', value: { record: [], next: 1 }, path: '/next' },
    { schema: 'TransactionOutput', value: { Move: { gas_used: 1, events: [], vm_status: 'x', fee: 3 } }, path: '/Move/fee' },
    { schema: 'MoveList', value: { Modules: { modules: [['coin', { address: '0x1', name: 'coin', hash: '0x' }]] } }, path: '/Modules/modules/0/1/hash' },
    { schema: 'StructTag', value: deepTypeTag({ struct: { ...structTag, generic: true } }), path: '/type_args/0/vector/vector/struct/type_args/0/struct/generic' },
    { schema: 'Candle', value: { ...(fixtures.Candle as object), trades: 3 }, path: '/trades' },
    { schema: 'Instrument', value: { ...(fixtures.Instrument as object), 'a/b~c': '1' }, path: '/a~1b~0c' },
    // a v3 transaction: the v2 record's properties and the tag, nothing else
    { schema: 'TransactionV3', value: { ...userTransactionV3, memo: 'x' }, path: '/memo' },
    { schema: 'AccountStatementV3', value: [userTransactionV3, { ...blockMetadataTransactionV3, task_index: 3 }], path: '/1/task_index' },
    // the reads beyond accounts: a block's transactions only in BlockV3, the statistics and events closed
    { schema: 'ExecutedBlockInfo', value: { ...executedBlockInfo, transactions: [] }, path: '/transactions' },
    { schema: 'BlockExecutionStatistics', value: { ...blockExecutionStatistics, oracle_txn_count: 1 }, path: '/oracle_txn_count' },
    { schema: 'EventsV3', value: { data: [{ ...eventWithContextV3, event_index: 0 }] }, path: '/data/0/event_index' },
    { schema: 'ViewResultV3', value: { result: ['1'], gas_used: 7 }, path: '/gas_used' },
  ];
  // The automation record is an open object by the spec's decision: any other field, strict too.
  it('an automation record takes any other field, strict too', () => {
    const value = [{ ...automationRecordTransactionV3, task_index: 3 }];
    expect(fns('AccountStatementV3').validate(value, { strict: true })).toEqual({ ok: true, value });
  });
  it.each(unknown)('an unknown property is accepted when lenient and reported when strict: $schema $path', ({ schema, value, path }) => {
    expect(fns(schema).validate(value)).toEqual({ ok: true, value });
    expect(fns(schema).validate(value, { strict: false })).toEqual({ ok: true, value });
    const issues = issuesOf(fns(schema).validate(value, { strict: true }));
    expect(issues).toEqual([{ path, keyword: 'additionalProperties', message: `unknown property ${JSON.stringify(path.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~'))} is not allowed` }]);
  });

  const open: { schema: string; value: unknown }[] = [
    { schema: 'TransactionInfoV2', value: tx({ authenticator: { anything: [1, { deep: true }] }, payload: { whatever: 1 } }) },
    { schema: 'MoveResource', value: { type: 'x', data: { any: { nested: ['value'] } } } },
    { schema: 'MoveModule', value: { ...(fixtures.MoveModule as object), name: { free: 1 }, friends: { a: 1 }, exposed_functions: { f: {} }, structs: { S: 1 } } },
    { schema: 'MoveValue', value: { Struct: { any: 'field', n: 1 } } },
    { schema: 'Event', value: { ...(fixtures.Event as object), data: { free: 'form' } } },
    { schema: 'EventV3', value: { ...eventV3, data: { free: 'form', index: { value: '1' }, state: 0 } } },
    { schema: 'ViewResultV3', value: { result: ['799817600', false, ['0x1'], { coin: { value: '1' } }] } },
    { schema: 'TableItemRequest', value: { ...tableItemRequest, key: { any: ['json'] } } },
  ];
  it.each(open)('objects typed only as `object` stay open when strict: $schema', ({ schema, value }) => {
    expect(fns(schema).validate(value, { strict: true })).toEqual({ ok: true, value });
  });

  it('u64 up to Number.MAX_SAFE_INTEGER is fine', () => {
    const value = { sequence_number: Number.MAX_SAFE_INTEGER, authentication_key: '0x1' };
    expect(fns('AccountData').validate(value, { strict: true })).toEqual({ ok: true, value });
  });
});
