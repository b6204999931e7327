/**
 * Every body the stubs serve conforms to the specs, checked in the strict profile (unknown properties are
 * errors) by the project's own validators. Walks every operation of the three versions: every page of a few
 * accounts, every module and resource, the v1 nulls, v3's 410, and both price operations.
 */
import { validateResponse } from '@x/validators';
import { describe, expect, it } from 'vitest';
import { fungibleStoreAddress, startNodeStub, STUB_ACCOUNTS, STUB_ACCOUNT_FACTS, type ChainAccountName } from '../src/index.ts';
import { useNodeStub, usePriceStub } from '@x-tools/test-helpers';
import { get, hexOf, SEED, type Fetched } from './helpers.ts';

const node = useNodeStub(SEED);
const price = usePriceStub({ seed: SEED });

interface Checked {
  operationId: string;
  url: string;
  status: number;
}

/** Fetches, validates strictly, fails with the issues; returns the parsed body. */
async function conform<T>(operationId: string, url: string, log: Checked[], headers: Record<string, string> = {}): Promise<T> {
  const r = await get<T>(url, headers);
  expect(r.body, `${url} is not JSON`).not.toBe(undefined);
  const result = validateResponse(operationId, r.status, r.body, { strict: true });
  expect(result.ok ? [] : result.issues, `${operationId} ${r.status} ${url}`).toEqual([]);
  log.push({ operationId, url, status: r.status });
  return r.body;
}

type Page = { record: unknown[]; cursor?: number };

const WALKED: ChainAccountName[] = ['framework', 'busy', 'publisher', 'exactly101', 'receiveOnly', 'empty'];

describe.each(['v1', 'v2'] as const)('node %s responses conform (strict)', (v) => {
  const V = v.toUpperCase();
  const base = (address: string): string => `${node.stub.url}/rpc/${v}/accounts/${address}`;

  it.each(WALKED)('%s: account, every page of transactions and coin transactions', async (name) => {
    const log: Checked[] = [];
    const address = STUB_ACCOUNTS[name];
    await conform(`getAccount${V}`, base(address), log);
    let sent = 0;
    for (let start = 0; ; start += 100) {
      const p = await conform<Page>(`listTransactions${V}`, `${base(address)}/transactions?count=100&start=${start}`, log);
      sent += p.record.length;
      if (p.record.length < 100) break;
    }
    expect(sent).toBe(STUB_ACCOUNT_FACTS[name].sent);
    await conform(`listTransactions${V}`, `${base(address)}/transactions`, log);
    let coin = 0;
    for (let cursor = 0; ; ) {
      const p = await conform<Page>(`listCoinTransactions${V}`, `${base(address)}/coin_transactions?count=100&start=${cursor}`, log);
      coin += p.record.length;
      if (p.record.length === 0) break;
      cursor = p.cursor as number;
    }
    expect(coin).toBe(STUB_ACCOUNT_FACTS[name].coinTransactions);
    await conform(`listCoinTransactions${V}`, `${base(address)}/coin_transactions?count=7`, log);
  });

  it.each(['framework', 'publisher', 'busy', 'empty'] as ChainAccountName[])('%s: every page of modules and resources, every one by name', async (name) => {
    const log: Checked[] = [];
    const address = STUB_ACCOUNTS[name];
    const modules: string[] = [];
    for (let start: string | undefined, i = 0; i < 50; i++) {
      const url = `${base(address)}/modules?count=7${start === undefined ? '' : `&start=${start}`}`;
      if (v === 'v1') {
        const b = await conform<{ Modules: { modules: Array<[string, unknown]>; cursor: number[] | null } }>(`listModulesV1`, url, log);
        modules.push(...b.Modules.modules.map(([n]) => n));
        if (b.Modules.cursor === null) break;
        start = hexOf(b.Modules.cursor);
      } else {
        const b = await conform<{ modules: Array<{ abi: { name: { identifier: string } } }>; cursor: string | null }>(`listModulesV2`, url, log);
        modules.push(...b.modules.map((m) => m.abi.name.identifier));
        if (b.cursor === null) break;
        start = b.cursor;
      }
    }
    expect(modules).toHaveLength(STUB_ACCOUNT_FACTS[name].modules);
    for (const m of modules) await conform(`getModule${V}`, `${base(address)}/modules/${m}`, log);

    const types: string[] = [];
    for (let start: string | undefined, i = 0; i < 50; i++) {
      const url = `${base(address)}/resources?count=5${start === undefined ? '' : `&start=${start}`}`;
      if (v === 'v1') {
        const b = await conform<{ Resources: { resource: Array<[string, unknown]>; cursor: number[] | null } }>(`listResourcesV1`, url, log);
        types.push(...b.Resources.resource.map(([t]) => t));
        if (b.Resources.cursor === null) break;
        start = hexOf(b.Resources.cursor);
      } else {
        const b = await conform<{ resources: Array<{ type: string }>; cursor: string }>(`listResourcesV2`, url, log);
        if (b.resources.length === 0) break;
        types.push(...b.resources.map((r) => r.type));
        start = b.cursor;
      }
    }
    expect(types).toHaveLength(STUB_ACCOUNT_FACTS[name].resources);
    for (const t of types) await conform(`getResource${V}`, `${base(address)}/resources/${encodeURIComponent(t)}`, log);
  });

  it('answers for what is not there (v1 nulls and empty listings; v2 errors are JSON)', async () => {
    const log: Checked[] = [];
    const unknown = STUB_ACCOUNTS.unknown;
    if (v === 'v1') {
      expect(await conform('getAccountV1', base(unknown), log)).toBeNull();
      expect(await conform('getModuleV1', `${base('0x1')}/modules/missing`, log)).toBeNull();
      expect(await conform('getModuleV1', `${base(unknown)}/modules/coin`, log)).toBeNull();
      expect(await conform('getResourceV1', `${base('0x1')}/resources/0x1::missing::Missing`, log)).toBeNull();
      expect(await conform('getResourceV1', `${base(unknown)}/resources/0x1::account::Account`, log)).toBeNull();
      await conform('listTransactionsV1', `${base(unknown)}/transactions`, log);
      await conform('listCoinTransactionsV1', `${base(unknown)}/coin_transactions`, log);
      await conform('listModulesV1', `${base(unknown)}/modules`, log);
      await conform('listResourcesV1', `${base(unknown)}/resources`, log);
    } else {
      await conform('getAccountV2', base(unknown), log);
      await conform('getModuleV2', `${base('0x1')}/modules/missing`, log);
      await conform('getResourceV2', `${base('0x1')}/resources/0x1::missing::Missing`, log);
      await conform('listTransactionsV2', `${base('0x1')}/transactions?count=101`, log);
      expect(log.map((l) => l.status)).toEqual([404, 404, 404, 400]);
    }
  });
});

