/**
 * Type-level behaviour of the generated node types: the unions narrow the way users write them, v1
 * nullability and optional fields show in the types, u64 is `number`, untyped objects are open records.
 * Checked by `tsc` (`pnpm typecheck`, the root tsconfig.json); nothing here runs.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type {
  AccountCoinStatementV1,
  AccountCoinStatementV2,
  AccountData,
  AccountStatementV1,
  BlockHeaderInfo,
  components,
  EpochId,
  Event,
  EvmTransactionOutput,
  MoveList,
  MoveModule,
  MoveModuleBytecode,
  MoveModuleId,
  MoveModuleList,
  MoveModuleListV2,
  MoveResource,
  MoveResourceList,
  MoveResourcesResponse,
  MoveTransactionOutput,
  MoveValue,
  MoveValueResponseV1,
  operations,
  paths,
  SmrTransactionHeader,
  StructTag,
  TransactionBlockInfo,
  TransactionInfoV1,
  TransactionInfoV2,
  TransactionOutput,
  TxExecutionStatus,
  TypeTag,
} from '@x/node-types';

/** The 200 body of a GET path (the POST reads, view and table item, have none to compare here). */
type GetPaths = { [P in keyof paths]: paths[P]['get'] extends { responses: { 200: { content: { 'application/json': unknown } } } } ? P : never }[keyof paths];
type Json200<P extends GetPaths> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type Query<Id extends keyof operations> = NonNullable<operations[Id]['parameters']['query']>;
type Primitive = 'bool' | 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256' | 'address' | 'signer';

const coinType: StructTag = { address: '0x1', module: 'supra_coin', name: 'SupraCoin', type_args: [] };
const header: SmrTransactionHeader = {
  chain_id: 6,
  expiration_timestamp: { timestamp: 1_732_014_893_723_000 },
  sender: '0x1',
  sequence_number: 0,
  gas_unit_price: 100,
  max_gas_amount: 500_000,
};

describe('TransactionOutput', () => {
  test('"Empty" and the four keyed forms narrow', () => {
    const gas = (o: TransactionOutput): number => {
      if (o === 'Empty') {
        expectTypeOf(o).toEqualTypeOf<'Empty'>();
        return 0;
      }
      if ('Move' in o) {
        expectTypeOf(o.Move).toEqualTypeOf<MoveTransactionOutput>();
        return o.Move.gas_used;
      }
      if ('Dkg' in o) {
        expectTypeOf(o.Dkg).toEqualTypeOf<TxExecutionStatus>();
        return 0;
      }
      if ('Evm' in o) {
        expectTypeOf(o.Evm).toEqualTypeOf<EvmTransactionOutput>();
        return 'Error' in o.Evm ? 0 : 'Success' in o.Evm ? o.Evm.Success.gas_used : 'Revert' in o.Evm ? o.Evm.Revert.gas_used : o.Evm.Halt.gas_used;
      }
      expectTypeOf(o).toEqualTypeOf<{ Oracle: TxExecutionStatus }>();
      expectTypeOf(o.Oracle).toEqualTypeOf<TxExecutionStatus>();
      return 0;
    };
    expectTypeOf(gas).returns.toBeNumber();
  });

  test('typeof narrows the string form', () => {
    const f = (o: TransactionOutput) => (typeof o === 'string' ? o : null);
    expectTypeOf(f).returns.toEqualTypeOf<'Empty' | null>();
  });

  test('the union is exhaustive', () => {
    const kind = (o: TransactionOutput): string => {
      if (typeof o === 'string') return o;
      if ('Move' in o) return 'Move';
      if ('Dkg' in o) return 'Dkg';
      if ('Oracle' in o) return 'Oracle';
      if ('Evm' in o) return 'Evm';
      expectTypeOf(o).toBeNever();
      return o;
    };
    expectTypeOf(kind).parameter(0).toEqualTypeOf<TransactionOutput>();
  });

  test('rejects undocumented forms and statuses', () => {
    const ok: TransactionOutput[] = ['Empty', { Dkg: 'Success' }, { Oracle: 'PendingAfterExecution' }, { Move: { gas_used: 1, events: [], vm_status: 'Executed' } }, { Evm: { Revert: { gas_used: 1, output: '0x' } } }];
    expectTypeOf(ok).items.toEqualTypeOf<TransactionOutput>();
    // @ts-expect-error -- "None" is not a form
    const none: TransactionOutput = 'None';
    // @ts-expect-error -- not a TxExecutionStatus
    const dkg: TransactionOutput = { Dkg: 'Done' };
    // @ts-expect-error -- a Move output needs gas_used, events and vm_status
    const move: TransactionOutput = { Move: { gas_used: 1 } };
    void [none, dkg, move];
  });

  test('the key of an object form is not readable before narrowing', () => {
    const read = (o: Exclude<TransactionOutput, string>) =>
      // @ts-expect-error -- `Move` exists on one form only
      o.Move;
    void read;
  });

  test('TxExecutionStatus is exactly the five documented states', () => {
    expectTypeOf<TxExecutionStatus>().toEqualTypeOf<'Success' | 'Fail' | 'Invalid' | 'PendingAfterExecution' | 'Pending'>();
  });
});

