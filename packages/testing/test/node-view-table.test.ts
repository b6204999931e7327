/**
 * The POST reads and the node's own facts over loopback HTTP. View functions agree with what they read
 * (`coin::balance` is the CoinStore's value, `account::get_sequence_number` the account's, the clock and
 * the latest block), answer plain JSON, and refuse what a node refuses with a 400 and a message. The
 * registry's table serves its items by the handle its resource holds. The gas price, chain id,
 * transaction parameters and version. Bodies are bounded (413) and must be JSON (415). Every answer is
 * checked against the spec, strictly.
 */
import { validateResponse } from '@x/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../src/engine.ts';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '../src/index.ts';
import { CHAIN_ACCOUNTS } from '../src/node/accounts.ts';
import { PUBLISHER_COINS } from '../src/node/modules.ts';
import { get, post, SEED, type Fetched } from './helpers.ts';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies in tests
const PUB = STUB_ACCOUNTS.publisher;
const SUPRA = '0x1::supra_coin::SupraCoin';
const LIVE = { 'x-stub-shapes': 'live' };
const NOW = Date.UTC(2024, 10, 20, 12, 30, 15, 250);

let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({
    seed: SEED,
    chainId: 8,
    now: () => NOW,
    accounts: { carol: { balance: 5_000_000_000n, transactions: [{ to: 'alice', amount: 1_000_000n }, { to: 'alice', amount: 2n }] } },
  });
});
afterAll(async () => {
  await stub.close();
});