describe('node v3 responses conform (strict)', () => {
  const base = (address: string): string => `${node.stub.url}/rpc/v3/accounts/${address}`;
  type Tx = { header: { sequence_number: number } };

  /** Every page of a cursor listing, by its x-supra-cursor header; the number of items. */
  async function walkCursor(operationId: string, url: string, log: Checked[]): Promise<number> {
    let n = 0;
    for (let start: string | null = null, i = 0; i < 100; i++) {
      const r: Fetched<unknown[]> = await get<unknown[]>(`${url}${start === null ? '' : `&start=${start}`}`);
      expect(validateResponse(operationId, r.status, r.body, { strict: true })).toMatchObject({ ok: true });
      log.push({ operationId, url, status: r.status });
      if (r.body.length === 0) return n;
      n += r.body.length;
      start = r.headers.get('x-supra-cursor');
    }
    throw new Error(`${url}: no end`);
  }

  it.each(WALKED)('%s: account, every page of transactions, coin, fungible-asset and automated transactions', async (name) => {
    const log: Checked[] = [];
    const address = STUB_ACCOUNTS[name];
    await conform('getAccountV3', base(address), log);
    let sent = 0;
    for (let start = 0; ; start += 100) {
      const p = await conform<Tx[]>('listTransactionsV3', `${base(address)}/transactions?count=100&start=${start}&ascending=true`, log);
      sent += p.length;
      if (p.length < 100) break;
    }
    expect(sent).toBe(STUB_ACCOUNT_FACTS[name].sent);
    await conform('listTransactionsV3', `${base(address)}/transactions`, log);
    expect(await walkCursor('listCoinTransactionsV3', `${base(address)}/coin_transactions?count=100`, log)).toBe(STUB_ACCOUNT_FACTS[name].coinTransactions);
    expect(await walkCursor('listFungibleAssetTransactionsV3', `${base(fungibleStoreAddress(address))}/fa_transactions?count=100&ascending=true`, log)).toBe(
      STUB_ACCOUNT_FACTS[name].coinTransactions,
    );
    expect(await conform('listAutomatedTransactionsV3', `${base(address)}/automated_transactions`, log)).toEqual([]);
  });

  it.each(['framework', 'publisher', 'busy', 'empty'] as ChainAccountName[])('%s: every page of modules and resources, every one by name', async (name) => {
    const log: Checked[] = [];
    const address = STUB_ACCOUNTS[name];
    const modules: string[] = [];
    for (let start: string | null = null, i = 0; i < 50; i++) {
      const url: string = `${base(address)}/modules?count=7${start === null ? '' : `&start=${start}`}`;
      const r: Fetched<Array<{ abi: { name: { identifier: string } } }>> = await get(url);
      expect(validateResponse('listModulesV3', r.status, r.body, { strict: true })).toMatchObject({ ok: true });
      modules.push(...r.body.map((m) => m.abi.name.identifier));
      start = r.headers.get('x-supra-cursor');
      if (start === null) break;
    }
    expect(modules).toHaveLength(STUB_ACCOUNT_FACTS[name].modules);
    for (const m of modules) await conform('getModuleV3', `${base(address)}/modules/${m}`, log);
    const types: string[] = [];
    for (let start: string | null = null, i = 0; i < 50; i++) {
      const url: string = `${base(address)}/resources?count=5${start === null ? '' : `&start=${start}`}`;
      const r: Fetched<Array<{ type: string }>> = await get(url);
      expect(validateResponse('listResourcesV3', r.status, r.body, { strict: true })).toMatchObject({ ok: true });
      types.push(...r.body.map((t) => t.type));
      start = r.headers.get('x-supra-cursor');
      if (start === null) break;
    }
    expect(types).toHaveLength(STUB_ACCOUNT_FACTS[name].resources);
    for (const t of types) await conform('getResourceV3', `${base(address)}/resources/${encodeURIComponent(t)}`, log);
  });

  it('a 410 of pruned history is the documented ErrorMessage, in both shapes', async () => {
    const pruned = await startNodeStub({ seed: SEED, oldestBlock: 1_000_000_000 });
    try {
      const log: Checked[] = [];
      for (const headers of [{}, { 'x-stub-shapes': 'live' }] as Record<string, string>[]) {
        const at = `${pruned.url}/rpc/v3/accounts/${STUB_ACCOUNTS.alice}`;
        await conform('listTransactionsV3', `${at}/transactions`, log, headers);
        await conform('listCoinTransactionsV3', `${at}/coin_transactions?ascending=true&start=0`, log, headers);
        await conform('listAutomatedTransactionsV3', `${at}/automated_transactions?block_height=5`, log, headers);
      }
      expect(log.map((l) => l.status)).toEqual([410, 410, 410, 410, 410, 410]);
    } finally {
      await pruned.close();
    }
  });
});

