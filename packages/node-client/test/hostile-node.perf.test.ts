/**
 * Error text a node sends to make regular expressions backtrack is read in time linear in its length,
 * over a loopback server: each body at 10,000 and at 100,000 characters, ten times the text may cost
 * about ten times the time (plus the request), never a hundred (quadratic: 8.5 s at 100,000 letters
 * before). A `perf` project file (`pnpm test:perf`): run alone, so no other test file shares the CPU
 * while it times; what the client answers with is hostile-node.test.ts's check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { HOSTILE_ERROR_TEXTS } from './hostile-error-text.ts';
import { json, startBadServer, type BadServer } from './helpers.ts';

const servers: BadServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The best of three durations of `run`. */
async function best(run: () => Promise<unknown>): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await run().catch(() => undefined);
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

describe('text from a node is read in linear time', () => {
  it.each(HOSTILE_ERROR_TEXTS)('%s', async (_name, status, body) => {
    let size = 0;
    const server = await startBadServer((_url, res) => json(res, body(size), status));
    servers.push(server);
    const node = createNodeClient({ baseUrl: server.url, retry: false });
    const call = (): Promise<unknown> => node.v2.getAccount('0x1');
    size = 10_000;
    const small = await best(call);
    size = 100_000;
    const large = await best(call);
    expect(large / Math.max(small, 1)).toBeLessThan(30);
  });
});
