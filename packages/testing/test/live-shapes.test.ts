/**
 * The node stub serves the same seeded chain in either shape: `documented` (the node document) or
 * `live` (what real nodes send, specs/node-rpc.live-overlay.yaml), per server (`shapes`) or per request
 * (`x-stub-shapes`). Over loopback; every live body passes the validators' live reading and fails the
 * documented one exactly where the overlay says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '@x/validators';
import { fungibleStoreAddress, startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '../src/index.ts';
import { utcDateTime } from '../src/node/live.ts';
import { get, SEED } from './helpers.ts';

let documented: NodeStubHandle;
let live: NodeStubHandle;
beforeAll(async () => {
  [documented, live] = await Promise.all([startNodeStub({ seed: SEED }), startNodeStub({ seed: SEED, shapes: 'live' })]);
});
afterAll(async () => {
  await Promise.all([documented.close(), live.close()]);
});

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies in tests
const { alice, publisher, framework, busy } = STUB_ACCOUNTS;
const coinStore = '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>';

/** operationId, path: every node operation with a body that differs or must not. */
const operations: [string, string][] = [
  ['getAccountV1', `/rpc/v1/accounts/${alice}`],
  ['getAccountV2', `/rpc/v2/accounts/${alice}`],
  ['listTransactionsV1', `/rpc/v1/accounts/${busy}/transactions?count=100`],
  ['listTransactionsV2', `/rpc/v2/accounts/${framework}/transactions?count=40`],
  ['listCoinTransactionsV1', `/rpc/v1/accounts/${alice}/coin_transactions?count=30`],
  ['listCoinTransactionsV2', `/rpc/v2/accounts/${alice}/coin_transactions?count=30&start=0`],
  ['getModuleV1', `/rpc/v1/accounts/0x1/modules/coin`],
  ['getModuleV2', `/rpc/v2/accounts/${publisher}/modules/counter`],
  ['listModulesV1', `/rpc/v1/accounts/0x1/modules?count=4`],
  ['listModulesV2', `/rpc/v2/accounts/0x1/modules?count=4`],
  ['listResourcesV1', `/rpc/v1/accounts/${publisher}/resources?count=5`],
  ['listResourcesV2', `/rpc/v2/accounts/${publisher}/resources?count=5`],
  ['getResourceV1', `/rpc/v1/accounts/${alice}/resources/${encodeURIComponent(coinStore)}`],
  ['getResourceV2', `/rpc/v2/accounts/${alice}/resources/${encodeURIComponent(coinStore)}`],
  ['getAccountV3', `/rpc/v3/accounts/${alice}`],
  ['listTransactionsV3', `/rpc/v3/accounts/${framework}/transactions?count=40`],
  ['listCoinTransactionsV3', `/rpc/v3/accounts/${alice}/coin_transactions?count=30`],
  ['listFungibleAssetTransactionsV3', `/rpc/v3/accounts/${fungibleStoreAddress(alice)}/fa_transactions?count=30&ascending=true`],
  ['listAutomatedTransactionsV3', `/rpc/v3/accounts/${alice}/automated_transactions`],
  ['getModuleV3', `/rpc/v3/accounts/${publisher}/modules/counter`],
  ['listModulesV3', `/rpc/v3/accounts/0x1/modules?count=4`],
  ['listResourcesV3', `/rpc/v3/accounts/${publisher}/resources?count=5`],
  ['getResourceV3', `/rpc/v3/accounts/${alice}/resources/${encodeURIComponent(coinStore)}`],
];
/** Operations whose bodies are as documented in both shapes (LIVE-SHAPES.md: "as documented"; v3's automated transactions: always empty). */
const SAME = new Set(['getAccountV1', 'getAccountV2', 'listResourcesV2', 'getResourceV2', 'getAccountV3', 'listAutomatedTransactionsV3', 'listResourcesV3', 'getResourceV3']);

describe.each(operations)('%s', (operationId, path) => {
  it('passes the live reading in the live shape; the documented reading only where the shapes agree', async () => {
    const [d, l, viaHeader] = await Promise.all([
      get<Obj>(documented.url + path),
      get<Obj>(live.url + path),
      get<Obj>(documented.url + path, { 'x-stub-shapes': 'live' }),
    ]);
    expect([d.status, l.status]).toEqual([200, 200]);
    expect(viaHeader.text).toBe(l.text);
    for (const strict of [false, true]) {
      expect(validateResponse(operationId, 200, d.body, { strict }).ok).toBe(true);
      expect(validateResponse(operationId, 200, l.body, { strict, profile: 'live' })).toMatchObject({ ok: true });
      expect(validateResponse(operationId, 200, l.body, { strict }).ok).toBe(SAME.has(operationId));
    }
    if (SAME.has(operationId)) expect(l.text).toBe(d.text);
  });
});