describe('MoveList', () => {
  test('Resources and Modules narrow', () => {
    const count = (l: MoveList): number => {
      if ('Resources' in l) {
        expectTypeOf(l.Resources).toEqualTypeOf<MoveResourceList>();
        return l.Resources.resource.length;
      }
      expectTypeOf(l.Modules).toEqualTypeOf<MoveModuleList>();
      return l.Modules.modules.length;
    };
    expectTypeOf(count).parameter(0).toEqualTypeOf<MoveList>();
  });

  test('listing entries are 2-tuples', () => {
    expectTypeOf<MoveResourceList['resource'][number]>().toEqualTypeOf<[string, StructTag]>();
    expectTypeOf<MoveModuleList['modules'][number]>().toEqualTypeOf<[string, MoveModuleId]>();
    expectTypeOf<MoveModuleId>().toEqualTypeOf<{ address: string; name: string }>();
    const ok: MoveResourceList = { resource: [['0x1::coin::CoinInfo', coinType]], cursor: null };
    // @ts-expect-error -- a single element is not a [name, StructTag] pair
    const short: MoveResourceList = { resource: [['0x1::coin::CoinInfo']] };
    // @ts-expect-error -- nor are three elements
    const long: MoveResourceList = { resource: [['0x1::coin::CoinInfo', coinType, 1]] };
    void [ok, short, long];
  });

  test('v1 cursors are optional byte arrays or null (documented) or hex strings (live)', () => {
    expectTypeOf<MoveResourceList['cursor']>().toEqualTypeOf<number[] | null | string | undefined>();
    expectTypeOf<MoveModuleList['cursor']>().toEqualTypeOf<number[] | null | string | undefined>();
  });
});

describe('TypeTag', () => {
  test('string primitives, vector and struct narrow, recursively', () => {
    const show = (t: TypeTag): string => {
      if (typeof t === 'string') {
        expectTypeOf(t).toEqualTypeOf<Primitive>();
        return t;
      }
      if ('vector' in t) {
        expectTypeOf(t.vector).toEqualTypeOf<TypeTag>();
        return `vector<${show(t.vector)}>`;
      }
      expectTypeOf(t.struct).toEqualTypeOf<StructTag>();
      expectTypeOf(t.struct.type_args).toEqualTypeOf<TypeTag[]>();
      return `${t.struct.address}::${t.struct.module}::${t.struct.name}<${t.struct.type_args.map(show).join(', ')}>`;
    };
    expectTypeOf(show).parameter(0).toEqualTypeOf<TypeTag>();
  });

  test('nested values type-check; undocumented primitives do not', () => {
    const nested: TypeTag = { vector: { vector: { struct: { ...coinType, type_args: ['u8', { vector: 'address' }] } } } };
    // @ts-expect-error -- u512 is not a Move primitive
    const wide: TypeTag = 'u512';
    // @ts-expect-error -- nor inside a vector
    const inner: TypeTag = { vector: { vector: 'u512' } };
    void [nested, wide, inner];
  });
});

