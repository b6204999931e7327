/**
 * The README's "Beyond accounts" example, run against the node stub: each snippet below is shown in the
 * README verbatim (a test holds them equal), and what it reads agrees with the stub's chain (the balance
 * view with the CoinStore, a transaction with its block, the events walk with the transactions' events).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodeClient, type TransactionV3 } from '@x/node-client';
import { transactionEvents } from '@x/node-client/shapes';
import { STUB_ACCOUNTS } from '@x/testing';
import { collect, useNodeStub } from '@x-tools/test-helpers';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ctx = useNodeStub();

describe('README: Beyond accounts', () => {
  it('a balance through the framework view function equals the account CoinStore', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const { result: [balance] } = await node.v3.view({
  function: '0x1::coin::balance',
  type_arguments: ['0x1::supra_coin::SupraCoin'],
  arguments: ['0x1'],
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
    expect(readme).toContain(`  const block = await node.v3.getBlockByHeight(tx.block_header.height, { with_finalized_transactions: true });`);
    const [tx] = await node.v3.listTransactions(STUB_ACCOUNTS.alice, { count: 1 });
    if (tx === undefined || !('block_header' in tx) || !tx.block_header) throw new Error('the stub account has a finalized transaction');
    const block = await node.v3.getBlockByHeight(tx.block_header.height, { with_finalized_transactions: true });
    expect(block.header.hash).toBe(tx.block_header.hash);
    expect(block.transactions?.map((t: TransactionV3) => t.hash)).toContain(tx.hash);
    expect(await node.v3.getBlockTransactionHashes(block.header.hash)).toContain(tx.hash);
    expect(await node.v3.getTransaction(tx.hash)).toEqual(tx);
    expect(await node.waitForTransaction(tx.hash, { timeoutMs: 5_000 })).toEqual(tx);
  });

  it('events of one type over a height range are the events of the transactions in it', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`for await (const e of node.v3.events('0x1::coin::DepositEvent', { start_height: 0, end_height: 1_000, concurrency: 2 })) {`);
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
