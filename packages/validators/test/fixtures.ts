/**
 * Valid samples of every record of both specs, shaped as the documents describe them. Reused by the
 * validator tests (and by anyone who needs a realistic body): each is accepted in both profiles.
 * A schema or an operation without a hand-written sample here (one just added to a spec) gets the
 * generator's: `sampleOf` for a schema, the stubs' generated 200 sample for an operation.
 */
import { nodeRpcSamples, priceHistorySamples } from '../../testing/src/generated/samples.ts';
import { sampleOf } from '../../../tools/gen/src/samples.ts';
import { loadSpecs } from '../../../tools/gen/src/specs.ts';

const hash = '0x8b8f9d7c5e2c4a1f0e3d6b9a7c5e2c4a1f0e3d6b9a7c5e2c4a1f0e3d6b9a7c5e';
const address = '0x0000000000000000000000000000000000000000000000000000000000000001';

export const smrTimestamp = { timestamp: 1_732_014_893_723_000 };
export const epochId = { chain_id: 6, epoch: 1_042 };
export const view = { epoch_id: epochId, round: 88_214 };
export const transactionBlockInfo = { hash, height: 4_512_337, timestamp: smrTimestamp };
export const blockHeaderInfo = {
  author: '0xa1b2c3d4',
  hash,
  height: 4_512_337,
  parent: '0x7f3e9a',
  timestamp: smrTimestamp,
  view,
};
export const smrTransactionHeader = {
  chain_id: 6,
  expiration_timestamp: { timestamp: 1_732_015_193_000_000 },
  sender: '0x1',
  sequence_number: 17,
  gas_unit_price: 100,
  max_gas_amount: 500_000,
};
export const event = {
  guid: '0x1::coin::DepositEvent#3',
  sequence_number: 12,
  type: '0x1::coin::DepositEvent',
  data: { amount: '1000000' },
};
export const moveTransactionOutput = { gas_used: 527, events: [event], vm_status: 'Executed successfully' };
export const transactionOutput = { Move: moveTransactionOutput };

const transactionBase = {
  authenticator: { Move: { ed25519: { public_key: '0xab', signature: '0xcd' } } },
  hash,
  header: smrTransactionHeader,
  payload: { Move: { type: 'entry_function_payload', function: '0x1::supra_account::transfer', arguments: ['0x2', '1'] } },
  output: transactionOutput,
  status: 'Success',
};
export const transactionInfoV1 = { ...transactionBase, block_header: transactionBlockInfo };
export const transactionInfoV2 = { ...transactionBase, block_header: blockHeaderInfo };

/** The four kinds of v3 transaction, tagged by `txn_type`: user and automated ones are v2 transactions. */
export const userTransactionV3 = { ...transactionInfoV2, txn_type: 'user' };
export const automatedTransactionV3 = { ...transactionInfoV2, header: { ...smrTransactionHeader, sequence_number: 0 }, txn_type: 'automated' };
export const blockMetadataInfoV3 = { hash, block_header: blockHeaderInfo, output: { Move: { gas_used: 0, events: [], vm_status: 'Executed successfully' } }, status: 'Success' };
export const blockMetadataTransactionV3 = { ...blockMetadataInfoV3, block_header: null, txn_type: 'block_metadata' };
/** No real automation record has been seen: the spec's decision, the fields every kind has, all optional. */
export const automationRecordInfoV3 = { hash, block_header: blockHeaderInfo, status: 'Success' };
export const automationRecordTransactionV3 = { ...automationRecordInfoV3, txn_type: 'automation_record' };