/** A POST read, checked against the spec: strict, the live reading for the live shapes. */
async function call(operationId: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Fetched<Obj>> {
  const r = await post<Obj>(`${stub.url}${path}`, body, headers);
  const result = validateResponse(operationId, r.status, r.body, headers['x-stub-shapes'] === 'live' ? { strict: true, profile: 'live' } : { strict: true });
  expect(result.ok ? [] : result.issues, `${operationId} ${r.status}`).toEqual([]);
  expect(r.headers.get('x-supra-chain-id')).toBe('8');
  return r;
}
const view = (fn: string, typeArguments: string[], args: unknown[], headers: Record<string, string> = {}) =>
  call('viewV3', '/rpc/v3/view', { function: fn, type_arguments: typeArguments, arguments: args }, headers);
const resource = async (address: string, type: string): Promise<Obj | undefined> => {
  const r = await get<Obj>(`${stub.url}/rpc/v3/accounts/${address}/resources/${encodeURIComponent(type)}`);
  return r.status === 200 ? r.body.data : undefined;
};

const ACCOUNTS = ['framework', 'busy', 'alice', 'bob', 'publisher', 'exactly100', 'receiveOnly', 'empty', 'unknown', 'carol'] as const;

describe('view functions agree with the resources they read', () => {
  it.each(ACCOUNTS)('%s: balance, registration, sequence number, existence, authentication key', async (name) => {
    const address = stub.accounts[name]!;
    const store = await resource(address, `0x1::coin::CoinStore<${SUPRA}>`);
    const balance = await view('0x1::coin::balance', [SUPRA], [address]);
    if (store === undefined) expect([balance.status, balance.body.message]).toEqual([400, expect.stringContaining('ECOIN_STORE_NOT_PUBLISHED')]);
    else expect(balance.body).toEqual({ result: [store.coin.value] });
    expect((await view('0x1::coin::is_account_registered', [SUPRA], [address])).body).toEqual({ result: [store !== undefined] });

    const account = await get<Obj>(`${stub.url}/rpc/v3/accounts/${address}`);
    expect((await view('0x1::account::exists_at', [], [address])).body).toEqual({ result: [account.status === 200] });
    const sequence = await view('0x1::account::get_sequence_number', [], [address]);
    const key = await view('0x1::account::get_authentication_key', [], [address]);
    if (account.status === 200) {
      expect(sequence.body).toEqual({ result: [String(account.body.sequence_number)] });
      expect(key.body).toEqual({ result: [account.body.authentication_key] });
    } else {
      expect([sequence.status, key.status]).toEqual([400, 400]);
      expect(sequence.body.message).toContain('EACCOUNT_DOES_NOT_EXIST');
    }
  });

  it.each(PUBLISHER_COINS.slice(0, 5))('the publisher’s %s: its CoinStore’s value; not a coin CoinInfo knows', async (ticker) => {
    const coin = `${PUB}::coins::${ticker}`;
    const store = await resource(PUB, `0x1::coin::CoinStore<${coin}>`);
    expect((await view('0x1::coin::balance', [coin], [PUB])).body).toEqual({ result: [store!.coin.value] });
    // No CoinInfo is published for it: the stub's chain holds only its stores.
    const decimals = await view('0x1::coin::decimals', [coin], []);
    expect([decimals.status, decimals.body.message]).toEqual([400, expect.stringContaining('ECOIN_INFO_NOT_PUBLISHED')]);
  });

  it('the coin’s decimals, name, symbol and supply are its CoinInfo’s', async () => {
    const info = (await resource('0x1', `0x1::coin::CoinInfo<${SUPRA}>`))!;
    expect((await view('0x1::coin::decimals', [SUPRA], [])).body).toEqual({ result: [info.decimals] });
    expect((await view('0x1::coin::name', [SUPRA], [])).body).toEqual({ result: [info.name] });
    expect((await view('0x1::coin::symbol', [SUPRA], [])).body).toEqual({ result: [info.symbol] });
    expect((await view('0x1::coin::supply', [SUPRA], [])).body).toEqual({ result: [info.supply] });
    expect(typeof info.decimals).toBe('number');
  });

  it('the publisher’s counter is its Counter resource’s value', async () => {
    const counter = (await resource(STUB_ACCOUNTS.alice, `${PUB}::counter::Counter`))!;
    expect((await view(`${PUB}::counter::value`, [], [STUB_ACCOUNTS.alice])).body).toEqual({ result: [counter.value] });
    expect((await view(`${PUB}::counter::value`, [], [STUB_ACCOUNTS.empty])).status).toBe(400);
  });

  it('the clock, the latest block and the chain id', async () => {
    const r = await view('0x1::timestamp::now_microseconds', [], []);
    expect(r.body).toEqual({ result: [String(NOW * 1000)] });
    expect(r.headers.get('x-stub-clock')).toBe(new Date(NOW).toISOString());
    expect((await view('0x1::timestamp::now_seconds', [], [])).body).toEqual({ result: [String(Math.floor(NOW / 1000))] });
    const latest = (await get<Obj>(`${stub.url}/rpc/v3/block`)).body.header.height;
    expect((await view('0x1::block::get_current_block_height', [], [])).body).toEqual({ result: [String(latest)] });
    expect((await view('0x1::chain_id::get', [], [])).body).toEqual({ result: [8] });
    expect((await view('0x1::chain_status::is_operating', [], [])).body).toEqual({ result: [true] });
    // A view that reads no clock says none.
    expect((await view('0x1::chain_id::get', [], [])).headers.has('x-stub-clock')).toBe(false);
  });

  it('any spelling of an address, in the function and in the arguments', async () => {
    const canonical = (await view('0x1::coin::balance', [SUPRA], [STUB_ACCOUNTS.exactly101])).text;
    expect((await view('0x0001::coin::balance', ['0x01::supra_coin::SupraCoin'], [STUB_ACCOUNTS.exactly101.replace('0x0000', '')])).text).toBe(canonical);
    expect((await view('1::coin::balance', [SUPRA], [STUB_ACCOUNTS.exactly101.slice(2).toUpperCase()])).text).toBe(canonical);
  });

  it('the same answers in the live shapes, but errors as { message }', async () => {
    expect((await view('0x1::coin::balance', [SUPRA], [STUB_ACCOUNTS.alice], LIVE)).text).toBe((await view('0x1::coin::balance', [SUPRA], [STUB_ACCOUNTS.alice])).text);
    const failed = await view('0x1::coin::nope', [], [], LIVE);
    expect([failed.status, failed.body]).toEqual([400, { message: expect.stringContaining('FUNCTION_RESOLUTION_FAILURE') }]);
  });
});

describe('a view a node would refuse is a 400 with a message', () => {
  it.each([
    ['a module that is not published', { function: '0x1::nope::f', type_arguments: [], arguments: [] }, 'LINKER_ERROR'],
    ['a function the module does not have', { function: '0x1::coin::nope', type_arguments: [], arguments: [] }, 'FUNCTION_RESOLUTION_FAILURE'],
    ['a function named as a prototype key', { function: '0x1::coin::constructor', type_arguments: [], arguments: [] }, 'FUNCTION_RESOLUTION_FAILURE'],
    ['an entry function', { function: '0x1::coin::transfer', type_arguments: [SUPRA], arguments: ['0x1', '1'] }, 'is not a view function'],
    ['a missing type argument', { function: '0x1::coin::balance', type_arguments: [], arguments: ['0x1'] }, 'NUMBER_OF_TYPE_ARGUMENTS_MISMATCH'],
    ['a missing argument', { function: '0x1::coin::balance', type_arguments: [SUPRA], arguments: [] }, 'NUMBER_OF_ARGUMENTS_MISMATCH'],
    ['an address that is no hex', { function: '0x1::account::exists_at', type_arguments: [], arguments: ['0xzz'] }, 'INVALID_ARGUMENT'],
    ['an address as a number', { function: '0x1::account::exists_at', type_arguments: [], arguments: [1] }, 'INVALID_ARGUMENT'],
    ['a type argument that is no type', { function: '0x1::coin::balance', type_arguments: ['coin'], arguments: ['0x1'] }, 'type_arguments'],
    ['a function that is no function id', { function: 'balance', type_arguments: [], arguments: [] }, 'function must be'],
    ['no arguments field', { function: '0x1::chain_id::get', type_arguments: [] }, 'all three'],
    ['arguments not an array', { function: '0x1::chain_id::get', type_arguments: [], arguments: {} }, 'all three'],
    ['a JSON array', [], 'JSON object'],
    ['no JSON', '{"function":', 'not JSON'],
  ])('%s', async (_label, body, says) => {
    const r = await call('viewV3', '/rpc/v3/view', body);
    expect([r.status, r.body.message]).toEqual([400, expect.stringContaining(says)]);
    expect(r.body.error).toEqual(expect.any(String));
  });

  it('a declared view function the stub does not run says so', async () => {
    // publisher's feature modules declare view functions drawn from the seed; the stub runs none of them.
    const modules = (await get<Obj[]>(`${stub.url}/rpc/v3/accounts/${PUB}/modules?count=100`)).body;
    const declared = modules.flatMap((m) => Object.values(m.abi.exposed_functions as Obj).filter((f: Obj) => f.is_view && f.params.length === 1 && f.generic_type_params.length === 0).map((f: Obj) => `${PUB}::${m.abi.name.identifier}::${f.name}`));
    const other = declared.find((fn) => !fn.endsWith('::counter::value'))!;
    const r = await view(other, [], [STUB_ACCOUNTS.alice]);
    expect([r.status, r.body.message]).toEqual([400, expect.stringContaining('this stub does not run')]);
  });

  it('a body that is not sent as JSON is a 415; one over 64 KiB a 413; a GET of the path a 405', async () => {
    const asText = await fetch(`${stub.url}/rpc/v3/view`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect([asText.status, ((await asText.json()) as Obj).error]).toEqual([415, 'unsupported_media_type']);
    const large = await post<Obj>(`${stub.url}/rpc/v3/view`, { function: '0x1::chain_id::get', type_arguments: [], arguments: ['x'.repeat(MAX_REQUEST_BODY_BYTES)] });
    expect([large.status, large.body.error]).toEqual([413, 'payload_too_large']);
    const justUnder = await post<Obj>(`${stub.url}/rpc/v3/view`, { function: '0x1::chain_id::get', type_arguments: [], arguments: ['x'.repeat(MAX_REQUEST_BODY_BYTES - 100)] });
    expect(justUnder.status).toBe(400);
    const asGet = await get<Obj>(`${stub.url}/rpc/v3/view`);
    expect([asGet.status, asGet.headers.get('allow')]).toEqual([405, 'POST']);
    // The stub keeps answering on new connections after a body cut short.
    expect((await view('0x1::chain_id::get', [], [])).status).toBe(200);
  });

  it('failNext waits for a POST of the view: a GET of its path does not use it up', async () => {
    stub.failNext('viewV3', 503);
    expect((await get(`${stub.url}/rpc/v3/view`)).status).toBe(405);
    const faulted = await post<Obj>(`${stub.url}/rpc/v3/view`, { function: '0x1::chain_id::get', type_arguments: [], arguments: [] });
    expect([faulted.status, faulted.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await view('0x1::chain_id::get', [], [])).status).toBe(200);
  });

  it('the request log has the body', async () => {
    stub.reset();
    await view('0x1::chain_id::get', [], []);
    expect(stub.requests.map((r) => [r.method, r.operationId, r.body])).toEqual([['POST', 'viewV3', JSON.stringify({ function: '0x1::chain_id::get', type_arguments: [], arguments: [] })]]);
  });
});

describe('the registry’s table, by the handle its resource holds', () => {
  const handle = async (): Promise<string> => (await resource(PUB, `${PUB}::registry::Registry<0x1::string::String>`))!.names.handle;
  const item = async (h: string, body: unknown, headers: Record<string, string> = {}) => call('getTableItemV2', `/rpc/v2/tables/${h}/item`, body, headers);

  it.each(CHAIN_ACCOUNTS)('%s: its address is its name', async (name) => {
    const r = await item(await handle(), { key_type: 'address', value_type: '0x1::string::String', key: STUB_ACCOUNTS[name] });
    expect(r.body).toEqual({ String: name });
  });

  it.each([
    ['a key not in the table', { key_type: 'address', value_type: '0x1::string::String', key: STUB_ACCOUNTS.unknown }, 404],
    ['a key of another type than the table’s (other bytes: no item)', { key_type: 'u64', value_type: '0x1::string::String', key: '1' }, 404],
    ['a value type other than the table’s (the item does not read as it)', { key_type: 'address', value_type: 'u64', key: '0x1' }, 400],
    ['a key that is not its type', { key_type: 'address', value_type: '0x1::string::String', key: 'alice' }, 400],
    ['a u64 key as a JSON number', { key_type: 'u64', value_type: 'u64', key: 1 }, 400],
    ['a key type that is no type', { key_type: 'addr', value_type: '0x1::string::String', key: '0x1' }, 400],
    ['no key', { key_type: 'address', value_type: '0x1::string::String' }, 400],
  ])('%s: %i with a message', async (_label, body, status) => {
    for (const headers of [{}, LIVE]) {
      const r = await item(await handle(), body, headers);
      expect([r.status, r.body.message]).toEqual([status, expect.any(String)]);
    }
  });

  it('an unknown handle: 404; a handle that is no address: 400; the short form of the handle finds it', async () => {
    expect((await item('0x1', { key_type: 'address', value_type: '0x1::string::String', key: '0x1' })).status).toBe(404);
    expect((await item('0xnope', { key_type: 'address', value_type: '0x1::string::String', key: '0x1' })).status).toBe(400);
    const h = await handle();
    expect((await item(h.slice(2).toUpperCase(), { key_type: 'address', value_type: '0x1::string::String', key: '1' })).body).toEqual({ String: 'framework' });
  });
});

describe('the node’s facts', () => {
  const read = async (operationId: string, path: string): Promise<Fetched<Obj>> => {
    const r = await get<Obj>(`${stub.url}${path}`);
    expect(validateResponse(operationId, r.status, r.body, { strict: true })).toMatchObject({ ok: true });
    expect([r.status, r.headers.get('x-supra-chain-id')]).toEqual([200, '8']);
    return r;
  };

  it('the chain id is the stub’s, a bare integer', async () => {
    expect((await read('getChainIdV1', '/rpc/v1/transactions/chain_id')).text).toBe('8');
    const testnet = await startNodeStub({ seed: SEED });
    try {
      const r = await get(`${testnet.url}/rpc/v1/transactions/chain_id`);
      expect([r.text, r.headers.get('x-supra-chain-id')]).toEqual(['6', '6']);
    } finally {
      await testnet.close();
    }
  });

  it('the gas price estimate, from the transactions: every one paid 100', async () => {
    expect((await read('estimateGasPriceV3', '/rpc/v3/transactions/estimate_gas_price')).body).toEqual({
      mean_gas_price: 100,
      max_gas_price: 100,
      median_gas_price: 100,
      min_configured_gas_price: 100,
    });
  });

  it('the transaction parameters agree with the transactions’ expirations', async () => {
    const { max_transaction_time_to_live_seconds: ttl } = (await read('getTransactionParametersV1', '/rpc/v1/transactions/parameters')).body;
    const [tx] = (await get<Obj[]>(`${stub.url}/rpc/v3/accounts/${STUB_ACCOUNTS.alice}/transactions?count=1`)).body;
    const lives = (tx!.header.expiration_timestamp.timestamp - tx!.block_header.timestamp.timestamp) / 1e6;
    expect(lives).toBeGreaterThan(0);
    expect(lives).toBeLessThanOrEqual(ttl);
  });

  it('the version', async () => {
    expect((await read('getVersionV3', '/rpc/v3/version')).body).toMatchObject({ version: expect.any(String), branch: 'x-stub' });
  });
});
