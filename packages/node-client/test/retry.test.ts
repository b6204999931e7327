import { beforeEach, describe, expect, it } from 'vitest';
import { createNodeClient, HttpError, NetworkError, ResponseParseError, type NodeClient, type RetryOptions } from '@x/node-client';
import { rejectionOf, useFakeTime, useNodeStub } from '@x-tools/test-helpers';
import { recordingClock } from './helpers.ts';

const ctx = useNodeStub();
/**
 * The retries wait on a recording clock, and the attempts' timeouts (timeoutMs 100, for the `slow`
 * fault) run on fake time: on the wall clock a loaded machine would time out ordinary answers too (an
 * extra attempt, an extra delay); here only a test that moves time on (the `slow` one) times out.
 */
const time = useFakeTime();
beforeEach(() => {
  time.start();
});

/**
 * A client whose requests carry the stub's fault headers and whose retries wait on a recording clock
 * (random 0.5: a full-jitter delay is half its ceiling of 250 ms, 500 ms, ...).
 */
function setup(headers: Record<string, string>, retry: RetryOptions = {}, random = 0.5): { node: NodeClient; delays: number[] } {
  const clock = recordingClock({ random });
  const node = createNodeClient({
    baseUrl: ctx.stub.url,
    timeoutMs: 100,
    headers: { 'x-stub-delay-ms': '300', ...headers },
    retry: { sleep: clock.sleep, random: clock.random, now: clock.now, ...retry },
  });
  return { node, delays: clock.delays };
}