describe('the live forms, from the same chain', () => {
  it('transactions: timestamps, sender, event guids and sequence numbers; same hashes and order', async () => {
    const path = `/rpc/v1/accounts/${busy}/transactions?count=100`;
    const [d, l] = await Promise.all([get<Obj>(documented.url + path), get<Obj>(live.url + path)]);
    expect(l.body.record.map((t: Obj) => t.hash)).toEqual(d.body.record.map((t: Obj) => t.hash));
    let events = 0;
    d.body.record.forEach((dt: Obj, i: number) => {
      const lt = l.body.record[i];
      const micros = dt.block_header.timestamp.timestamp as number;
      expect(lt.block_header.timestamp).toEqual({ microseconds_since_unix_epoch: micros, utc_date_time: utcDateTime(micros) });
      expect(Date.parse(lt.block_header.timestamp.utc_date_time)).toBe(Math.floor(micros / 1000));
      expect(lt.header.expiration_timestamp.microseconds_since_unix_epoch).toBe(dt.header.expiration_timestamp.timestamp);
      expect(lt.header.sender).toEqual({ Move: dt.header.sender });
      for (const [j, e] of ((dt.output?.Move?.events ?? []) as Obj[]).entries()) {
        const le = lt.output.Move.events[j];
        const [address, creation] = (e.guid as string).split(':');
        expect(le.guid).toEqual({ creation_number: creation, account_address: address });
        expect(le.sequence_number).toBe(String(e.sequence_number));
        expect([le.type, le.data]).toEqual([e.type, e.data]);
        events++;
      }
    });
    expect(events).toBeGreaterThan(100);
  });

  it.each([
    [1_727_740_800_000_000, '2024-10-01T00:00:00+00:00'],
    [1_727_740_800_424_000, '2024-10-01T00:00:00.424+00:00'],
    [1_734_471_953_424_357, '2024-12-17T21:45:53.424357+00:00'],
    [1_734_471_953_000_001, '2024-12-17T21:45:53.000001+00:00'],
  ])('utc_date_time of %i µs is %s (RFC 3339, +00:00, chrono AutoSi fraction)', (micros, text) => {
    expect(utcDateTime(micros)).toBe(text);
  });

  it('module ABIs: name a string, friends, functions and structs arrays', async () => {
    const [d, l] = await Promise.all([get<Obj>(`${documented.url}/rpc/v1/accounts/0x1/modules/coin`), get<Obj>(`${live.url}/rpc/v1/accounts/0x1/modules/coin`)]);
    expect(l.body.name).toBe(d.body.name.identifier);
    expect(l.body.friends).toEqual(Object.keys(d.body.friends));
    expect(l.body.exposed_functions).toEqual(Object.values(d.body.exposed_functions));
    expect(l.body.structs).toEqual(Object.values(d.body.structs));
    expect(l.body.exposed_functions[0]).toEqual(expect.objectContaining({ name: expect.any(String), visibility: expect.stringMatching(/^(public|friend|private)$/), is_entry: expect.any(Boolean) }));
  });

  it('v1 listing cursors are the same bytes as lowercase hex, and page on', async () => {
    const path = '/rpc/v1/accounts/0x1/modules?count=4';
    const [d, l] = await Promise.all([get<Obj>(documented.url + path), get<Obj>(live.url + path)]);
    const hex = Buffer.from(d.body.Modules.cursor as number[]).toString('hex');
    expect(l.body.Modules.cursor).toBe(hex);
    expect(l.body.Modules.modules).toEqual(d.body.Modules.modules);
    const next = await get<Obj>(`${live.url}${path}&start=${hex}`);
    expect(next.body.Modules.modules[0][0]).not.toBe(l.body.Modules.modules[0][0]);
  });

  it('a v1 resource read answers the bare struct JSON (the v2 data)', async () => {
    const type = encodeURIComponent(coinStore);
    const [l, v2] = await Promise.all([get<Obj>(`${live.url}/rpc/v1/accounts/${alice}/resources/${type}`), get<Obj>(`${live.url}/rpc/v2/accounts/${alice}/resources/${type}`)]);
    expect(l.body).toEqual({ result: [v2.body.data] });
  });

  it('errors are { message } in the live shape; null and 404 answers stay', async () => {
    const missing = `/rpc/v2/accounts/0x1/modules/nope`;
    const [d, l] = await Promise.all([get<Obj>(documented.url + missing), get<Obj>(live.url + missing)]);
    expect([d.status, l.status]).toEqual([404, 404]);
    expect(l.body).toEqual({ message: d.body.message });
    expect((await get(`${live.url}/rpc/v1/accounts/${STUB_ACCOUNTS.unknown}`)).body).toBeNull();
  });

  it('a method other than GET is a 405 in either shape, whatever the shapes header says', async () => {
    const del = async (url: string, headers: Record<string, string> = {}) => {
      const r = await fetch(url, { method: 'DELETE', headers });
      return [r.status, r.headers.get('allow'), await r.json()];
    };
    expect(await del(`${live.url}/rpc/v2/accounts/0x1`)).toEqual([405, 'GET', { message: 'only GET is served' }]);
    expect(await del(`${documented.url}/rpc/v2/accounts/0x1`)).toEqual([405, 'GET', { error: 'method_not_allowed', message: 'only GET is served' }]);
    expect((await del(`${documented.url}/rpc/v2/accounts/0x1`, { 'x-stub-shapes': 'observed' }))[0]).toBe(405);
  });
});

describe('choosing the shapes', () => {
  it('a request header overrides the server default, both ways', async () => {
    const path = `/rpc/v2/accounts/${alice}/transactions?count=1`;
    const d = await get<Obj>(live.url + path, { 'x-stub-shapes': 'documented' });
    expect(typeof d.body.record[0].header.sender).toBe('string');
    expect(live.shapes).toBe('live');
    expect(documented.shapes).toBe('documented');
  });

  it('a bad header value is a 400 naming the header', async () => {
    const r = await get<Obj>(`${documented.url}/rpc/v2/accounts/0x1`, { 'x-stub-shapes': 'observed' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_shapes', message: "x-stub-shapes must be documented or live, got 'observed'" });
  });

  it('a bad shapes option throws', async () => {
    await expect(startNodeStub({ shapes: 'both' as never })).rejects.toMatchObject({
      name: 'StubArgumentError',
      code: 'INVALID_ARGUMENT',
      parameter: 'shapes',
      message: "shapes: must be documented or live, got 'both'",
    });
  });

  it('the CORS preflight allows x-stub-shapes', async () => {
    const res = await fetch(`${documented.url}/rpc/v2/accounts/0x1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-stub-shapes' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('x-stub-shapes');
  });
});
