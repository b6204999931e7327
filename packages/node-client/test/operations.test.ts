import { describe, expect, it } from 'vitest';
import { routes } from '@x/common';
import { createNodeClient, HttpError, InvalidArgumentError, isNotFound, NetworkError, ResponseValidationError, type NodeClient } from '@x/node-client';
import { createResponseValidator } from '@x/validators';
import { STUB_ACCOUNTS, STUB_ACCOUNT_FACTS, PUBLISHER_MODULES } from '@x/testing';
import { rejectionOf, useNodeStub } from '@x-tools/test-helpers';
import { json, queryOf, startBadServer } from './helpers.ts';

const ctx = useNodeStub();
const { alice, publisher, framework, unknown } = STUB_ACCOUNTS;
const COIN_STORE = '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>';
const VAULT = `${publisher}::vault::Vault<vector<vector<0x1::coin::Coin<0x1::supra_coin::SupraCoin>>>>`;

/** Every body checked against the spec in the strict profile, so a wrong shape fails the test. */
const client = (): NodeClient =>
  createNodeClient({ baseUrl: ctx.stub.url, retry: false, validator: createResponseValidator({ strict: true }) });

type Case = {
  op: string;
  call: (node: NodeClient) => Promise<unknown>;
  path: string;
  check: (body: never) => void;
};

// Every operation of the node spec (the route table: v1 and v2), each against the stub, validated strictly.
const cases: Case[] = [
  {
    op: 'getAccountV1',
    call: (n) => n.v1.getAccount(alice),
    path: `/rpc/v1/accounts/${alice}`,
    check: (b: { sequence_number: number }) => expect(b.sequence_number).toBe(STUB_ACCOUNT_FACTS.alice.sent),
  },
  {
    op: 'getAccountV2',
    call: (n) => n.v2.getAccount(alice),
    path: `/rpc/v2/accounts/${alice}`,
    check: (b: { sequence_number: number; authentication_key: string }) => {
      expect(b.sequence_number).toBe(STUB_ACCOUNT_FACTS.alice.sent);
      expect(b.authentication_key).toMatch(/^0x[0-9a-f]{64}$/);
    },
  },
  {
    op: 'listTransactionsV1',
    call: (n) => n.v1.listTransactions(alice, { count: 5, start: 10 }),
    path: `/rpc/v1/accounts/${alice}/transactions?count=5&start=10`,
    check: (b: { record: { header: { sequence_number: number }; block_header: { height: number } }[] }) => {
      expect(b.record.map((t) => t.header.sequence_number)).toEqual([10, 11, 12, 13, 14]);
      expect(Object.keys(b.record[0]!.block_header).sort()).toEqual(['hash', 'height', 'timestamp']);
    },
  },
  {
    op: 'listTransactionsV2',
    call: (n) => n.v2.listTransactions(alice, { count: 3 }),
    path: `/rpc/v2/accounts/${alice}/transactions?count=3`,
    // Without start: the most recent, descending.
    check: (b: { record: { header: { sequence_number: number }; block_header: { view: unknown } }[] }) => {
      expect(b.record.map((t) => t.header.sequence_number)).toEqual([149, 148, 147]);
      expect(b.record[0]!.block_header.view).toBeDefined();
    },
  },
  {
    op: 'listCoinTransactionsV1',
    call: (n) => n.v1.listCoinTransactions(alice, { count: 4, start: 0 }),
    path: `/rpc/v1/accounts/${alice}/coin_transactions?count=4&start=0`,
    check: (b: { record: unknown[]; cursor: number }) => {
      expect(b.record).toHaveLength(4);
      expect(b.cursor).toBeGreaterThan(0);
    },
  },
  {
    op: 'listCoinTransactionsV2',
    call: (n) => n.v2.listCoinTransactions(alice, { count: 4, start: 0n }),
    path: `/rpc/v2/accounts/${alice}/coin_transactions?count=4&start=0`,
    check: (b: { record: unknown[]; cursor: number }) => {
      expect(b.record).toHaveLength(4);
      expect(b.cursor).toBeGreaterThan(0);
    },
  },
  {
    op: 'listModulesV1',
    call: (n) => n.v1.listModules(publisher, { count: 3 }),
    path: `/rpc/v1/accounts/${publisher}/modules?count=3`,
    check: (b: { Modules: { modules: [string, { name: string }][]; cursor: number[] } }) => {
      expect(b.Modules.modules.map(([, id]) => id.name)).toEqual([...PUBLISHER_MODULES].sort().slice(0, 3));
      expect(b.Modules.cursor.every((x) => x >= 0 && x <= 255)).toBe(true);
    },
  },
  {
    op: 'listModulesV2',
    call: (n) => n.v2.listModules(publisher, { count: 3 }),
    path: `/rpc/v2/accounts/${publisher}/modules?count=3`,
    check: (b: { modules: { bytecode: string }[]; cursor: string }) => {
      expect(b.modules).toHaveLength(3);
      expect(b.modules[0]!.bytecode).toMatch(/^0xa11ceb0b/);
      expect(b.cursor).toMatch(/^[0-9a-f]+$/);
    },
  },
  {
    op: 'getModuleV1',
    call: (n) => n.v1.getModule(framework, 'coin'),
    path: `/rpc/v1/accounts/0x1/modules/coin`,
    check: (b: { address: string; name: unknown }) => {
      expect(b.address).toBe('0x1');
      expect(b.name).toEqual({ identifier: 'coin' });
    },
  },
  {
    op: 'getModuleV2',
    call: (n) => n.v2.getModule(framework, 'coin'),
    path: `/rpc/v2/accounts/0x1/modules/coin`,
    check: (b: { abi: { name: unknown } }) => expect(b.abi.name).toEqual({ identifier: 'coin' }),
  },
  {
    op: 'listResourcesV1',
    call: (n) => n.v1.listResources(alice, { count: 10 }),
    path: `/rpc/v1/accounts/${alice}/resources?count=10`,
    check: (b: { Resources: { resource: [string, { name: string }][]; cursor: null } }) => {
      expect(b.Resources.resource).toHaveLength(STUB_ACCOUNT_FACTS.alice.resources);
      expect(b.Resources.cursor).toBeNull();
    },
  },
  {
    op: 'listResourcesV2',
    call: (n) => n.v2.listResources(alice, { count: 10 }),
    path: `/rpc/v2/accounts/${alice}/resources?count=10`,
    check: (b: { resources: { type: string }[] }) => expect(b.resources.map((r) => r.type)).toContain(COIN_STORE),
  },
  {
    op: 'getResourceV1',
    call: (n) => n.v1.getResource(alice, COIN_STORE),
    path: `/rpc/v1/accounts/${alice}/resources/${encodeURIComponent(COIN_STORE)}`,
    check: (b: { result: unknown[] }) => expect(b.result.length).toBeGreaterThan(0),
  },
  {
    op: 'getResourceV2',
    call: (n) => n.v2.getResource(alice, COIN_STORE),
    path: `/rpc/v2/accounts/${alice}/resources/${encodeURIComponent(COIN_STORE)}`,
    check: (b: { type: string; data: Record<string, unknown> }) => {
      expect(b.type).toBe(COIN_STORE);
      expect(b.data).toHaveProperty('coin');
    },
  },
];

