/**
 * The CORS hint of a NetworkError from a browser's fetch failure: `explain(err)` says that a CORS rejection
 * looks the same (the message stays short); for Node's own failure it does not.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, explain, NetworkError } from '@x/node-client';
import { createPriceClient } from '@x/price-client';

const HINT = /In a browser, a CORS rejection looks the same/;
const failing = (message: string) => () => Promise.reject(new TypeError(message));

describe('the CORS hint of a NetworkError', () => {
  it.each(['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed'])('is there for a browser\'s "%s"', async (message) => {
    const err = await createNodeClient({ baseUrl: 'http://127.0.0.1:9', retry: false, fetch: failing(message) }).v2.getAccount('0x1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain(message);
    expect((err as Error).message).not.toMatch(HINT);
    expect(explain(err)).toMatch(HINT);
    expect((err as Error).cause).toBeInstanceOf(TypeError);
  });

  it('is there for a keyed price request too (its fetch failures are rethrown as text-only copies)', async () => {
    const prices = createPriceClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k-123456', retry: false, fetch: failing('Failed to fetch') });
    const err = await prices.latest().catch((e: unknown) => e);
    expect(explain(err)).toMatch(HINT);
  });

  it("is not there for Node's own fetch failure", async () => {
    const err = await createNodeClient({ baseUrl: 'http://127.0.0.1:9', retry: false }).v2.getAccount('0x1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(explain(err)).not.toMatch(HINT);
  });
});