describe('MoveValue', () => {
  test('has exactly the documented keys, each with its value type', () => {
    type KeysOf<U> = U extends unknown ? keyof U : never;
    expectTypeOf<KeysOf<MoveValue>>().toEqualTypeOf<
      'U8' | 'U16' | 'U32' | 'U64' | 'U128' | 'U256' | 'Bool' | 'Address' | 'Vector' | 'Bytes' | 'Struct' | 'String'
    >();
    type Value<K extends KeysOf<MoveValue>> = Extract<MoveValue, Record<K, unknown>>[K];
    expectTypeOf<Value<'U8'>>().toEqualTypeOf<number>();
    expectTypeOf<Value<'U32'>>().toEqualTypeOf<number>();
    expectTypeOf<Value<'U64'>>().toEqualTypeOf<string>();
    expectTypeOf<Value<'U256'>>().toEqualTypeOf<string>();
    expectTypeOf<Value<'Bool'>>().toEqualTypeOf<boolean>();
    expectTypeOf<Value<'Address'>>().toEqualTypeOf<string>();
    expectTypeOf<Value<'Vector'>>().toEqualTypeOf<string[]>();
    expectTypeOf<Value<'Bytes'>>().toEqualTypeOf<string>();
    expectTypeOf<Value<'Struct'>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Value<'String'>>().toEqualTypeOf<string>();
  });

  test('narrows by key', () => {
    const text = (v: MoveValue): string => {
      if ('U64' in v) {
        expectTypeOf(v.U64).toBeString();
        return v.U64;
      }
      if ('U8' in v) {
        expectTypeOf(v.U8).toBeNumber();
        return String(v.U8);
      }
      if ('Struct' in v) {
        expectTypeOf(v.Struct).toEqualTypeOf<Record<string, unknown>>();
        return JSON.stringify(v.Struct);
      }
      return '';
    };
    expectTypeOf(text).parameter(0).toEqualTypeOf<MoveValue>();
    // @ts-expect-error -- u64 values are decimal strings, not numbers
    const u64: MoveValue = { U64: 1 };
    void u64;
  });

  test('a v1 resource body is a list of MoveValue or null (documented) or bare struct JSON (live)', () => {
    expectTypeOf<MoveValueResponseV1['result']>().toEqualTypeOf<(MoveValue | null | Record<string, unknown>)[]>();
  });
});

describe('v1 nullable responses, v2 plain ones', () => {
  test('getAccount', () => {
    expectTypeOf<Json200<'/rpc/v1/accounts/{address}'>>().toEqualTypeOf<AccountData | null>();
    expectTypeOf<Json200<'/rpc/v2/accounts/{address}'>>().toEqualTypeOf<AccountData>();
  });

  test('getModule and getResource', () => {
    expectTypeOf<Json200<'/rpc/v1/accounts/{address}/modules/{module_name}'>>().toEqualTypeOf<MoveModule | null>();
    expectTypeOf<Json200<'/rpc/v2/accounts/{address}/modules/{module_name}'>>().toEqualTypeOf<MoveModuleBytecode>();
    expectTypeOf<Json200<'/rpc/v1/accounts/{address}/resources/{resource_type}'>>().toEqualTypeOf<MoveValueResponseV1 | null>();
    expectTypeOf<Json200<'/rpc/v2/accounts/{address}/resources/{resource_type}'>>().toEqualTypeOf<MoveResource>();
  });

  test('listings are never null', () => {
    expectTypeOf<Json200<'/rpc/v1/accounts/{address}/modules'>>().toEqualTypeOf<MoveList>();
    expectTypeOf<Json200<'/rpc/v1/accounts/{address}/transactions'>>().toEqualTypeOf<AccountStatementV1>();
    expectTypeOf<Json200<'/rpc/v1/accounts/{address}/coin_transactions'>>().toEqualTypeOf<AccountCoinStatementV1>();
    expectTypeOf<Json200<'/rpc/v2/accounts/{address}/modules'>>().toEqualTypeOf<MoveModuleListV2>();
    expectTypeOf<Json200<'/rpc/v2/accounts/{address}/resources'>>().toEqualTypeOf<MoveResourcesResponse>();
    expectTypeOf<Json200<'/rpc/v2/accounts/{address}/coin_transactions'>>().toEqualTypeOf<AccountCoinStatementV2>();
  });

  test('paths and operations agree', () => {
    expectTypeOf<paths['/rpc/v1/accounts/{address}']['get']>().toEqualTypeOf<operations['getAccountV1']>();
    expectTypeOf<paths['/rpc/v2/accounts/{address}/transactions']['get']>().toEqualTypeOf<operations['listTransactionsV2']>();
  });
});