describe('retried: network errors, timeouts, 429, 502, 503, 504', () => {
  it.each([
    // fault, delays before the 2nd and 3rd attempt
    ['429', [1000, 1000]], // the stub's Retry-After: 1
    ['503', [1000, 1000]],
    ['502', [125, 250]], // exponential with full jitter: random 0.5 of 250, 500
    ['504', [125, 250]],
    ['html', [125, 250]], // a 502 with an HTML body
    ['reset', [125, 250]], // network error
    ['slow', [125, 250]], // timeout of the attempt
  ])('%s twice, then the answer: 3 attempts, delays %j', async (fault, delays) => {
    const { node, delays: seen } = setup({ 'x-stub-fault': fault, 'x-stub-fault-times': '2' });
    const call = node.v2.getAccount('0x1');
    if (fault === 'slow') {
      // Each slow attempt times out (timeoutMs 100) once it has reached the stub, which would answer at 300 ms.
      for (const nth of [1, 2]) {
        await time.waitFor(() => ctx.stub.requests.length === nth, `attempt ${nth}`);
        await time.advance(100);
      }
    }
    await expect(time.settles(call, 'the answer')).resolves.toMatchObject({ sequence_number: 40 });
    expect(ctx.stub.requests).toHaveLength(3);
    expect(seen).toEqual(delays);
  });

  it('gives up after 3 attempts in all by default, with the last error', async () => {
    const { node, delays } = setup({ 'x-stub-fault': '503' });
    const err = await rejectionOf(node.v2.getAccount('0x1'));
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(503);
    expect(ctx.stub.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('retries a network error up to the last attempt', async () => {
    const { node } = setup({ 'x-stub-fault': 'reset' }, { attempts: 4 });
    expect(await rejectionOf(node.v2.getAccount('0x1'))).toBeInstanceOf(NetworkError);
    expect(ctx.stub.requests).toHaveLength(4);
  });
});

describe('never retried', () => {
  it.each(['400', '401', '403', '404', '405', '409', '410', '422', '500', '501'])('HTTP %s', async (status) => {
    const { node, delays } = setup({ 'x-stub-fault': status });
    const err = await rejectionOf(node.v2.getAccount('0x1'));
    expect((err as HttpError).status).toBe(Number(status));
    expect(ctx.stub.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each(['not-json', 'truncated'])('a %s body (the answer came; asking again would not fix it)', async (fault) => {
    const { node } = setup({ 'x-stub-fault': fault });
    expect(await rejectionOf(node.v2.getAccount('0x1'))).toBeInstanceOf(ResponseParseError);
    expect(ctx.stub.requests).toHaveLength(1);
  });

  it('anything with retry: false', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, retry: false, headers: { 'x-stub-fault': '503' } });
    expect(((await rejectionOf(node.v2.getAccount('0x1'))) as HttpError).status).toBe(503);
    expect(ctx.stub.requests).toHaveLength(1);
  });

  it('anything with attempts: 1', async () => {
    const { node } = setup({ 'x-stub-fault': 'reset' }, { attempts: 1 });
    expect(await rejectionOf(node.v2.getAccount('0x1'))).toBeInstanceOf(NetworkError);
    expect(ctx.stub.requests).toHaveLength(1);
  });
});

describe('backoff', () => {
  it('doubles up to maxDelayMs, with full jitter', async () => {
    const { node, delays } = setup({ 'x-stub-fault': '502' }, { attempts: 6, baseDelayMs: 100, maxDelayMs: 500 }, 0.999);
    await rejectionOf(node.v2.getAccount('0x1'));
    expect(delays).toEqual([99, 199, 399, 499, 499]);
    expect(ctx.stub.requests).toHaveLength(6);
  });

  it('jitter can be zero', async () => {
    const { node, delays } = setup({ 'x-stub-fault': '504', 'x-stub-fault-times': '2' }, {}, 0);
    await node.v2.getAccount('0x1');
    expect(delays).toEqual([0, 0]);
  });

  it.each([
    // Retry-After value, the delay waited (the clock starts at a whole second)
    ['2', 2000],
    ['0', 0],
    [new Date(Date.UTC(2024, 10, 1) + 3000).toUTCString(), 3000], // an HTTP date, 3 s after "now"
    [new Date(Date.UTC(2024, 10, 1) - 60_000).toUTCString(), 0], // a date in the past
    ['soon', 125], // unreadable: the usual backoff
    ['1.5', 125], // not delay-seconds, not a date
  ])('honours Retry-After %s: waits %i ms', async (retryAfter, delay) => {
    const { node, delays } = setup({ 'x-stub-fault': '429', 'x-stub-fault-times': '1', 'x-stub-retry-after': retryAfter });
    await node.v2.getAccount('0x1');
    expect(delays).toEqual([delay]);
    expect(ctx.stub.requests).toHaveLength(2);
  });

  it('does not retry sooner than a Retry-After longer than maxDelayMs: it fails with the error', async () => {
    const { node, delays } = setup({ 'x-stub-fault': '503', 'x-stub-retry-after': '120' });
    expect(((await rejectionOf(node.v2.getAccount('0x1'))) as HttpError).status).toBe(503);
    expect(ctx.stub.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('starts no retry past maxElapsedMs', async () => {
    // Retry-After 1 s each time: the 3rd retry would start at 3 s, past the 2.5 s budget.
    const { node, delays } = setup({ 'x-stub-fault': '429' }, { attempts: 10, maxElapsedMs: 2500 });
    await rejectionOf(node.v2.getAccount('0x1'));
    expect(delays).toEqual([1000, 1000]);
    expect(ctx.stub.requests).toHaveLength(3);
  });

  it('retries the statuses it is given instead of the defaults', async () => {
    const { node } = setup({ 'x-stub-fault': '500', 'x-stub-fault-times': '1' }, { statuses: [500] });
    await expect(node.v2.getAccount('0x1')).resolves.toBeDefined();
    expect(ctx.stub.requests).toHaveLength(2);
    ctx.stub.reset();
    const other = setup({ 'x-stub-fault': '503' }, { statuses: [500] });
    await rejectionOf(other.node.v2.getAccount('0x1'));
    expect(ctx.stub.requests).toHaveLength(1);
  });

  it('each call has its own attempts', async () => {
    const { node, delays } = setup({ 'x-stub-fault': '502', 'x-stub-fault-times': '1' });
    await node.v2.getAccount('0x1');
    await node.v2.getAccount('0x1'); // the stub counts per request: this one is answered at once
    expect(ctx.stub.requests).toHaveLength(3);
    expect(delays).toEqual([125]);
  });

  it('is used by every page of an iteration', async () => {
    const { node, delays } = setup({ 'x-stub-fault': '503', 'x-stub-fault-times': '1' });
    const items: unknown[] = [];
    for await (const tx of node.v2.transactions('0x1', { pageSize: 20 })) items.push(tx);
    expect(items).toHaveLength(40);
    // Three pages (20, 20, empty), each failing once: six requests, three waits.
    expect(ctx.stub.requests).toHaveLength(6);
    expect(delays).toEqual([1000, 1000, 1000]);
  });
});