describe('every operation of v1 and v2 against the stub', () => {
  const ids = routes.filter((r) => r.service === 'node-rpc').map((r) => r.operationId);
  it('each case is an operation of the route table, once', () => {
    const ops = cases.map((c) => c.op);
    expect(new Set(ops).size).toBe(ops.length);
    expect(ops.filter((op) => !ids.includes(op as (typeof ids)[number]))).toEqual([]);
  });
  // An operation added to the spec shows here as a todo until a case checks its body.
  for (const id of ids.filter((op) => !cases.some((c) => c.op === op))) it.todo(`${id} has a case of its own`);

  it.each(cases)('$op returns the typed body and sends $path', async ({ call, path, check }) => {
    const body = await call(client());
    check(body as never);
    expect(ctx.stub.requests.map((r) => [r.method, r.url])).toEqual([['GET', path]]);
  });
});

describe('list operations without options', () => {
  it.each([
    ['v1.listTransactions', (n: NodeClient) => n.v1.listTransactions(alice), `/rpc/v1/accounts/${alice}/transactions`],
    ['v2.listTransactions', (n: NodeClient) => n.v2.listTransactions(alice), `/rpc/v2/accounts/${alice}/transactions`],
    ['v1.listCoinTransactions', (n: NodeClient) => n.v1.listCoinTransactions(alice), `/rpc/v1/accounts/${alice}/coin_transactions`],
    ['v2.listCoinTransactions', (n: NodeClient) => n.v2.listCoinTransactions(alice), `/rpc/v2/accounts/${alice}/coin_transactions`],
    ['v1.listModules', (n: NodeClient) => n.v1.listModules(publisher), `/rpc/v1/accounts/${publisher}/modules`],
    ['v2.listModules', (n: NodeClient) => n.v2.listModules(publisher), `/rpc/v2/accounts/${publisher}/modules`],
    ['v1.listResources', (n: NodeClient) => n.v1.listResources(alice), `/rpc/v1/accounts/${alice}/resources`],
    ['v2.listResources', (n: NodeClient) => n.v2.listResources(alice), `/rpc/v2/accounts/${alice}/resources`],
  ])('%s sends no query and returns the first page', async (_name, call, path) => {
    expect(await call(client())).toBeTypeOf('object');
    expect(ctx.stub.requests.map((r) => [r.method, r.url])).toEqual([['GET', path]]);
  });
});

