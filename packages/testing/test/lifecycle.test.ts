import { describe, expect, it } from 'vitest';
import { STUB_ACCOUNTS, startNodeStub, startPriceStub } from '../src/index.ts';
import { stubCommand, withStubCommand } from './helpers.ts';

describe('start and close', () => {
  it.each([
    ['node', () => startNodeStub({ port: 0, seed: 1 })],
    ['price', () => startPriceStub({ port: 0, seed: 1 })],
  ])('%s: url on 127.0.0.1, close ends open slow requests and idle keep-alive sockets', async (_name, start) => {
    const stub = await start();
    expect(stub.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    expect(stub.url).toBe(`http://127.0.0.1:${stub.port}`);
    await fetch(`${stub.url}/latest`).then((r) => r.text()); // leaves a pooled keep-alive socket
    const pending = [1, 2, 3].map(() =>
      fetch(`${stub.url}/rpc/v2/accounts/0x1`, { headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '600000' } }).then(
        (r) => r.text(),
      ),
    );
    while (stub.requests.length < 4) await new Promise((r) => setTimeout(r, 5));
    const settled = Promise.allSettled(pending);
    await stub.close();
    expect((await settled).map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    await stub.close(); // idempotent
    await expect(fetch(`${stub.url}/latest`)).rejects.toThrow();
  });

  it.each(['0.0.0.0', '192.168.1.10', 'example.com'])('refuses to listen on a non-loopback host (%s)', async (host) => {
    await expect(startNodeStub({ port: 0, host })).rejects.toThrow(/loopback/);
    await expect(startPriceStub({ port: 0, host })).rejects.toThrow(/loopback/);
  });

  it('rejects when the port is taken', async () => {
    const a = await startNodeStub({ port: 0 });
    try {
      await expect(startNodeStub({ port: a.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await a.close();
    }
  });
});

describe('cli', () => {
  it('starts both stubs, prints their URLs, stops on SIGTERM (in-process)', async () => {
    await withStubCommand(['--seed', '5'], async ({ out, nodeUrl, priceUrl }) => {
      expect(nodeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out).toContain(STUB_ACCOUNTS.busy);
      expect((await fetch(`${nodeUrl}/rpc/v2/accounts/0x1`)).status).toBe(200);
      expect((await fetch(`${priceUrl}/latest`)).status).toBe(200);
    });
  });

  it('rejects a bad flag', async () => {
    const { run, printed } = await stubCommand(['--node-port', 'abc']);
    expect(run).toBe(1);
    expect(printed.err).toContain('--node-port');
  });
});
