/**
 * `hedgeAfterMs` over loopback nodes of the test's own that answer after a delay each, and record
 * whether the client closed a request before its answer: a first node slow to answer gets company from
 * the next node awake, the first answer wins and the other request is aborted at once (the server sees
 * it closed), a quick first node gets none, and a hedge that fails leaves the first request running.
 *
 * On fake time (`useFakeTime`): the hedge timer, the servers' delays and the clocks move only when a
 * test moves them, once the requests it expects have arrived, so "asked at 50 ms" is exact and no test
 * waits for a slow node on the wall clock. The requests still go over loopback HTTP.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeClient, type AttemptInfo, type NodeClientOptions } from '@x/node-client';
import { expectNoOpenHandles, rejectionOf, useFakeTime } from '@x-tools/test-helpers';
import { accountBody, startScriptedNode, type Answer, type ScriptedNode } from './multi-node-helpers.ts';

const ADDRESS = `0x${'4e'.repeat(32)}`;
const time = useFakeTime();
const servers: ScriptedNode[] = [];
/** A node answering every request with `answer` (an account whose sequence number is `id` by default). */
async function node(id: number, answer: Answer = {}): Promise<ScriptedNode> {
  const server = await startScriptedNode(() => ({ body: accountBody(id), ...answer }));
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await expectNoOpenHandles();
});

function client(nodes: ScriptedNode[], options: NodeClientOptions = {}): { call: () => Promise<{ sequence_number: number }>; attempts: AttemptInfo[] } {
  const attempts: AttemptInfo[] = [];
  const c = createNodeClient({ baseUrl: nodes.map((n) => n.url), hedgeAfterMs: 50, onAttempt: (a) => attempts.push(a), ...options });
  return { call: () => c.v2.getAccount(ADDRESS), attempts };
}
const summary = (attempts: AttemptInfo[], nodes: ScriptedNode[]): [string, number, number | string | undefined][] =>
  attempts.map((a) => [a.kind, nodes.findIndex((n) => n.url === a.node), a.status ?? a.error]);

describe('hedgeAfterMs 50', () => {
  beforeEach(() => {
    time.start();
  });

  it('a first node answering after 300 ms: the next one is asked at 50 ms, wins, and the first request is aborted', async () => {
    const a = await node(1, { delayMs: 300 });
    const b = await node(2);
    const { call, attempts } = client([a, b]);
    const started = performance.now();
    const pending = call();
    await time.waitFor(() => a.seen.length === 1, "a's request");
    await time.advance(50);
    const account = await time.settles(pending, 'the answer of b');
    const elapsed = performance.now() - started;
    expect(account.sequence_number).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(200);
    // b was asked 50 ms after the call started (a's request was sent then; its arrival may lag).
    expect(b.seen[0]!.at - started).toBeGreaterThanOrEqual(45);
    expect(a.seen[0]!.at).toBeLessThan(b.seen[0]!.at);
    // The server sees a's request closed before it answered.
    await time.waitFor(() => a.seen[0]!.closedEarly, "a's request closed");
    expect(a.seen[0]!.answered).toBe(false);
    expect(summary(attempts, [a, b])).toEqual([
      ['hedge', 1, 200],
      ['first', 0, 'AbortError'],
    ]);
  });

  it('no hedge when the first node answers before hedgeAfterMs', async () => {
    const a = await node(1, { delayMs: 5 });
    const b = await node(2);
    const { call, attempts } = client([a, b], { hedgeAfterMs: 100 });
    const pending = call();
    await time.waitFor(() => a.seen.length === 1, "a's request");
    await time.advance(5);
    expect((await time.settles(pending, 'the answer of a')).sequence_number).toBe(1);
    await time.advance(150); // past the hedge time: its timer went with the call
    await time.realPause(20); // (a request it sent would have arrived by now)
    expect(b.seen).toHaveLength(0);
    expect(summary(attempts, [a, b])).toEqual([['first', 0, 200]]);
  });

  it('a hedge that fails (503) leaves the first request running: its answer wins', async () => {
    const a = await node(1, { delayMs: 200 });
    const b = await node(2, { status: 503, body: { message: 'overloaded' } });
    const { call, attempts } = client([a, b]);
    const pending = call();
    await time.waitFor(() => a.seen.length === 1, "a's request");
    await time.advance(50); // the hedge to b, answered 503 at once
    await time.waitFor(() => attempts.length === 1, "b's 503");
    await time.advance(150); // a answers, 200 ms after the call started
    expect((await time.settles(pending, 'the answer of a')).sequence_number).toBe(1);
    expect(a.seen[0]!.answered).toBe(true);
    expect(summary(attempts, [a, b])).toEqual([
      ['hedge', 1, 503],
      ['first', 0, 200],
    ]);
  });

  it('a first node failing before hedgeAfterMs is a fallback, not a hedge', async () => {
    const a = await node(1, { status: 502, body: 'bad gateway' });
    const b = await node(2);
    const { call, attempts } = client([a, b]);
    // A fallback, at once: no time passes.
    expect((await time.settles(call(), 'the answer of b')).sequence_number).toBe(2);
    expect(summary(attempts, [a, b])).toEqual([
      ['first', 0, 502],
      ['fallback', 1, 200],
    ]);
  });

  it('three nodes, two slow: a hedge every 50 ms, the third answers, both slow requests are aborted', async () => {
    const a = await node(1, { delayMs: 400 });
    const b = await node(2, { delayMs: 400 });
    const c = await node(3);
    const { call, attempts } = client([a, b, c]);
    const started = performance.now();
    const pending = call();
    await time.waitFor(() => a.seen.length === 1, "a's request");
    await time.advance(50);
    await time.waitFor(() => b.seen.length === 1, "b's request, the first hedge");
    await time.advance(50);
    expect((await time.settles(pending, 'the answer of c')).sequence_number).toBe(3);
    expect(performance.now() - started).toBeLessThan(300);
    expect(performance.now() - started).toBe(100);
    await time.waitFor(() => a.seen[0]!.closedEarly && b.seen[0]!.closedEarly, 'both slow requests closed');
    expect(summary(attempts, [a, b, c])[0]).toEqual(['hedge', 2, 200]);
    expect(summary(attempts, [a, b, c]).slice(1).sort()).toEqual([
      ['first', 0, 'AbortError'],
      ['hedge', 1, 'AbortError'],
    ]);
  });

  it("the caller's abort during a hedge rejects with its reason and closes both requests", async () => {
    const a = await node(1, { delayMs: 400 });
    const b = await node(2, { delayMs: 400 });
    const controller = new AbortController();
    const c = createNodeClient({ baseUrl: [a.url, b.url], hedgeAfterMs: 50 });
    const pending = rejectionOf(c.v2.getAccount(ADDRESS, { signal: controller.signal }));
    await time.waitFor(() => a.seen.length === 1, "a's request");
    await time.advance(50);
    await time.waitFor(() => b.seen.length === 1, "b's request, the hedge");
    const reason = new Error('gone');
    controller.abort(reason);
    expect(await time.settles(pending, 'the rejection')).toBe(reason);
    await time.waitFor(() => a.seen[0]!.closedEarly && b.seen[0]!.closedEarly, 'both requests closed');
  });
});
