/**
 * Answers checked against their requests (the spec's `x-echo`): a transaction read by hash must carry
 * that hash, a block read by height that height, a block read by hash that hash; anything else is a
 * `ResponseShapeError` naming the operation and the pointer, and with several nodes the call moves on to
 * the next node. The fake node's answers pass in both shapes (documented and live). And `chainId` holds
 * for error answers too: a 410 of a node of another chain is no `HistoryPrunedError`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChainIdMismatchError, createNodeClient, HistoryPrunedError, NodesFailedError, ResponseShapeError } from '@x/node-client';
import { STUB_ACCOUNTS, startNodeStub, type NodeStubHandle } from '@x/testing';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';
import { collect, rejectionOf } from '@x-tools/test-helpers';

let stub: NodeStubHandle;
/** A finalized transaction of the stub and its block, read as the documented shapes have them. */
let tx: { hash: string; block_header: { height: number; hash: string } };
beforeAll(async () => {
  stub = await startNodeStub({ seed: 7 });
  const [first] = await createNodeClient({ baseUrl: stub.url }).v3.listTransactions(STUB_ACCOUNTS.alice, { count: 1 });
  if (!first || !('block_header' in first) || !first.block_header) throw new Error('the stub account has a finalized transaction');
  tx = first as typeof tx;
});
afterAll(() => stub.close());

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A node that answers every request with `body` (200, the stub's chain id). */
async function lyingNode(body: unknown): Promise<ScriptedServer> {
  const server = await startScriptedServer((_req, res) => {
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json', 'x-supra-chain-id': String(stub.chainId) }).end(text);
  });
  servers.push(server);
  return server;
}

const OTHER_HASH = `0x${'ab'.repeat(32)}`;
/** The calls, each with an answer to another request of the same shape, and where the mismatch is. */
const CASES = [
  {
    name: 'getBlockByHeight(h) answered with another height',
    operationId: 'getBlockByHeightV3',
    pointer: '/header/height',
    wrong: async () => {
      const block = await read().getBlockByHeight(tx.block_header.height);
      return { ...block, header: { ...block.header, height: 999_999 } };
    },
    call: (node: ReturnType<typeof createNodeClient>) => node.v3.getBlockByHeight(tx.block_header.height),
    check: (answer: unknown) => expect((answer as { header: { height: number } }).header.height).toBe(tx.block_header.height),
  },
  {
    name: 'getTransaction(hash) answered with another transaction',
    operationId: 'getTransactionV3',
    pointer: '/hash',
    wrong: async () => ({ ...(await read().getTransaction(tx.hash)), hash: OTHER_HASH }),
    call: (node: ReturnType<typeof createNodeClient>) => node.v3.getTransaction(tx.hash),
    check: (answer: unknown) => expect((answer as { hash: string }).hash).toBe(tx.hash),
  },
  {
    name: 'getBlock(hash) answered with another block',
    operationId: 'getBlockV3',
    pointer: '/header/hash',
    wrong: async () => {
      const block = await read().getBlock(tx.block_header.hash);
      return { ...block, header: { ...block.header, hash: OTHER_HASH } };
    },
    call: (node: ReturnType<typeof createNodeClient>) => node.v3.getBlock(tx.block_header.hash),
    check: (answer: unknown) => expect((answer as { header: { hash: string } }).header.hash).toBe(tx.block_header.hash),
  },
] as const;

const read = () => createNodeClient({ baseUrl: stub.url, retry: false }).v3;

describe.each(CASES)('$name', ({ operationId, pointer, wrong, call, check }) => {
  it('is a ResponseShapeError naming the operation and the pointer', async () => {
    const liar = await lyingNode(await wrong());
    const err = await rejectionOf(call(createNodeClient({ baseUrl: liar.url, retry: false })));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ name: 'ResponseShapeError', code: 'RESPONSE_SHAPE_ERROR', operationId, path: pointer });
    expect((err as Error).message).toContain('asked for');
  });

  it('with several nodes, moves on to the next node, which answers the request', async () => {
    const liar = await lyingNode(await wrong());
    check(await call(createNodeClient({ baseUrl: [liar.url, stub.url], retry: false })));
    expect(liar.requests).toHaveLength(1);
    // Every node answering something else: each one's refusal.
    const other = await lyingNode(await wrong());
    const err = await rejectionOf(call(createNodeClient({ baseUrl: [liar.url, other.url], retry: false })));
    expect(err).toBeInstanceOf(NodesFailedError);
    expect((err as NodesFailedError).attempts.map((a) => a.error)).toEqual([expect.any(ResponseShapeError), expect.any(ResponseShapeError)]);
  });
});

