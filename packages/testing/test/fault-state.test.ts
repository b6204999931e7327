/**
 * The fault state stays bounded and can be reset from outside: the `x-stub-fault-times` counters keep at
 * most 10,000 keys (the oldest forgotten first), `DELETE /__stub/faults` forgets them on a running
 * `x-stub`, and a node that always fails is one flag (`x-stub --fault 503`) or one call
 * (`failNext('*', 503, Infinity)`).
 */
import { describe, expect, it } from 'vitest';
import { createNodeStubFetch, STUB_ACCOUNTS, StubArgumentError } from '../src/index.ts';
import { stubCommand, withStubCommand } from './helpers.ts';

const account = `/rpc/v2/accounts/${STUB_ACCOUNTS.alice}`;
const faulted = (key: string) => ({ 'x-stub-fault': '503', 'x-stub-fault-times': '1', 'x-stub-fault-key': key });

describe('x-stub-fault-times counters', () => {
  it('keep at most 10,000 keys: past them the oldest key is forgotten and counts from 0 again', async () => {
    const stub = createNodeStubFetch();
    const status = async (key: string, path = '/not-an-operation'): Promise<number> => (await stub(`${stub.url}${path}`, { headers: faulted(key) })).status;
    expect([await status('first', account), await status('first', account)]).toEqual([503, 200]);
    // 9,999 more keys: 10,000 in all, the first one still counted.
    for (let i = 1; i < 10_000; i++) expect(await status(`k${i}`)).toBe(503);
    expect(await status('first', account)).toBe(200);
    // One more key: the oldest ('first') is forgotten, so its fault applies again.
    expect(await status('one-too-many')).toBe(503);
    expect(await status('first', account)).toBe(503);
    // The newest keys are still counted.
    expect(await status('one-too-many', account)).toBe(200);
  });
});

describe('failNext for every operation', () => {
  it("'*' with times Infinity fails every operation until reset(), after the operation's own faults", async () => {
    const stub = createNodeStubFetch();
    stub.failNext('*', 503, Infinity);
    stub.failNext('getAccountV2', 429);
    const get = async (path: string) => {
      const r = await stub(`${stub.url}${path}`);
      return [r.status, r.headers.get('retry-after')];
    };
    expect(await get(account)).toEqual([429, '1']);
    for (let i = 0; i < 3; i++) expect(await get(account)).toEqual([503, '1']);
    expect(await get('/rpc/v3/block')).toEqual([503, '1']);
    stub.reset();
    expect(await get(account)).toEqual([200, null]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses times %s (StubArgumentError naming times)', (times) => {
    const err = (() => {
      try {
        createNodeStubFetch().failNext('*', 503, times);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(StubArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'times' });
  });

  it("names '*' when the operation is unknown", () => {
    expect(() => createNodeStubFetch().failNext('nope' as never, 503)).toThrow(/or '\*' for all/);
  });
});

describe('x-stub', () => {
  const forget = async (url: string): Promise<unknown> => (await fetch(`${url}/__stub/faults`, { method: 'DELETE' })).json();

  it('DELETE /__stub/faults forgets the counters and queued faults (not the request log), on both stubs', async () => {
    await withStubCommand([], async ({ nodeUrl, priceUrl }) => {
      const status = async (url: string, key: string) => (await fetch(url, { headers: faulted(key) })).status;
      expect([await status(`${nodeUrl}${account}`, 'a'), await status(`${nodeUrl}${account}`, 'a')]).toEqual([503, 200]);
      expect(await forget(nodeUrl)).toEqual({ counters: 1, queued: 0 });
      expect(await status(`${nodeUrl}${account}`, 'a')).toBe(503);
      expect(await forget(nodeUrl)).toEqual({ counters: 1, queued: 0 });
      expect(await forget(nodeUrl)).toEqual({ counters: 0, queued: 0 });
      expect(await status(`${priceUrl}/latest`, 'p')).toBe(503);
      expect(await forget(priceUrl)).toEqual({ counters: 1, queued: 0 });
      // The request log is left alone, and the control requests are not in it.
      expect(await (await fetch(`${nodeUrl}/__stub/requests`, { method: 'DELETE' })).json()).toEqual({ cleared: 3 });
      const wrong = await fetch(`${nodeUrl}/__stub/faults`);
      expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'DELETE']);
    });
  });

  it('--fault 503 makes a node that always fails (Retry-After: 1), until DELETE /__stub/faults; the price stub is untouched', async () => {
    await withStubCommand(['--fault', '503'], async ({ out, nodeUrl, priceUrl }) => {
      expect(out).toContain('every operation faulted: 503 (--fault)');
      for (const path of [account, `${account}/resources?count=2`, '/rpc/v3/block', '/rpc/v3/transactions/estimate_gas_price']) {
        const r = await fetch(`${nodeUrl}${path}`);
        expect([path, r.status, r.headers.get('retry-after'), ((await r.json()) as { error: string }).error]).toEqual([path, 503, '1', 'stub_fault']);
      }
      expect((await fetch(`${priceUrl}/latest`)).status).toBe(200);
      expect(await forget(nodeUrl)).toEqual({ counters: 0, queued: 1 });
      expect((await fetch(`${nodeUrl}${account}`)).status).toBe(200);
    });
  });

  it('--fault takes a fault kind too', async () => {
    await withStubCommand(['--fault', 'html'], async ({ nodeUrl }) => {
      const r = await fetch(`${nodeUrl}${account}`);
      expect([r.status, r.headers.get('content-type')]).toEqual([502, 'text/html; charset=utf-8']);
    });
  });

  it.each(['200', '307', 'down'])('refuses --fault %s, naming the flag', async (value) => {
    const { run, printed } = await stubCommand(['--node-port', '0', '--price-port', '0', '--fault', value]);
    expect(run).toBe(1);
    expect(printed.err).toContain(`--fault must be a 4xx/5xx status or one of slow, reset, truncated, html, not-json, got '${value}'`);
  });

  it('documents --fault and DELETE /__stub/faults in --help', async () => {
    const { printed } = await stubCommand(['--help']);
    expect(printed.out).toContain('--fault');
    expect(printed.out).toContain('DELETE /__stub/faults');
    expect(printed.out).toContain('at most 10000 x-stub-fault-times counters');
  });
});