export const structTag = {
  address: '0x1',
  module: 'coin',
  name: 'CoinStore',
  type_args: [{ struct: { address: '0x1', module: 'supra_coin', name: 'SupraCoin', type_args: [] } }],
};
export const typeTag = { vector: { vector: { struct: structTag } } };
export const moveListCursor = [0, 17, 255];
export const moveModuleId = { address: '0x1', name: 'coin' };
export const moveResourceList = {
  resource: [['0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>', structTag]],
  cursor: moveListCursor,
};
export const moveModuleList = { modules: [['coin', moveModuleId]], cursor: null };
export const moveModule = {
  address: '0x1',
  name: { address: '0x1', name: 'coin' },
  friends: {},
  exposed_functions: { balance: { visibility: 'public', params: ['address'], return: ['u64'] } },
  structs: { CoinStore: { abilities: ['key'] } },
};
export const moveModuleBytecode = { bytecode: '0xa11ceb0b060000000b01', abi: moveModule };
export const moveResource = {
  type: '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>',
  data: { coin: { value: '1000000' }, frozen: false },
};
export const moveValue = { Struct: { value: '1000000', frozen: false } };

// The reads beyond accounts (v3 blocks, events, view, gas price, version; v1 chain id and transaction
// parameters; v2 table items), in the forms LIVE-SHAPES.md gives for real nodes where it knows them: event
// guids as objects and sequence numbers as decimal strings, view results as plain JSON values.

const sender = '0xb8922417130785087f9c7926e76542531b703693fdc74c9386b65cf4427f4e80';

/** A block's execution statistics: the counts and gas of its user transactions; the automation ones null (not collected). */
export const blockExecutionStatistics = {
  user_txn_count: 3,
  automated_txn_count: 0,
  automation_record_count: 0,
  automated_txn_gas_unit_price: null,
  block_gas_unit_price_min: 100,
  block_gas_unit_price_max: 100,
  block_total_user_gas_used: 1_581,
  block_total_automated_gas_used: null,
};
export const executedBlockInfo = { header: blockHeaderInfo, execution_statistics: blockExecutionStatistics };
/** A block asked for with its finalized transactions: theirs is no block header (the block is this one). */
export const blockV3 = { ...executedBlockInfo, transactions: [{ ...userTransactionV3, block_header: null }] };
/** An event of a module (`0x1::coin::CoinDeposit`), as the v3 listing sends it: account `0x0`, creation number and sequence number decimal strings. */
export const eventV3 = {
  guid: { creation_number: '0', account_address: '0x0' },
  sequence_number: '0',
  type: '0x1::coin::CoinDeposit',
  data: { account: sender, amount: '1000', coin_type: '0x1::supra_coin::SupraCoin' },
};
export const eventWithContextV3 = { event: eventV3, block_height: 4_512_337, transaction_hash: hash };
export const eventsV3 = {
  data: [
    eventWithContextV3,
    { event: { ...eventV3, data: { ...eventV3.data, amount: '250000' } }, block_height: 4_512_339, transaction_hash: '0x3c6d1f0a9e8b7c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d' },
  ],
};
/** What a view call of `0x1::coin::balance<0x1::supra_coin::SupraCoin>(sender)` sends and gets: the u64 as a decimal string. */
export const viewRequest = { function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: [sender] };
export const viewResultV3 = { result: ['799817600'] };
/** An item of a `0x1::table::Table<address, 0x1::string::String>`. */
export const tableItemRequest = { key_type: 'address', value_type: '0x1::string::String', key: sender };

