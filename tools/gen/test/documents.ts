/**
 * The two API documents the specs were written from (the node RPC accounts document and the price-history
 * document, kept outside this repository),
 * transcribed table by table into data. Written from the documents, not from the specs: the
 * spec-coverage test compares the parsed specs against these tables, so a spec that drops or changes
 * anything the documents state fails.
 *
 * Where a document states nothing (e.g. which price query parameters are required), the row leaves the
 * property `undefined` and the checker does not judge it. Each such gap carries a comment.
 */

/** A documented type, in the vocabulary of the documents. */
export type DocType =
  /** An integer with the documented constraints. `maximum: null` means: the document sets no maximum here. */
  | {
      kind: 'integer';
      format?: string;
      minimum?: bigint;
      maximum?: bigint | null;
      default?: bigint;
      label: string;
    }
  | { kind: 'number' }
  | { kind: 'boolean' }
  /** A string; `accepts` are documented example values a spec pattern must not reject; `pattern` is exact. */
  | { kind: 'string'; accepts?: string[]; pattern?: string; label?: string }
  /** An object the document types only as `object`: its fields are unknown, so it must stay free-form. */
  | { kind: 'object' }
  /** "any JSON value". */
  | { kind: 'any' }
  /** A record the document names: the spec must `$ref` the component schema of that name. */
  | { kind: 'ref'; name: string }
  | { kind: 'array'; of: DocType }
  /** A fixed-length JSON array, e.g. `[string, StructTag]`. */
  | { kind: 'tuple'; items: DocType[] }
  /** "null or X" / "X or null". */
  | { kind: 'nullable'; of: DocType }
  /** An object written inline in the document, e.g. `{address: AccountAddress, name: string}`. */
  | { kind: 'inline'; fields: Field[] };

/** One row of a record table: field name, type, required. */
export type Field = readonly [name: string, type: DocType, required: boolean];

export type RecordRow = {
  name: string;
  /** Where in the document the table is. */
  section: string;
  /** `undefined`: the document does not say. */
  deprecated?: boolean;
  fields: Field[];
};

/** One form of an exclusive union. */
export type UnionForm =
  | { const: string }
  | { enum: string[] }
  /** An object with exactly this one key. */
  | { key: string; type: DocType };

export type UnionRow = { name: string; section: string; deprecated?: boolean; forms: UnionForm[] };

export type EnumRow = { name: string; section: string; deprecated?: boolean; values: string[] };

export type ParamRow = {
  name: string;
  in: 'path' | 'query' | 'header';
  /** `undefined`: the document does not say. */
  required?: boolean;
  type: DocType;
  /** Words the parameter's description must contain. */
  descriptionMentions?: string[];
};

export type SecurityRow = { type: 'apiKey'; in: 'header'; name: string };

export type OperationRow = {
  method: 'get';
  path: string;
  operationId: string;
  deprecated: boolean;
  params: ParamRow[];
  /** Schema of the 200 `application/json` body. */
  response: DocType;
  /** Further documented response statuses. */
  errors?: string[];
  /** `undefined`: the document does not say whether the operation needs credentials. */
  security?: SecurityRow;
};

export type DocumentTable = {
  name: string;
  /** The first server (the clients' default base URL) and the uses the server list must name. */
  servers: { first?: string; uses: string[] };
  operations: OperationRow[];
  records: RecordRow[];
  unions: UnionRow[];
  enums: EnumRow[];
  /**
   * Component schemas the spec may add beyond the documented records: named string formats and helpers
   * that only give a name to a type the document writes inline. Anything else is reported.
   */
  helperSchemas: string[];
};

// ---------------------------------------------------------------------------------------------------
// Vocabulary

const U64_MAX = 18446744073709551615n;