describe('price responses conform (strict)', () => {
  it.each(['btc_usdt', 'eth_usdt', 'supra_usdt', 'eth_btc'])('%s: history at several intervals, latest', async (pair) => {
    const log: Checked[] = [];
    const now = price.stub.now();
    const key = { 'x-api-key': price.stub.apiKey };
    for (const [interval, span] of [
      [15, 3_600_000],
      [60, 86_400_000],
      [3600, 7 * 86_400_000],
      [86400, 40 * 86_400_000],
    ] as const) {
      const body = await conform<{ data: unknown[] }>(
        'getHistory',
        `${price.stub.url}/history?trading_pair=${pair}&startDate=${now - span}&endDate=${now}&interval=${interval}`,
        log,
        key,
      );
      expect(body.data.length).toBeGreaterThan(0);
    }
    await conform('getLatest', `${price.stub.url}/latest?trading_pair=${pair}`, log);
  });

  it('latest of every pair, and the documented error statuses', async () => {
    const log: Checked[] = [];
    await conform('getLatest', `${price.stub.url}/latest`, log);
    await conform('getLatest', `${price.stub.url}/latest?trading_pair=doge_usdt`, log);
    await conform('getHistory', `${price.stub.url}/history?trading_pair=btc_usdt`, log, { 'x-api-key': price.stub.apiKey });
    expect(log.map((l) => l.status)).toEqual([200, 404, 400]);
  });
});