describe('optional and nullable fields', () => {
  test('block_header and output are X | null | undefined', () => {
    expectTypeOf<TransactionInfoV1['block_header']>().toEqualTypeOf<TransactionBlockInfo | null | undefined>();
    expectTypeOf<TransactionInfoV2['block_header']>().toEqualTypeOf<BlockHeaderInfo | null | undefined>();
    expectTypeOf<TransactionInfoV1['output']>().toEqualTypeOf<TransactionOutput | null | undefined>();
    expectTypeOf<TransactionInfoV2['output']>().toEqualTypeOf<TransactionOutput | null | undefined>();
  });

  test('a pending transaction may omit them; required fields may not be omitted', () => {
    const pending: TransactionInfoV2 = { authenticator: {}, hash: '0x1', header, payload: {}, status: 'Pending' };
    const unset: TransactionInfoV2 = { ...pending, block_header: null, output: null };
    // @ts-expect-error -- status is required
    const noStatus: TransactionInfoV2 = { authenticator: {}, hash: '0x1', header, payload: {} };
    void [pending, unset, noStatus];
  });

  test('the v2 module cursor is optional and nullable; the resources cursor is a required string', () => {
    expectTypeOf<MoveModuleListV2['cursor']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<MoveResourcesResponse['cursor']>().toEqualTypeOf<string>();
  });
});

describe('numbers', () => {
  test('u64 and u8 fields are number', () => {
    expectTypeOf<AccountData['sequence_number']>().toEqualTypeOf<number>();
    expectTypeOf<AccountCoinStatementV2['cursor']>().toEqualTypeOf<number>();
    expectTypeOf<SmrTransactionHeader['gas_unit_price']>().toEqualTypeOf<number>();
    expectTypeOf<SmrTransactionHeader['chain_id']>().toEqualTypeOf<number>();
    expectTypeOf<EpochId['epoch']>().toEqualTypeOf<number>();
    expectTypeOf<BlockHeaderInfo['view']['round']>().toEqualTypeOf<number>();
    expectTypeOf<MoveTransactionOutput['gas_used']>().toEqualTypeOf<number>();
    // Live nodes send event sequence numbers as decimal strings.
    expectTypeOf<Event['sequence_number']>().toEqualTypeOf<number | string>();
  });

  test('start is a number on transaction listings and a string on module/resource listings', () => {
    expectTypeOf<Query<'listTransactionsV2'>['start']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Query<'listCoinTransactionsV1'>['start']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Query<'listModulesV2'>['start']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Query<'listResourcesV1'>['start']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Query<'listResourcesV2'>['count']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<operations['getResourceV2']['parameters']['path']>().toEqualTypeOf<{ address: string; resource_type: string }>();
  });
});

describe('free-form objects', () => {
  test('are Record<string, unknown>, not Record<string, never>', () => {
    expectTypeOf<TransactionInfoV2['authenticator']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<TransactionInfoV1['payload']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<MoveResource['data']>().toEqualTypeOf<Record<string, unknown>>();
    // The documented module ABI forms; live nodes send strings and arrays (see the unions below and node-client's shapes.test-d.ts).
    expectTypeOf<Extract<MoveModule['name'], object>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Exclude<MoveModule['exposed_functions'], unknown[]>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Exclude<MoveModule['friends'], unknown[]>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Exclude<MoveModule['structs'], unknown[]>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Event['data']>().toBeUnknown();
  });

  test('accept real content', () => {
    const r: MoveResource = { type: '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>', data: { coin: { value: '100' }, frozen: false } };
    void r;
  });
});

describe('aliases', () => {
  test('one alias per schema, the deprecated v1 ones included', () => {
    expectTypeOf<TransactionBlockInfo>().toEqualTypeOf<components['schemas']['TransactionBlockInfo']>();
    expectTypeOf<MoveValueResponseV1>().toEqualTypeOf<components['schemas']['MoveValueResponseV1']>();
    expectTypeOf<TransactionInfoV1>().toEqualTypeOf<components['schemas']['TransactionInfoV1']>();
    expectTypeOf<AccountStatementV1>().toEqualTypeOf<components['schemas']['AccountStatementV1']>();
    expectTypeOf<AccountCoinStatementV1>().toEqualTypeOf<components['schemas']['AccountCoinStatementV1']>();
  });
});