/** "integer u64, >= 0" */
export const u64: DocType = { kind: 'integer', format: 'uint64', minimum: 0n, maximum: U64_MAX, label: 'u64' };
/** "integer u8" / "integer uint8, >= 0" */
export const u8: DocType = { kind: 'integer', format: 'uint8', minimum: 0n, maximum: 255n, label: 'u8' };
/** "integer >= 0" (no documented maximum, so none is checked). */
const uint: DocType = { kind: 'integer', minimum: 0n, label: 'integer >= 0' };
/** "integer" */
const integer: DocType = { kind: 'integer', label: 'integer' };
const number: DocType = { kind: 'number' };
const boolean: DocType = { kind: 'boolean' };
const string: DocType = { kind: 'string' };
const object: DocType = { kind: 'object' };
const any: DocType = { kind: 'any' };
const str = (label: string, ...accepts: string[]): DocType => ({ kind: 'string', label, accepts });
const ref = (name: string): DocType => ({ kind: 'ref', name });
const array = (of: DocType): DocType => ({ kind: 'array', of });
const tuple = (...items: DocType[]): DocType => ({ kind: 'tuple', items });
const nullable = (of: DocType): DocType => ({ kind: 'nullable', of });
const inline = (...fields: Field[]): DocType => ({ kind: 'inline', fields });

/** "Hash (hex string)" */
const hash = str('Hash (hex string)', '0x' + 'ab'.repeat(32), '0x1f');
/** "Identity (hex string)" */
const identity = str('Identity (hex string)', '0x' + 'cd'.repeat(32));
/** "AccountAddress (hex string)"; the address parameter: "with or without a `0x` prefix". */
const accountAddress = str('AccountAddress (hex string)', '0x1', '1', '0x' + 'a'.repeat(64));
/** "Address (hex string; 64 hex characters, leading zeros may be stripped, 0x prefix added)" */
const address = str('Address (hex string)', '0x1', '0x' + '0a'.repeat(32));
/** "hex string" */
const hex = str('hex string', '0xa11ceb0b', 'a11ceb0b');
/** U64, U128, U256 of MoveValue: "string (decimal-encoded number)" */
const decimalU = str('decimal string', '0', '18446744073709551615', '115792089237316195423570985008687907853269984665640564039457584007913129639935');

const YES = true;
const NO = false;

/** `count`: "integer >= 0 ... default 20"; the Limits table adds "at most 100" on the transaction listings only. */
const count = (maximum: bigint | null): ParamRow => ({
  name: 'count',
  in: 'query',
  required: false,
  type: { kind: 'integer', minimum: 0n, default: 20n, maximum, label: maximum === null ? 'integer >= 0, default 20' : `integer 0..${maximum}, default 20` },
});
const addressParam: ParamRow = { name: 'address', in: 'path', required: true, type: accountAddress };
const moduleName: ParamRow = { name: 'module_name', in: 'path', required: true, type: str('string', 'coin') };
const resourceType: ParamRow = {
  name: 'resource_type',
  in: 'path',
  required: true,
  type: {
    kind: 'string',
    pattern: '^0x[0-9a-zA-Z:_<>]+$',
    accepts: ['0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>', '0x1::account::Account'],
  },
};
/** "start (integer u64 cursor)" / "start (integer u64 sequence number)" */
const startU64: ParamRow = { name: 'start', in: 'query', required: false, type: u64 };
/** "start (string cursor)" */
const startString: ParamRow = { name: 'start', in: 'query', required: false, type: string };

// ---------------------------------------------------------------------------------------------------
// node-rpc-accounts.md

const v1 = (path: string, operationId: string, params: ParamRow[], response: DocType): OperationRow => ({
  method: 'get', path: `/rpc/v1/accounts/{address}${path}`, operationId, deprecated: true, params: [addressParam, ...params], response,
});
const v2 = (path: string, operationId: string, params: ParamRow[], response: DocType): OperationRow => ({
  method: 'get', path: `/rpc/v2/accounts/{address}${path}`, operationId, deprecated: false, params: [addressParam, ...params], response,
});