describe('v1 nulls and v2 errors', () => {
  it.each([
    ['getAccount', (n: NodeClient) => n.v1.getAccount(unknown)],
    ['getModule', (n: NodeClient) => n.v1.getModule(framework, 'no_such_module')],
    ['getResource', (n: NodeClient) => n.v1.getResource(alice, '0x1::nothing::Here')],
  ])('v1 %s answers null', async (_name, call) => {
    await expect(call(client())).resolves.toBeNull();
  });

  it.each([
    ['getAccount', (n: NodeClient) => n.v2.getAccount(unknown), 'account_not_found'],
    ['getModule', (n: NodeClient) => n.v2.getModule(framework, 'no_such_module'), 'module_not_found'],
    ['getResource', (n: NodeClient) => n.v2.getResource(alice, '0x1::nothing::Here'), 'resource_not_found'],
    ['listTransactions', (n: NodeClient) => n.v2.listTransactions(unknown), 'account_not_found'],
  ])('v2 %s of something missing is an HttpError 404 with the parsed body', async (_name, call, error) => {
    const err = await rejectionOf(call(client()));
    expect(err).toBeInstanceOf(HttpError);
    expect(isNotFound(err)).toBe(true);
    expect((err as HttpError).body).toMatchObject({ error });
    expect(ctx.stub.requests).toHaveLength(1); // a 404 is never retried
  });
});

describe('addresses and path values on the wire', () => {
  it.each([
    ['1', '/rpc/v2/accounts/0x1'],
    ['0x01', '/rpc/v2/accounts/0x1'],
    ['0x0001', '/rpc/v2/accounts/0x1'],
    ['0x' + '0'.repeat(63) + 'F', '/rpc/v2/accounts/0xf'],
    ['ABC', `/rpc/v2/accounts/0x${'abc'.padStart(64, '0')}`],
    ['0xAbC', `/rpc/v2/accounts/0x${'abc'.padStart(64, '0')}`],
    ['0x10', `/rpc/v2/accounts/0x${'10'.padStart(64, '0')}`],
    [STUB_ACCOUNTS.exactly101.slice(2).toUpperCase(), `/rpc/v2/accounts/${STUB_ACCOUNTS.exactly101}`],
  ])('address %s is sent normalized as %s', async (input, path) => {
    await createNodeClient({ baseUrl: ctx.stub.url, retry: false })
      .v2.getAccount(input)
      .catch(() => undefined); // 0xabc is not on the chain; only the request matters here
    expect(ctx.stub.requests.map((r) => r.url)).toEqual([path]);
  });

  it('sends a resource type with <, > and : so that the server reads it intact', async () => {
    const node = client();
    const resource = await node.v2.getResource(publisher.toUpperCase().replace('0X', ''), VAULT);
    expect(resource.type).toBe(VAULT);
    expect(ctx.stub.requests[0]!.url).toBe(`/rpc/v2/accounts/${publisher}/resources/${encodeURIComponent(VAULT)}`);
  });

  it('sends a string cursor as one query value: it cannot add or change parameters', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, retry: false });
    const err = await rejectionOf(node.v2.listModules(publisher, { count: 2, start: 'ab&count=99#x/../y?z' }));
    expect(err).toBeInstanceOf(HttpError); // the stub rejects the cursor: it is not hex
    const url = ctx.stub.requests[0]!.url;
    expect(url.startsWith(`/rpc/v2/accounts/${publisher}/modules?`)).toBe(true);
    expect(queryOf(url, 'start')).toBe('ab&count=99#x/../y?z');
    expect(queryOf(url, 'count')).toBe('2');
  });

  it('sends a u64 start beyond 2^53 exactly', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, retry: false });
    const page = await node.v2.listCoinTransactions(alice, { start: 18446744073709551615n, count: 1 });
    expect(page.record).toEqual([]);
    expect(queryOf(ctx.stub.requests[0]!.url, 'start')).toBe('18446744073709551615');
  });

  it('passes a v1 cursor array back as lowercase hex', async () => {
    const node = client();
    const first = await node.v1.listModules(publisher, { count: 2 });
    const cursor = 'Modules' in first ? first.Modules.cursor : undefined;
    if (!Array.isArray(cursor)) throw new Error('the documented stub sends byte-array cursors');
    const second = await node.v1.listModules(publisher, { count: 2, start: cursor });
    const hex = cursor.map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(queryOf(ctx.stub.requests[1]!.url, 'start')).toBe(hex);
    expect('Modules' in second && second.Modules.modules.map(([, m]) => m.name)).toEqual([...PUBLISHER_MODULES].sort().slice(2, 4));
  });
});