describe('an answer without the field asked', () => {
  it.each([
    ['null', null, ''],
    ['a list', [], ''],
    ['the height as the whole body', 5, ''],
    ['a header of null', { header: null }, '/header'],
    ['a header without a height', { header: {} }, '/header/height'],
    ['a height that is no u64', { header: { height: '5x' } }, '/header/height'],
  ])('%s is a ResponseShapeError at the path where it is missing', async (_name, body, path) => {
    const liar = await lyingNode(body);
    const err = await rejectionOf(createNodeClient({ baseUrl: liar.url, retry: false }).v3.getBlockByHeight(5));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: 'getBlockByHeightV3', path });
  });

  it('a height sent as decimal text, or a hash without 0x in capitals, is the one asked', async () => {
    const block = await read().getBlockByHeight(tx.block_header.height);
    const { height, hash } = tx.block_header;
    const texty = await lyingNode({ ...block, header: { ...block.header, height: `00${height}`, hash: hash.slice(2).toUpperCase() } });
    const node = createNodeClient({ baseUrl: texty.url, retry: false });
    expect((await node.v3.getBlockByHeight(height)).header.height).toBe(`00${height}`);
    expect((await node.v3.getBlock(hash)).header.height).toBe(`00${height}`);
  });
});

describe.each(['documented', 'live'] as const)("the fake node's answers, %s shapes, are the answers asked for", (shapes) => {
  const node = () => createNodeClient({ baseUrl: stub.url, headers: { 'x-stub-shapes': shapes }, retry: false });

  it('a block by height and by hash, a transaction by hash, hashes in any case and with or without 0x', async () => {
    const { height, hash } = tx.block_header;
    expect((await node().v3.getBlockByHeight(height, { with_finalized_transactions: true })).header.hash).toBe(hash);
    expect((await node().v3.getBlockByHeight(BigInt(height))).header.height).toBe(height);
    for (const asked of [hash, hash.slice(2).toUpperCase()]) expect((await node().v3.getBlock(asked)).header.height).toBe(height);
    for (const asked of [tx.hash, tx.hash.slice(2).toUpperCase(), `0x${tx.hash.slice(2).toUpperCase()}`]) expect((await node().v3.getTransaction(asked)).hash).toBe(tx.hash);
  });

  it('the blocks walk reads heights the node answers', async () => {
    const { height } = tx.block_header;
    const blocks = await collect(node().v3.blocks({ start_height: height, end_height: height + 3 }));
    expect(blocks.map((b) => b.header.height)).toEqual([height, height + 1, height + 2]);
  });
});

describe('chainId holds for error answers too', () => {
  it('a 410 of a node of another chain is a ChainIdMismatchError, not a HistoryPrunedError', async () => {
    const pruned = await startNodeStub({ seed: 7, chainId: 6, oldestBlock: 100 });
    try {
      const err = await rejectionOf(createNodeClient({ baseUrl: pruned.url, chainId: 8, retry: false }).v3.getBlockByHeight(5));
      expect(err).toBeInstanceOf(ChainIdMismatchError);
      expect(err).not.toBeInstanceOf(HistoryPrunedError);
      expect(err).toMatchObject({ code: 'CHAIN_ID_MISMATCH', expected: 8, received: 6 });
      // The node's own chain: its 410 is the pruned history it says it is.
      expect(await rejectionOf(createNodeClient({ baseUrl: pruned.url, chainId: 6, retry: false }).v3.getBlockByHeight(5))).toBeInstanceOf(HistoryPrunedError);
    } finally {
      await pruned.close();
    }
  });
});