export const nodeDocument: DocumentTable = {
  name: 'node-rpc-accounts.md',
  // Rules 2 and 3: several node addresses (wallet, explorer, archive, reprocessing, node-operator group,
  // local network); a local-network node listens on port 27000 (DESIGN: the first server, the default).
  servers: {
    first: 'http://localhost:27000',
    uses: ['wallet', 'explorer', 'archive', 'reprocessing', 'node-operator', 'local network'],
  },
  operations: [
    // "Version 1 (all deprecated)"
    v1('', 'getAccountV1', [], nullable(ref('AccountData'))),
    v1('/coin_transactions', 'listCoinTransactionsV1', [count(100n), startU64], ref('AccountCoinStatementV1')),
    v1('/modules', 'listModulesV1', [count(null), startString], ref('MoveList')),
    v1('/modules/{module_name}', 'getModuleV1', [moduleName], nullable(ref('MoveModule'))),
    v1('/resources', 'listResourcesV1', [count(null), startString], ref('MoveList')),
    v1('/resources/{resource_type}', 'getResourceV1', [resourceType], nullable(ref('MoveValueResponseV1'))),
    v1('/transactions', 'listTransactionsV1', [count(100n), startU64], ref('AccountStatementV1')),
    // "Version 2"
    v2('', 'getAccountV2', [], ref('AccountData')),
    v2('/coin_transactions', 'listCoinTransactionsV2', [count(100n), startU64], ref('AccountCoinStatementV2')),
    v2('/modules', 'listModulesV2', [count(null), startString], ref('MoveModuleListV2')),
    v2('/modules/{module_name}', 'getModuleV2', [moduleName], ref('MoveModuleBytecode')),
    v2('/resources', 'listResourcesV2', [count(null), startString], ref('MoveResourcesResponse')),
    v2('/resources/{resource_type}', 'getResourceV2', [resourceType], ref('MoveResource')),
    v2('/transactions', 'listTransactionsV2', [count(100n), startU64], ref('AccountStatementV2')),
  ],
  records: [
    {
      name: 'AccountData', section: 'AccountData', deprecated: false,
      fields: [
        ['sequence_number', u64, YES],
        ['authentication_key', hash, YES],
      ],
    },
    // "TransactionInfoV1 and TransactionInfoV2": same fields, differ only in the type of block_header.
    // The document calls neither deprecated; TransactionInfoV1 is carried only by v1 responses (v1-only type).
    ...(['V1', 'V2'] as const).map((v): RecordRow => ({
      name: `TransactionInfo${v}`, section: 'TransactionInfoV1 and TransactionInfoV2', deprecated: v === 'V1',
      fields: [
        ['authenticator', object, YES],
        ['block_header', nullable(ref(v === 'V1' ? 'TransactionBlockInfo' : 'BlockHeaderInfo')), NO],
        ['hash', hash, YES],
        ['header', ref('SmrTransactionHeader'), YES],
        ['payload', object, YES],
        ['output', nullable(ref('TransactionOutput')), NO],
        ['status', ref('TxExecutionStatus'), YES],
      ],
    })),
    {
      name: 'TransactionBlockInfo', section: 'TransactionBlockInfo (V1, deprecated)', deprecated: true,
      fields: [
        ['hash', hash, YES],
        ['height', u64, YES],
        ['timestamp', ref('SmrTimestamp'), YES],
      ],
    },
    {
      name: 'BlockHeaderInfo', section: 'BlockHeaderInfo (V2)', deprecated: false,
      fields: [
        ['author', identity, YES],
        ['hash', hash, YES],
        ['height', u64, YES],
        ['parent', hash, YES],
        ['timestamp', ref('SmrTimestamp'), YES],
        ['view', ref('View'), YES],
      ],
    },
    { name: 'View', section: 'View, EpochId, SmrTimestamp', deprecated: false, fields: [['epoch_id', ref('EpochId'), YES], ['round', u64, YES]] },
    { name: 'EpochId', section: 'View, EpochId, SmrTimestamp', deprecated: false, fields: [['chain_id', u8, YES], ['epoch', u64, YES]] },
    { name: 'SmrTimestamp', section: 'View, EpochId, SmrTimestamp', deprecated: false, fields: [['timestamp', u64, YES]] },
    {
      name: 'SmrTransactionHeader', section: 'SmrTransactionHeader (all fields required)', deprecated: false,
      fields: [
        ['chain_id', u8, YES],
        ['expiration_timestamp', ref('SmrTimestamp'), YES],
        ['sender', accountAddress, YES],
        ['sequence_number', u64, YES],
        ['gas_unit_price', u64, YES],
        ['max_gas_amount', u64, YES],
      ],
    },
    {
      name: 'MoveTransactionOutput', section: 'MoveTransactionOutput (all fields required)', deprecated: false,
      fields: [
        ['gas_used', u64, YES],
        ['events', array(ref('Event')), YES],
        ['vm_status', string, YES],
      ],
    },
    {
      name: 'Event', section: 'Event (all fields required)', deprecated: false,
      fields: [
        ['guid', string, YES],
        ['sequence_number', u64, YES],
        ['type', string, YES],
        ['data', any, YES],
      ],
    },
    // "Module and resource listings". MoveList and its parts serve only the v1 listings, but the
    // document names only TransactionBlockInfo and MoveValueResponseV1 as deprecated types: not judged.
    {
      name: 'MoveResourceList', section: 'Module and resource listings',
      fields: [
        ['resource', array(tuple(string, ref('StructTag'))), YES],
        ['cursor', nullable(array(u8)), NO],
      ],
    },
    {
      name: 'MoveModuleList', section: 'Module and resource listings',
      fields: [
        ['modules', array(tuple(string, inline(['address', accountAddress, YES], ['name', string, YES]))), YES],
        ['cursor', nullable(array(u8)), NO],
      ],
    },
    {
      name: 'StructTag', section: 'Module and resource listings',
      fields: [
        ['address', accountAddress, YES],
        ['module', string, YES],
        ['name', string, YES],
        ['type_args', array(ref('TypeTag')), YES],
      ],
    },
    {
      // Also the `abi` of the v2 MoveModuleBytecode, so not a v1-only type.
      name: 'MoveModule', section: 'MoveModule (all fields required)', deprecated: false,
      fields: [
        ['address', address, YES],
        ['name', object, YES],
        ['friends', object, YES],
        ['exposed_functions', object, YES],
        ['structs', object, YES],
      ],
    },
    // "V2 records"
    { name: 'MoveModuleBytecode', section: 'V2 records', deprecated: false, fields: [['bytecode', hex, YES], ['abi', ref('MoveModule'), YES]] },
    {
      name: 'MoveModuleListV2', section: 'V2 records', deprecated: false,
      fields: [
        ['modules', array(ref('MoveModuleBytecode')), YES],
        ['cursor', nullable(string), NO],
      ],
    },
    { name: 'MoveResource', section: 'V2 records', deprecated: false, fields: [['type', string, YES], ['data', object, YES]] },
    {
      name: 'MoveResourcesResponse', section: 'V2 records', deprecated: false,
      fields: [
        ['resources', array(ref('MoveResource')), YES],
        // "string ... Hex-encoded bytes of the state key of the last resource in the list"
        ['cursor', str('string (hex-encoded bytes)', '0x0a0b', '0a0b'), YES],
      ],
    },
    {
      name: 'MoveValueResponseV1', section: 'MoveValueResponseV1 (deprecated)', deprecated: true,
      fields: [['result', array(nullable(ref('MoveValue'))), YES]],
    },
    // Endpoint tables: "AccountCoinStatementV1 = {record: array of TransactionInfoV1, cursor: integer u64}, both
    // required", and so on. The V1 statements are carried only by v1 responses (v1-only types).
    ...(['V1', 'V2'] as const).flatMap((v): RecordRow[] => [
      {
        name: `AccountCoinStatement${v}`, section: `Endpoints, Version ${v.slice(1)}`, deprecated: v === 'V1',
        fields: [['record', array(ref(`TransactionInfo${v}`)), YES], ['cursor', u64, YES]],
      },
      {
        name: `AccountStatement${v}`, section: `Endpoints, Version ${v.slice(1)}`, deprecated: v === 'V1',
        fields: [['record', array(ref(`TransactionInfo${v}`)), YES]],
      },
    ]),
  ],
  unions: [
    {
      name: 'TransactionOutput', section: 'TransactionOutput (exactly one form)', deprecated: false,
      forms: [
        { key: 'Dkg', type: ref('TxExecutionStatus') },
        { const: 'Empty' },
        { key: 'Move', type: ref('MoveTransactionOutput') },
        { key: 'Oracle', type: ref('TxExecutionStatus') },
      ],
    },
    {
      name: 'MoveList', section: 'Module and resource listings',
      forms: [
        { key: 'Resources', type: ref('MoveResourceList') },
        { key: 'Modules', type: ref('MoveModuleList') },
      ],
    },
    {
      name: 'TypeTag', section: 'Module and resource listings',
      forms: [
        { enum: ['bool', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'address', 'signer'] },
        { key: 'vector', type: ref('TypeTag') },
        { key: 'struct', type: ref('StructTag') },
      ],
    },
    {
      name: 'MoveValue', section: 'MoveValueResponseV1 (deprecated)',
      forms: [
        { key: 'U8', type: uint },
        { key: 'U16', type: uint },
        { key: 'U32', type: uint },
        { key: 'U64', type: decimalU },
        { key: 'U128', type: decimalU },
        { key: 'U256', type: decimalU },
        { key: 'Bool', type: boolean },
        { key: 'Address', type: str('string (hex address)', '0x1', '0x' + 'a'.repeat(64)) },
        { key: 'Vector', type: array(string) },
        { key: 'Bytes', type: str('string (0x + two hex digits per byte)', '0x', '0x00ff', '0x0000') },
        { key: 'Struct', type: object },
        { key: 'String', type: string },
      ],
    },
  ],
  enums: [
    {
      name: 'TxExecutionStatus', section: 'States and transitions', deprecated: false,
      values: ['Success', 'Fail', 'Invalid', 'PendingAfterExecution', 'Pending'],
    },
  ],
  helperSchemas: ['HexString', 'Hash', 'Identity', 'AccountAddress', 'Address', 'MoveListCursor', 'MoveModuleId', 'DecimalString'],
};

