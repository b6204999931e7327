/**
 * What a client sends cannot make the stubs fail with a 500: 100,000 adversarial characters in each
 * place a request reaches the stub (path, query, fault headers, POST bodies) are answered with a 4xx.
 * That they are answered in time linear in their length is adversarial-input.perf.test.ts's check (the
 * `perf` project: timings want the CPU to themselves).
 *
 * The in-memory fetch carries them: it runs the same engine and routers as the loopback server, whose
 * `node:http` refuses a request head over 16 KiB (431) before the stub sees it. Where the loopback
 * server still shows a fault, it is tested over loopback too.
 */
import { describe, expect, it } from 'vitest';
import { startNodeStub } from '../src/index.ts';
import { A, CASES, LONG, node, send } from './adversarial-requests.ts';

describe('100,000 adversarial characters: a 4xx', () => {
  it.each(CASES)('$name', async ({ stub, make, status, error }) => {
    const res = await send(stub, make(LONG));
    expect(res.status).toBe(status);
    if (error !== undefined) expect(await res.json()).toMatchObject({ error });
  });

  it('a start of 10 MB of hex is a 400 (a regular expression with a repeated group overflowed V8 on it: a 500)', async () => {
    const res = await node(`${node.url}/rpc/v2/accounts/${A}/modules?start=${'ab'.repeat(5_000_000)}a`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_start' });
  });
});

describe('over loopback', () => {
  it('a redirect fault whose Location would outgrow what a client reads is a 400, not megabytes of header', async () => {
    const stub = await startNodeStub();
    try {
      // 1,000 {url} of a 7 KB path and query: a 7 MB Location, which undici refuses (HeadersOverflowError).
      const res = await fetch(`${stub.url}/rpc/v2/accounts/${A}?${'a'.repeat(7_000)}`, {
        redirect: 'manual',
        headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}'.repeat(1_000) },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'bad_fault_request', message: expect.stringContaining('16384') });
      // One {url} of the same request is still expanded.
      const one = await fetch(`${stub.url}/rpc/v2/accounts/${A}?${'a'.repeat(7_000)}`, {
        redirect: 'manual',
        headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}&moved=1' },
      });
      expect(one.status).toBe(307);
      expect(one.headers.get('location')).toBe(`/rpc/v2/accounts/${A}?${'a'.repeat(7_000)}&moved=1`);
    } finally {
      await stub.close();
    }
  });

  it('a resource type nested as deep as a request head allows is a 400', async () => {
    const stub = await startNodeStub();
    try {
      // 900 levels: with `<` and `>` percent-encoded by fetch, near the 16 KiB a request head may have.
      const res = await fetch(`${stub.url}/rpc/v2/accounts/${A}/resources/${'0x1::m::S<'.repeat(900)}u8${'>'.repeat(900)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_resource_type' });
    } finally {
      await stub.close();
    }
  });
});