/** One valid sample per exported schema name (the `X` of `validateX`), both specs. */
export const fixtures: Record<string, unknown> = {
  // node-rpc
  ErrorMessage: { message: 'the requested range has been pruned; oldest block 4512000' },
  AccountStatementV3: [userTransactionV3, automatedTransactionV3, blockMetadataTransactionV3, automationRecordTransactionV3],
  TransactionV3: userTransactionV3,
  BlockMetadataInfoV3: blockMetadataInfoV3,
  AutomationRecordInfoV3: automationRecordInfoV3,
  HexString: '0xa11ceb0b',
  Hash: hash,
  Identity: '0xa1b2c3d4',
  AccountAddress: '0x1',
  Address: address,
  AccountData: { sequence_number: 17, authentication_key: hash },
  TxExecutionStatus: 'PendingAfterExecution',
  SmrTimestamp: smrTimestamp,
  EpochId: epochId,
  View: view,
  TransactionBlockInfo: transactionBlockInfo,
  BlockHeaderInfo: blockHeaderInfo,
  SmrTransactionHeader: smrTransactionHeader,
  Event: event,
  MoveTransactionOutput: moveTransactionOutput,
  TransactionOutput: transactionOutput,
  TransactionInfoV1: transactionInfoV1,
  TransactionInfoV2: transactionInfoV2,
  AccountStatementV1: { record: [transactionInfoV1, { ...transactionInfoV1, block_header: null, output: null }] },
  AccountStatementV2: { record: [transactionInfoV2, { ...transactionInfoV2, output: { Dkg: 'Fail' } }] },
  AccountCoinStatementV1: { record: [transactionInfoV1], cursor: 1_732_014_893_723_001 },
  AccountCoinStatementV2: { record: [transactionInfoV2], cursor: 1_732_014_893_723_001 },
  StructTag: structTag,
  TypeTag: typeTag,
  MoveListCursor: moveListCursor,
  MoveModuleId: moveModuleId,
  MoveResourceList: moveResourceList,
  MoveModuleList: moveModuleList,
  MoveList: { Resources: moveResourceList },
  MoveModule: moveModule,
  MoveModuleBytecode: moveModuleBytecode,
  MoveModuleListV2: { modules: [moveModuleBytecode], cursor: '0x0a0b' },
  MoveResource: moveResource,
  MoveResourcesResponse: { resources: [moveResource], cursor: '0x0001020304' },
  MoveValue: moveValue,
  DecimalString: '18446744073709551615',
  MoveValueResponseV1: {
    result: [
      { U8: 255 },
      { U16: 65_535 },
      { U32: 4_294_967_295 },
      { U64: '18446744073709551615' },
      { U128: '340282366920938463463374607431768211455' },
      { U256: '0' },
      { Bool: true },
      { Address: '0x1' },
      { Vector: ['a', 'b'] },
      { Bytes: '0x00ff' },
      { Struct: {} },
      { String: 'hello' },
      null,
    ],
  },
  BlockExecutionStatistics: blockExecutionStatistics,
  U64OrNull: 1_581,
  ExecutedBlockInfo: executedBlockInfo,
  BlockV3: blockV3,
  EventV3: eventV3,
  EventWithContextV3: eventWithContextV3,
  EventsV3: eventsV3,
  GasPriceResV3: { mean_gas_price: 100, max_gas_price: 150, median_gas_price: 100, min_configured_gas_price: 100 },
  VersionInfo: {
    version: '11.5.2',
    branch: 'release/v11.5',
    commit_hash: '5e9ea6521b7c3d0f4a8e2b6c9d1f3a5e7b0c2d4f',
    build_time: '2026-08-25T09:41:07Z',
    build_env: 'rustc 1.84.1 (e71f9a9a9 2025-01-27)',
  },
  TransactionParameters: { max_transaction_time_to_live_seconds: 300 },
  MoveFunctionId: '0x1::timestamp::now_microseconds',
  MoveTypeTag: 'vector<0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>>',
  ViewRequest: viewRequest,
  ViewResultV3: viewResultV3,
  TableItemRequest: tableItemRequest,
  // price-history
  TradingPair: 'btc_usdt',
  Candle: { timestamp: 1_732_014_893_723, open: 97_000.5, high: 97_250, low: 96_800.25, close: 97_100, volume: 12.5 },
  HistoryResponse: {
    status: 'success',
    data: [{ timestamp: 1_732_014_893_723, open: 97_000.5, high: 97_250, low: 96_800.25, close: 97_100, volume: 12.5 }],
  },
  SignedDecimalString: '-0.0125',
  Instrument: {
    time: '1732014893723',
    timestamp: '2024-11-19 11:14:53',
    currentPrice: '97100.12',
    '24h_high': '98000',
    '24h_low': '95000.5',
    '24h_change': '-1.25',
    tradingPairs: 'btc_usdt',
  },
  LatestResponse: {
    currentPage: 1,
    totalPages: 1,
    totalRecords: 1,
    pageSize: 10,
    instruments: [
      {
        time: '1732014893723',
        timestamp: '2024-11-19 11:14:53',
        currentPrice: '97100.12',
        '24h_high': '98000',
        '24h_low': '95000.5',
        '24h_change': '-1.25',
        tradingPairs: 'btc_usdt',
      },
    ],
  },
};

