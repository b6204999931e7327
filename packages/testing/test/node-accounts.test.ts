import { describe, expect, it } from 'vitest';
import {
  STUB_ACCOUNTS,
  STUB_ACCOUNT_FACTS,
  canonicalAddress,
  startNodeStub,
  type ChainAccountName,
} from '../src/index.ts';
import { buildChain, chainFor } from '../src/node/chain.ts';
import { useNodeStub } from '@x-tools/test-helpers';
import { get, SEED } from './helpers.ts';

const ctx = useNodeStub(SEED);
const account = (v: string, address: string): string => `${ctx.stub.url}/rpc/${v}/accounts/${address}`;

describe('accounts', () => {
  it.each(Object.entries(STUB_ACCOUNT_FACTS))('%s: AccountData with its sequence number (v1 and v2 agree)', async (_name, facts) => {
    const v1 = await get<{ sequence_number: number; authentication_key: string }>(account('v1', facts.address));
    const v2 = await get<{ sequence_number: number; authentication_key: string }>(account('v2', facts.address));
    expect(v1.status).toBe(200);
    expect(v1.text).toBe(v2.text);
    expect(v1.body.sequence_number).toBe(facts.sent);
    expect(v1.body.authentication_key).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('the constants describe the chain: addresses canonical, counts as served by the model', () => {
    const chain = chainFor(SEED);
    for (const [name, facts] of Object.entries(STUB_ACCOUNT_FACTS) as Array<[ChainAccountName, (typeof STUB_ACCOUNT_FACTS)['busy']]>) {
      expect(canonicalAddress(facts.address)).toBe(facts.address);
      expect(chain.accounts[name].sent).toHaveLength(facts.sent);
      expect(chain.accounts[name].coin).toHaveLength(facts.coinTransactions);
    }
    expect(STUB_ACCOUNT_FACTS.busy.sent).toBe(2500);
    expect(STUB_ACCOUNT_FACTS.exactly100).toMatchObject({ sent: 100, coinTransactions: 100 });
    expect(STUB_ACCOUNT_FACTS.exactly101).toMatchObject({ sent: 101, coinTransactions: 101 });
    expect(STUB_ACCOUNT_FACTS.exactly200).toMatchObject({ sent: 200, coinTransactions: 200 });
    expect(STUB_ACCOUNT_FACTS.receiveOnly.sent).toBe(0);
    expect(STUB_ACCOUNT_FACTS.empty).toMatchObject({ sent: 0, coinTransactions: 0, modules: 0, resources: 0 });
    expect(chain.byAddress.has(STUB_ACCOUNTS.unknown)).toBe(false);
  });

  it.each([
    ['canonical short form', '0x1', '0x1'],
    ['without 0x', '1', '0x1'],
    ['zero-padded', `0x${'0'.repeat(63)}1`, '0x1'],
    ['zero-padded without 0x', `${'0'.repeat(63)}1`, '0x1'],
    ['leading zeros stripped', STUB_ACCOUNTS.exactly101.replace(/^0x0+/, '0x'), STUB_ACCOUNTS.exactly101],
    ['leading zeros stripped, no 0x', STUB_ACCOUNTS.exactly101.replace(/^0x0+/, ''), STUB_ACCOUNTS.exactly101],
    ['upper case', STUB_ACCOUNTS.busy.toUpperCase().replace('0X', '0x'), STUB_ACCOUNTS.busy],
    ['upper case without 0x', STUB_ACCOUNTS.busy.slice(2).toUpperCase(), STUB_ACCOUNTS.busy],
  ])('accepts the address %s', async (_label, input, canonical) => {
    const a = await get(account('v2', input));
    const b = await get(account('v2', canonical));
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
    const txs = await get<{ record: Array<{ header: { sender: string } }> }>(`${account('v1', input)}/transactions?count=1`);
    if (txs.body.record.length > 0) expect(txs.body.record[0]?.header.sender).toBe(canonical);
  });

  it.each([
    ['not hex', 'xyz'],
    ['65 hex digits', `0x${'a'.repeat(65)}`],
    ['empty after 0x', '0x'],
    ['0X prefix', '0X1'],
    ['embedded space', '0x1%201'],
  ])('answers 400 for a malformed address (%s) on every operation', async (_label, bad) => {
    for (const v of ['v1', 'v2']) {
      for (const suffix of ['', '/transactions', '/coin_transactions', '/modules', '/modules/coin', '/resources', '/resources/0x1::account::Account']) {
        const r = await get<{ error: string }>(`${account(v, bad)}${suffix}`);
        expect(r.status, `${v}${suffix}`).toBe(400);
        expect(r.body.error).toBe('invalid_address');
      }
    }
  });
});

describe('an account that is not on the chain', () => {
  const unknown = STUB_ACCOUNTS.unknown;
  it.each([
    ['', 'null'],
    ['/transactions', '{"record":[]}'],
    ['/transactions?start=0', '{"record":[]}'],
    ['/coin_transactions', '{"record":[],"cursor":0}'],
    ['/coin_transactions?start=77', '{"record":[],"cursor":77}'],
    ['/modules', '{"Modules":{"modules":[],"cursor":null}}'],
    ['/modules/coin', 'null'],
    ['/resources', '{"Resources":{"resource":[],"cursor":null}}'],
    ['/resources/0x1::account::Account', 'null'],
  ])('v1%s answers 200 %s', async (suffix, body) => {
    const r = await get(`${account('v1', unknown)}${suffix}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.text).toBe(body);
  });

  it.each(['', '/transactions', '/coin_transactions', '/modules', '/modules/coin', '/resources', '/resources/0x1::account::Account'])(
    'v2%s answers 404 account_not_found',
    async (suffix) => {
      const r = await get<{ error: string; message: string }>(`${account('v2', unknown)}${suffix}`);
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('account_not_found');
      expect(r.body.message).toContain(unknown);
    },
  );
});

describe('paths and methods', () => {
  it.each([
    '/',
    '/rpc',
    '/rpc/v4/accounts/0x1',
    '/rpc/v3/account/0x1',
    '/rpc/v2/account/0x1',
    '/rpc/v2/accounts/0x1/',
    '/rpc/v2/accounts/0x1/events',
    '/rpc/v2/accounts/0x1/transactions/5',
    '/rpc/v2/accounts/0x1/modules/coin/extra',
    '/rpc/v2/accounts/0x1/modules/',
  ])('%s is a 404 with a JSON body', async (path) => {
    const r = await get<{ error: string }>(`${ctx.stub.url}${path}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
  });

  it('a non-GET method is a 405 with Allow: GET', async () => {
    const r = await fetch(`${ctx.stub.url}/rpc/v2/accounts/0x1`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
    expect(await r.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('unknown query parameters are ignored', async () => {
    const a = await get(`${account('v2', STUB_ACCOUNTS.busy)}/transactions?count=3&cache_buster=123`);
    const b = await get(`${account('v2', STUB_ACCOUNTS.busy)}/transactions?count=3`);
    expect(a.text).toBe(b.text);
  });
});

describe('determinism', () => {
  const paths = [
    `/rpc/v1/accounts/${STUB_ACCOUNTS.busy}/coin_transactions?count=100&start=0`,
    `/rpc/v2/accounts/${STUB_ACCOUNTS.busy}/transactions?count=100`,
    `/rpc/v2/accounts/${STUB_ACCOUNTS.publisher}/modules?count=45`,
    `/rpc/v2/accounts/${STUB_ACCOUNTS.publisher}/resources?count=50`,
    `/rpc/v1/accounts/${STUB_ACCOUNTS.publisher}/resources/${STUB_ACCOUNTS.publisher}::showcase::AllKinds`,
    `/rpc/v1/accounts/0x1/transactions?start=0&count=40`,
  ];

  it('the same seed serves byte-identical bodies; another seed differs', async () => {
    const same = await startNodeStub({ port: 0, seed: SEED });
    const other = await startNodeStub({ port: 0, seed: SEED + 1 });
    try {
      for (const p of paths) {
        const a = await get(`${ctx.stub.url}${p}`);
        const b = await get(`${same.url}${p}`);
        const c = await get(`${other.url}${p}`);
        expect(b.text).toBe(a.text);
        expect(c.status).toBe(200);
        expect(c.text).not.toBe(a.text);
      }
    } finally {
      await Promise.all([same.close(), other.close()]);
    }
  });

  it('building the chain twice from one seed gives the same model', () => {
    expect(JSON.stringify(buildChain(99))).toBe(JSON.stringify(buildChain(99)));
    expect(JSON.stringify(buildChain(99))).not.toBe(JSON.stringify(buildChain(100)));
  });

  it('a string seed works and is stable', async () => {
    const a = await startNodeStub({ port: 0, seed: 'demo' });
    const b = await startNodeStub({ port: 0, seed: 'demo' });
    try {
      expect(a.seed).toBe(b.seed);
      const p = paths[0] as string;
      expect((await get(`${a.url}${p}`)).text).toBe((await get(`${b.url}${p}`)).text);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
