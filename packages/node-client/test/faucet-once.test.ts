/**
 * The faucet is a GET that changes the chain, so the spec marks it `x-retry: false` and the client sends
 * it once: a 503 is the call's answer, with no retry, no hedge and no other node, unless the call passes
 * `retry: true`. A read keeps its retries, and `retry: false` sends any call once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeClient, HttpError } from '@x/node-client';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';
import { rejectionOf } from '@x-tools/test-helpers';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ADDRESS = `0x${'a1'.repeat(32)}`;
const HASH = `0x${'cd'.repeat(32)}`;

/** A node whose first answer is a 503 and every later one a success (a faucet's `Accepted`, or an account). */
async function busyOnce(): Promise<ScriptedServer> {
  let n = 0;
  const server = await startScriptedServer((req, res) => {
    if (n++ === 0) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"busy"}');
    const body = req.url!.includes('/faucet/') ? { Accepted: HASH } : { sequence_number: '0', authentication_key: HASH };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  return server;
}

// Retries at once: the delays are not what these tests are about.
const retry = { attempts: 3, baseDelayMs: 0 };

describe('the faucet is sent once', () => {
  it('answers the first 503 with one request; retry: true retries it', async () => {
    const node = await busyOnce();
    const client = createNodeClient({ baseUrl: node.url, retry });
    const err = await rejectionOf(client.v1.fundAccount(ADDRESS));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 503 });
    expect(node.requests).toHaveLength(1);

    const again = await busyOnce();
    await expect(createNodeClient({ baseUrl: again.url, retry }).v1.fundAccount(ADDRESS, { retry: true })).resolves.toEqual({ Accepted: HASH });
    expect(again.requests).toHaveLength(2);
  });

  it('moves on to no other node', async () => {
    const [a, b] = [await busyOnce(), await busyOnce()];
    const client = createNodeClient({ baseUrl: [a.url, b.url], retry });
    expect(await rejectionOf(client.v1.fundAccount(ADDRESS))).toMatchObject({ status: 503 });
    expect([a.requests.length, b.requests.length]).toEqual([1, 0]);
  });

  it('a read keeps its retries; retry: false sends it once', async () => {
    const node = await busyOnce();
    const client = createNodeClient({ baseUrl: node.url, retry });
    await expect(client.v2.getAccount(ADDRESS)).resolves.toHaveProperty('sequence_number', '0');
    expect(node.requests).toHaveLength(2);

    const once = await busyOnce();
    expect(await rejectionOf(createNodeClient({ baseUrl: once.url, retry }).v2.getAccount(ADDRESS, { retry: false }))).toMatchObject({ status: 503 });
    expect(once.requests).toHaveLength(1);
  });
});