describe('options and the fetch option', () => {
  it('sends the configured headers with every request', async () => {
    const node = createNodeClient({ baseUrl: `${ctx.stub.url}/`, headers: { 'x-trace-id': 'abc' } });
    await node.v2.getAccount('0x1');
    expect(ctx.stub.requests[0]!.headers['x-trace-id']).toBe('abc');
    expect(ctx.stub.requests[0]!.url).toBe('/rpc/v2/accounts/0x1'); // trailing slash of baseUrl dropped
  });

  it('calls a custom fetch with one Request for every operation: it sees and may alter what is sent', async () => {
    const seen: string[] = [];
    const node = createNodeClient({
      baseUrl: ctx.stub.url,
      fetch: async (request) => {
        request.headers.set('x-from-fetch', '1');
        seen.push(`request ${new URL(request.url).pathname}`);
        const response = await fetch(request);
        seen.push(`response ${response.status}`);
        return response;
      },
    });
    await node.v2.getAccount('0x1');
    await node.v1.listModules(publisher, { count: 1 });
    expect(seen).toEqual(['request /rpc/v2/accounts/0x1', 'response 200', `request /rpc/v1/accounts/${publisher}/modules`, 'response 200']);
    expect(ctx.stub.requests.map((r) => r.headers['x-from-fetch'])).toEqual(['1', '1']);
  });

  it("lets a custom fetch see the fetch error itself, which is the NetworkError's cause", async () => {
    const errors: unknown[] = [];
    const node = createNodeClient({
      baseUrl: ctx.stub.url,
      retry: false,
      headers: { 'x-stub-fault': 'reset' },
      fetch: (request) => fetch(request).catch((error: unknown) => Promise.reject((errors.push(error), error))),
    });
    const err = await rejectionOf(node.v2.getAccount('0x1'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError); // undici's "fetch failed"
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).cause).toBe(errors[0]);
  });

  it("passes a custom fetch's own ClientError on unchanged; its other errors are NetworkErrors", async () => {
    const refused = new InvalidArgumentError('address', 'refused by policy');
    const node = createNodeClient({ baseUrl: ctx.stub.url, retry: false, fetch: async () => Promise.reject(refused) });
    await expect(node.v2.getAccount('0x1')).rejects.toBe(refused);
    const mine = new Error('refused by policy');
    const err = await rejectionOf(createNodeClient({ baseUrl: ctx.stub.url, retry: false, fetch: () => Promise.reject(mine) }).v2.getAccount('0x1'));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).cause).toBe(mine);
    expect(ctx.stub.requests).toHaveLength(0);
  });
});

describe('runtime validation (opt-in)', () => {
  it.each([
    ['lenient', false],
    ['strict', true],
  ])('the %s validator passes conforming bodies', async (_name, strict) => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, validator: createResponseValidator({ strict }) });
    await expect(node.v2.getAccount(alice)).resolves.toMatchObject({ sequence_number: 150 });
    await expect(node.v1.getAccount(unknown)).resolves.toBeNull();
  });

  it.each([
    // body, strict, valid?, path of the first issue
    [{ sequence_number: 1, authentication_key: '0x01', extra: true }, false, true, undefined],
    [{ sequence_number: 1, authentication_key: '0x01', extra: true }, true, false, '/extra'],
    [{ sequence_number: '1', authentication_key: '0x01' }, false, false, '/sequence_number'],
    [{ sequence_number: 1 }, false, false, '/authentication_key'],
    [null, false, false, ''],
  ])('%j with strict=%s: valid %s', async (body, strict, valid, path) => {
    const bad = await startBadServer((_url, res) => json(res, body));
    try {
      const node = createNodeClient({ baseUrl: bad.url, validator: createResponseValidator({ strict }) });
      const result = node.v2.getAccount('0x1');
      if (valid) {
        await expect(result).resolves.toEqual(body);
        return;
      }
      const err = await rejectionOf(result);
      expect(err).toBeInstanceOf(ResponseValidationError);
      const { issues, code, operationId } = err as ResponseValidationError;
      expect(code).toBe('RESPONSE_VALIDATION_ERROR');
      expect(operationId).toBe('getAccountV2');
      expect(issues.length).toBeGreaterThan(0);
      expect(issues.map((i) => i.path)).toContain(path);
    } finally {
      await bad.close();
    }
  });

  it('without a validator the body is returned as it came', async () => {
    const bad = await startBadServer((_url, res) => json(res, { whatever: 1 }));
    try {
      await expect(createNodeClient({ baseUrl: bad.url }).v2.getAccount('0x1')).resolves.toEqual({ whatever: 1 });
    } finally {
      await bad.close();
    }
  });
});
