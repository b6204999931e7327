/**
 * Error text a price service sends to make regular expressions backtrack is read in time linear in its
 * length, over a loopback server. A `perf` project file (`pnpm test:perf`): run alone, so no other test
 * file shares the CPU while it times; the error it ends in is hostile-service.test.ts's check.
 */
import { describe, expect, it } from 'vitest';
import { createPriceClient } from '@x/price-client';
import { KEY, startServer } from './helpers.ts';

describe('error text is read in linear time', () => {
  it('a 400 whose message is 100,000 letters costs about ten times one of 10,000, not a hundred', async () => {
    let size = 0;
    const service = await startServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'a'.repeat(size) })));
    try {
      const prices = createPriceClient({ baseUrl: service.url, apiKey: KEY, retry: false });
      const best = async (): Promise<number> => {
        let min = Infinity;
        for (let i = 0; i < 3; i++) {
          const t0 = performance.now();
          await prices.latest().catch(() => undefined);
          min = Math.min(min, performance.now() - t0);
        }
        return min;
      };
      size = 10_000;
      const small = await best();
      size = 100_000;
      const large = await best();
      expect(large / Math.max(small, 1)).toBeLessThan(30);
    } finally {
      await service.close();
    }
  });
});
