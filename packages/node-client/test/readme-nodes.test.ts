/**
 * The README's "Several nodes" example, run over two loopback nodes: the first answers 503 (and rests),
 * the second answers. The snippet is shown in the README verbatim (a test holds them equal).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, NODE_URLS, NodesFailedError } from '@x/node-client';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
let a: NodeStubHandle;
let b: NodeStubHandle;
beforeAll(async () => {
  [a, b] = await Promise.all([startNodeStub({ port: 0 }), startNodeStub({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

describe('README: Several nodes', () => {
  it('falls back from a failing node, and reports each attempt', async () => {
    const [primary, backup, address] = [a.url, b.url, STUB_ACCOUNTS.alice];
    const log: string[] = [];
    a.failNext('getAccountV2', 503);
    const snippet = `const node = createNodeClient({
  baseUrl: [primary, backup],              // order = preference
  rateLimit: { requestsPerSecond: 10 },    // per node, shared by every call and walk of this client
  hedgeAfterMs: 500,                       // optional: a slow first node gets company from the next
  onAttempt: (a) => log.push(\`\${a.kind} \${a.operationId} \${a.node} \${a.status ?? '-'} \${a.error ?? 'ok'} \${Math.round(a.durationMs)}ms\`),
});
const account = await node.v2.getAccount(address);`;
    expect(readme).toContain(snippet);
    const node = createNodeClient({
      baseUrl: [primary, backup],              // order = preference
      rateLimit: { requestsPerSecond: 10 },    // per node, shared by every call and walk of this client
      hedgeAfterMs: 500,                       // optional: a slow first node gets company from the next
      onAttempt: (a) => log.push(`${a.kind} ${a.operationId} ${a.node} ${a.status ?? '-'} ${a.error ?? 'ok'} ${Math.round(a.durationMs)}ms`),
    });
    const account = await node.v2.getAccount(address);
    expect(account.sequence_number).toBe(150);
    expect(log.map((line) => line.replace(/ \d+ms$/, ''))).toEqual([`first getAccountV2 ${a.url} 503 HttpError`, `fallback getAccountV2 ${b.url} 200 ok`]);
  });

  it("the log line tells a failed attempt that had a 200 (a body that is not JSON) from an answer", async () => {
    const [primary, backup, address] = [a.url, b.url, STUB_ACCOUNTS.alice];
    const log: string[] = [];
    a.failNext('getAccountV2', 'not-json');
    const node = createNodeClient({
      baseUrl: [primary, backup],
      onAttempt: (a) => log.push(`${a.kind} ${a.operationId} ${a.node} ${a.status ?? '-'} ${a.error ?? 'ok'} ${Math.round(a.durationMs)}ms`),
    });
    await node.v2.getAccount(address);
    expect(log.map((line) => line.replace(/ \d+ms$/, ''))).toEqual([`first getAccountV2 ${a.url} 200 ResponseParseError`, `fallback getAccountV2 ${b.url} 200 ok`]);
  });

  it('NodesFailedError: each attempt\'s error is a client error whose code narrows it', async () => {
    a.failNext('getAccountV2', 503);
    b.failNext('getAccountV2', 'reset');
    const err = await createNodeClient({ baseUrl: [a.url, b.url], retry: false }).v2.getAccount(STUB_ACCOUNTS.alice).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodesFailedError);
    const seen = (err as NodesFailedError).attempts.map(({ url, error }) => `${url} ${error.code}${error.code === 'HTTP_ERROR' ? ` ${error.status}` : ''}`);
    expect(seen).toEqual([`${a.url} HTTP_ERROR 503`, `${b.url} NETWORK_ERROR`]);
  });

  it('NODE_URLS: the public addresses, frozen', () => {
    expect(NODE_URLS).toEqual({ local: 'http://localhost:27000', mainnet: 'https://rpc-mainnet.supra.com', testnet: 'https://rpc-testnet.supra.com' });
    expect(Object.isFrozen(NODE_URLS)).toBe(true);
    for (const [name, url] of Object.entries(NODE_URLS)) expect(readme).toContain(`| \`NODE_URLS.${name}\` | \`${url}\``);
  });
});
