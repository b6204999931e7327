/**
 * The README's "Beyond accounts" example: the block itself run against the node stub (its base URL
 * pointed at the stub, nothing else changed), and each snippet of it checked deeper: what it reads agrees
 * with the stub's chain (the balance view with the CoinStore, a transaction with its block, the events
 * walk with the transactions' events).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeClient, type TransactionV3 } from '@x/node-client';
import { gasUsed, transactionEvents, transactionOutcome } from '@x/node-client/shapes';
import { STUB_ACCOUNTS } from '@x/testing';
import { collect, useNodeStub } from '@x-tools/test-helpers';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ctx = useNodeStub();
afterEach(() => vi.restoreAllMocks());

/** The first ```ts block after a heading of the README. */
function blockAfter(heading: string): string {
  const at = readme.indexOf(`\n## ${heading}`);
  const m = /\n```ts\n([\s\S]*?)\n```\n/.exec(readme.slice(at));
  if (at < 0 || !m) throw new Error(`no \`\`\`ts block under "## ${heading}"`);
  return m[1]! + '\n';
}

describe('README: Beyond accounts', () => {
  it('the example runs as it is against the fake node, and prints what the chain holds', async () => {
    const code = blockAfter('Beyond accounts');
    expect(code).toContain("createNodeClient({ baseUrl: 'http://127.0.0.1:27000' })");
    expect(code).not.toMatch(/!\./); // no non-null assertion where a reader needs a check
    const dir = mkdtempSync(join(tmpdir(), 'readme-beyond-'));
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    try {
      const file = join(dir, 'beyond.mts');
      writeFileSync(file, code.replace('http://127.0.0.1:27000', ctx.stub.url));
      await import(pathToFileURL(file).href);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    const alice = STUB_ACCOUNTS.alice;
    expect(code).toContain(`const alice = '${alice}';`);
    const store = await node.v3.getResource(alice, '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>');
    expect(lines[0]).toMatch(new RegExp(`^${store.data.coin.value} [0-9]+$`));
    const [tx] = await node.v3.listTransactions(alice, { count: 1 });
    if (tx === undefined || !tx.block_header) throw new Error('alice has a transaction in a block');
    expect(lines[1]).toMatch(new RegExp(`^${tx.block_header.hash} [0-9]+$`));
    expect(lines[2]).toBe(`${tx.status} ${gasUsed(tx)} ${transactionOutcome(tx).vmStatus}`);
    expect(lines[3]).toBe(tx.status);
    // Then the deposit events (each a height, a hash and its data), then 20 block heights, newest first.
    const heights = lines.slice(-20).map(Number);
    expect(heights).toEqual(heights.map((_, i) => heights[0]! - i));
    expect(lines.length).toBeGreaterThan(4 + 20);
    expect(lines.slice(4, -20).every((l) => /^[0-9]+ 0x[0-9a-f]+ \[object Object\]$/.test(l))).toBe(true);
  });

  it('a balance through the framework view function equals the account CoinStore', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const { result: [balance] } = await node.v3.view({
  function: '0x1::coin::balance',
  type_arguments: ['0x1::supra_coin::SupraCoin'],
  arguments: [alice],
});`);
    const owner = STUB_ACCOUNTS.alice;
    const { result: [balance] } = await node.v3.view({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: [owner] });
    const store = await node.v3.getResource(owner, '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>');
    expect(balance).toBe(store.data.coin.value);
    const { result: [now] } = await node.v3.view({ function: '0x1::timestamp::now_microseconds' });
    expect(now).toMatch(/^[0-9]+$/);
  });

  it('a transaction is in the block its header names, and found by its hash', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const [tx] = await node.v3.listTransactions(alice, { count: 1 });
if (tx === undefined) throw new Error(\`\${alice} has sent no transaction\`);
if (tx.block_header) {
  const block = await node.v3.getBlockByHeight(tx.block_header.height, { with_finalized_transactions: true });`);
    const [tx] = await node.v3.listTransactions(STUB_ACCOUNTS.alice, { count: 1 });
    if (tx === undefined || !tx.block_header) throw new Error('the stub account has a finalized transaction');
    const block = await node.v3.getBlockByHeight(tx.block_header.height, { with_finalized_transactions: true });
    expect(block.header.hash).toBe(tx.block_header.hash);
    expect(block.transactions?.map((t: TransactionV3) => t.hash)).toContain(tx.hash);
    expect(await node.v3.getBlockTransactionHashes(block.header.hash)).toContain(tx.hash);
    expect(await node.v3.getTransaction(tx.hash)).toEqual(tx);
    expect(await node.waitForTransaction(tx.hash, { timeoutMs: 5_000 })).toEqual(tx);
  });

  it('events of one type over a height range are the events of the transactions in it', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const from = tx.block_header?.height ?? 0;
for await (const e of node.v3.events('0x1::coin::DepositEvent', { start_height: from, end_height: from + 1_000, concurrency: 2 })) {`);
    const latest = (await node.v3.getLatestBlock()).header.height;
    const events = await collect(node.v3.events('0x1::coin::DepositEvent', { start_height: 0, end_height: latest + 1, concurrency: 2 }));
    expect(events.length).toBeGreaterThan(0);
    // Each event is one its transaction emitted, in (height, transaction) order.
    for (const e of events.slice(0, 20)) {
      const tx = await node.v3.getTransaction(e.transaction_hash);
      expect(transactionEvents(tx).map((x) => x.type)).toContain(e.event.type);
    }
    const heights = events.map((e) => e.block_height);
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
  });

  it('blocks newest first, four at a time: consecutive heights down from the latest, parents chained', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`for await (const block of node.v3.blocks({ order: 'desc', limit: 20, concurrency: 4 })) console.log(block.header.height);`);
    const blocks = await collect(node.v3.blocks({ order: 'desc', limit: 20, concurrency: 4 }));
    expect(blocks).toHaveLength(20);
    blocks.slice(1).forEach((b, i) => {
      expect(b.header.height).toBe(blocks[i]!.header.height - 1);
      expect(blocks[i]!.header.parent).toBe(b.header.hash);
    });
  });
});
