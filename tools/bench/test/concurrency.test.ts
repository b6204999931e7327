import { createNodeClient } from '@x/node-client';
import { describe, expect, it } from 'vitest';
import { idealRoundTrips, maxConcurrentRequests, SLOW, SLOW_ACCOUNT, startSlowServer, walkRequests } from '../src/concurrency.ts';

describe('the concurrent walk benchmark', () => {
  it('counts the requests and round trips of the walks it measures', () => {
    const { transactions, page, concurrency } = SLOW;
    expect(walkRequests(transactions, page)).toBe(31); // 30 full pages, then the empty page at 3,000
    expect(idealRoundTrips(transactions, page, concurrency)).toBe(4);
    expect(maxConcurrentRequests(transactions, page, concurrency)).toBe(38);
    expect(walkRequests(3_050, 100)).toBe(31); // the 31st page is short instead
    expect(idealRoundTrips(3_200, 100, 8)).toBe(5); // 33 requests
  });

  it('serves the account, and the walks send the counted requests', async () => {
    const server = await startSlowServer({ address: SLOW_ACCOUNT, transactions: SLOW.transactions, delayMs: 2 });
    try {
      let sent = 0;
      const node = createNodeClient({
        baseUrl: server.url,
        fetch: (request) => {
          sent++;
          return fetch(request);
        },
      });
      for (const [concurrency, requests] of [
        [1, 31],
        [8, 38],
      ] as const) {
        const before = sent;
        const seen: number[] = [];
        for await (const tx of node.v2.transactions(SLOW_ACCOUNT, { start: 0, concurrency })) seen.push(Number(tx.header.sequence_number));
        expect(seen).toEqual(Array.from({ length: SLOW.transactions }, (_, i) => i));
        expect(sent - before).toBe(requests);
      }
      const other = await fetch(`${server.url}/rpc/v2/accounts/0x1/transactions?start=0&count=100`);
      expect(other.status).toBe(404);
      const tooMany = await fetch(`${server.url}/rpc/v2/accounts/${SLOW_ACCOUNT}/transactions?start=0&count=101`);
      expect(tooMany.status).toBe(400);
    } finally {
      await server.close();
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