// ---------------------------------------------------------------------------------------------------
// price-history.md

/** "A lowercase string of the form `<base>_<quote>`, joined by an underscore." */
const tradingPair = str('trading pair identifier', 'btc_usdt', 'eth_usdt');
/** "decimal number as a string" */
const decimal = str('decimal number as a string', '67012.34', '0', '3');
const PRICE_ERRORS = ['400', '404', '500'];

export const priceDocument: DocumentTable = {
  name: 'price-history.md',
  // `{price_base_url}`: the document gives no address.
  servers: { uses: [] },
  operations: [
    {
      method: 'get', path: '/history', operationId: 'getHistory', deprecated: false,
      // "Which of the query parameters are required: not shown" -> `required` not judged.
      params: [
        { name: 'trading_pair', in: 'query', type: tradingPair },
        { name: 'startDate', in: 'query', type: integer },
        { name: 'endDate', in: 'query', type: integer },
        // Parameter table: `Resolution`; sample request and DESIGN: `interval`. The spec must say so.
        { name: 'interval', in: 'query', type: integer, descriptionMentions: ['Resolution', 'seconds'] },
      ],
      response: ref('HistoryResponse'),
      errors: PRICE_ERRORS,
      // Authentication 1: `GET /history` takes the header `x-api-key`.
      security: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    },
    {
      method: 'get', path: '/latest', operationId: 'getLatest', deprecated: false,
      params: [{ name: 'trading_pair', in: 'query', type: tradingPair }],
      response: ref('LatestResponse'),
      errors: PRICE_ERRORS,
      // Authentication 2: "Whether GET /latest needs the header: not shown" -> not judged.
    },
  ],
  // The price document has no Required column: a response table lists what the body carries, so every
  // listed field is taken as present (required).
  records: [
    {
      name: 'HistoryResponse', section: 'History response (HTTP 200, JSON)',
      fields: [['status', str('string', 'success'), YES], ['data', array(ref('Candle')), YES]],
    },
    {
      name: 'Candle', section: 'History response: Candle object',
      fields: [
        ['timestamp', integer, YES],
        ['open', number, YES],
        ['high', number, YES],
        ['low', number, YES],
        ['close', number, YES],
        ['volume', number, YES],
      ],
    },
    {
      name: 'LatestResponse', section: 'Latest response (HTTP 200, JSON)',
      fields: [
        ['currentPage', integer, YES],
        ['totalPages', integer, YES],
        ['totalRecords', integer, YES],
        ['pageSize', integer, YES],
        ['instruments', array(ref('Instrument')), YES],
      ],
    },
    {
      name: 'Instrument', section: 'Latest response: Instrument object (all values are JSON strings)',
      fields: [
        ['time', str('Unix milliseconds as a decimal string', '1732014893723'), YES],
        ['timestamp', str('YYYY-MM-DD HH:MM:SS', '2024-11-19 11:14:53'), YES],
        ['currentPrice', decimal, YES],
        ['24h_high', decimal, YES],
        ['24h_low', decimal, YES],
        // A change over 24 hours is signed; the decimal string must admit a minus sign here.
        ['24h_change', str('decimal number as a string', '-1.25', '0.5', '0'), YES],
        ['tradingPairs', tradingPair, YES],
      ],
    },
  ],
  unions: [],
  enums: [],
  helperSchemas: ['TradingPair', 'SignedDecimalString'],
};