/** A valid 200 body of every operation of both specs. */
export const okBodies: Record<string, unknown> = {
  getAccountV1: fixtures.AccountData,
  listCoinTransactionsV1: fixtures.AccountCoinStatementV1,
  listModulesV1: { Modules: moveModuleList },
  getModuleV1: moveModule,
  listResourcesV1: { Resources: moveResourceList },
  getResourceV1: fixtures.MoveValueResponseV1,
  listTransactionsV1: fixtures.AccountStatementV1,
  getAccountV2: fixtures.AccountData,
  listCoinTransactionsV2: fixtures.AccountCoinStatementV2,
  listModulesV2: fixtures.MoveModuleListV2,
  getModuleV2: moveModuleBytecode,
  listResourcesV2: fixtures.MoveResourcesResponse,
  getResourceV2: moveResource,
  listTransactionsV2: fixtures.AccountStatementV2,
  getAccountV3: fixtures.AccountData,
  listTransactionsV3: [userTransactionV3, { ...userTransactionV3, header: { ...smrTransactionHeader, sequence_number: 18 } }],
  listCoinTransactionsV3: fixtures.AccountStatementV3,
  listFungibleAssetTransactionsV3: [userTransactionV3],
  listAutomatedTransactionsV3: [automatedTransactionV3, automationRecordTransactionV3],
  listModulesV3: [moveModuleBytecode],
  getModuleV3: moveModuleBytecode,
  listResourcesV3: [moveResource],
  getResourceV3: moveResource,
  getTransactionV3: userTransactionV3,
  estimateGasPriceV3: fixtures.GasPriceResV3,
  getLatestBlockV3: executedBlockInfo,
  getBlockByHeightV3: blockV3,
  getBlockV3: executedBlockInfo,
  getBlockTransactionHashesV3: [hash, eventsV3.data[1]!.transaction_hash],
  listEventsV3: eventsV3,
  viewV3: viewResultV3,
  getVersionV3: fixtures.VersionInfo,
  getTableItemV2: { String: 'alice' },
  getChainIdV1: 8,
  getTransactionParametersV1: fixtures.TransactionParameters,
  getHistory: fixtures.HistoryResponse,
  getLatest: fixtures.LatestResponse,
};

/** The generator's sample of every schema of both specs, by exported name (a price schema the node spec also names is `Price<name>`). */
function schemaSamples(): Record<string, unknown> {
  const { node, price } = loadSpecs();
  const samples: Record<string, unknown> = {};
  for (const name of Object.keys(node.doc.components.schemas)) samples[name] = sampleOf(node.doc, node.doc.components.schemas[name], name);
  for (const name of Object.keys(price.doc.components.schemas)) {
    samples[Object.hasOwn(samples, name) ? `Price${name}` : name] = sampleOf(price.doc, price.doc.components.schemas[name], name);
  }
  return samples;
}

// What no sample above covers comes from the generator, so a schema or an operation added to a spec needs no edit here.
for (const [name, value] of Object.entries(schemaSamples())) if (!Object.hasOwn(fixtures, name)) fixtures[name] = value;
for (const [id, value] of Object.entries({ ...nodeRpcSamples, ...priceHistorySamples })) if (!Object.hasOwn(okBodies, id)) okBodies[id] = value;
