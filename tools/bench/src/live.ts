/**
 * Item 7 of issue 46, live data: (1) a catch-up of 1,000 missed blocks by `watchBlocks` (REST, 16 in
 * flight, in order) against reading them one by one, over a link that adds 40 ms to every REST read (the
 * fake node behind a fetch that waits 40 ms first); one by one is measured on 100 blocks and scaled to
 * 1,000 (it is linear: one round trip per block, ~40 s for 1,000); (2) from a block's push to the consumer
 * of `watchBlocks`, p99 at 100 blocks/s on loopback (a WebSocket server of its own in this process, which
 * records when it sends each height), against a raw `ws` client that only parses the frame.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeClient, getBlockByHeightV4, watchBlocks } from '@x/node-client';
import { startNodeStub } from '@x/testing';
import { WebSocket, WebSocketServer } from 'ws';
import { median, quantile } from './harness.ts';
import type { Row } from './report.ts';

const LINK_MS = 40;
const MISSED = 1_000;
const ONE_BY_ONE_SAMPLE = 100;

/** Catch-up of `MISSED` blocks, watchBlocks vs one by one (scaled from `ONE_BY_ONE_SAMPLE`), `rounds` each, interleaved. */
export async function benchCatchUp(rounds: number): Promise<Row> {
  const stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
  try {
    const slow = async (request: Request): Promise<Response> => {
      await new Promise((resolve) => setTimeout(resolve, LINK_MS));
      return fetch(request);
    };
    const node = createNodeClient({ baseUrl: stub.url, fetch: slow });
    const top = (await node.v3.getLatestBlock()).header.height;
    const from = top - MISSED + 1;
    const oneByOne: number[] = [];
    const watched: number[] = [];
    for (let r = 0; r < rounds; r++) {
      let t = performance.now();
      for (let h = from; h < from + ONE_BY_ONE_SAMPLE; h++) await getBlockByHeightV4(node.transport, h);
      oneByOne.push(((performance.now() - t) * MISSED) / ONE_BY_ONE_SAMPLE);
      t = performance.now();
      let n = 0;
      for await (const header of watchBlocks(node.transport, { fromHeight: from, headersOnly: true })) {
        if (header.height !== from + n++) throw new Error(`watchBlocks gave ${header.height} where ${from + n - 1} was due`);
        if (n === MISSED) break;
      }
      watched.push(performance.now() - t);
    }
    const a = median(oneByOne);
    const b = median(watched);
    return {
      id: 'live.catchup',
      group: '7',
      name: `live: catch-up of ${MISSED.toLocaleString('en')} missed blocks over a ${LINK_MS} ms link, one by one vs watchBlocks`,
      a: { label: 'one by one', value: a, unit: 'ms' },
      b: { label: 'watchBlocks', value: b, unit: 'ms' },
      ratio: a / b,
      ratioMeaning: 'one by one / watchBlocks: how many times faster the catch-up is',
      target: { op: '>=', value: 5 },
      note: `one by one measured on ${ONE_BY_ONE_SAMPLE} blocks and scaled linearly to ${MISSED} (one round trip each); medians of ${rounds} round(s); watchBlocks rounds ${watched.map((ms) => Math.round(ms)).join(', ')} ms`,
      samples: { oneByOne, watched },
    };
  } finally {
    await stub.close();
  }
}

const hash = (h: number): string => `0x${h.toString(16).padStart(64, '0')}`;
/** A block at `height` (no transactions). */
const block = (height: number): object => ({ header: { height, hash: hash(height), parent: hash(height - 1), author: hash(0), timestamp: { microseconds_since_unix_epoch: height * 1e6, utc_date_time: '' } }, execution_statistics: null, transactions: null });
/** A block the way the stream pushes it, at `height`. */
const frame = (height: number): string => JSON.stringify({ jsonrpc: '2.0', method: 'supra_subscription', params: { subscription: '0x1', result: block(height) } });

/** Push-to-consumer latencies of `blocks` blocks sent at `perSecond` to one subscriber, which `consume` reads. */
async function pushLatencies(blocks: number, perSecond: number, consume: (url: string, got: (height: number) => boolean) => Promise<void>): Promise<number[]> {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  // The node's REST answers its latest block (height 0), which watchBlocks reads on connecting, before
  // the pushed blocks: a gap to fill, none here.
  const server = createServer((req, res) =>
    req.url === '/rpc/v3/block' ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(block(0))) : res.writeHead(404).end(),
  );
  const wss = new WebSocketServer({ server });
  let subscribed: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  let peer: WebSocket | undefined;
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      peer = ws;
      ws.send(JSON.stringify({ jsonrpc: '2.0', result: '0x1', id: (JSON.parse(String(data)) as { id: number }).id }));
      subscribed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/rpc/v4/ws`;
  const done = consume(url, (height) => {
    latencies.push(performance.now() - (sentAt.get(height) as number));
    return latencies.length === blocks;
  });
  await ready;
  const start = performance.now();
  for (let i = 1; i <= blocks; i++) {
    // On schedule, not every 10 ms after the last: a late tick does not lower the rate.
    const due = start + (i * 1_000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const text = frame(i);
    sentAt.set(i, performance.now());
    peer?.send(text);
  }
  await done;
  for (const ws of wss.clients) ws.terminate();
  await new Promise<void>((resolve) => wss.close(() => server.close(() => resolve())));
  return latencies;
}

/** p99 from push to the consumer at 100 blocks/s: a raw ws client (parse only) vs watchBlocks. */
export async function benchPush(blocks: number): Promise<Row> {
  const raw = await pushLatencies(blocks, 100, async (url, got) => {
    const ws = new WebSocket(url);
    await new Promise((resolve) => ws.once('open', resolve));
    await new Promise<void>((resolve) => {
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { params?: { result: { header: { height: number } } } };
        if (message.params && got(message.params.result.header.height)) resolve();
      });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'supra_subscribe', params: ['newBlocks', { includeTransactions: false, includeProof: false }] }));
    });
    ws.terminate();
  });
  const watched = await pushLatencies(blocks, 100, async (url, got) => {
    const client = createNodeClient({ baseUrl: url.replace(/^ws/, 'http').replace('/rpc/v4/ws', '') });
    for await (const pushed of watchBlocks(client.transport)) if (got(pushed.header.height)) break;
  });
  const a = quantile(raw, 0.99);
  const b = quantile(watched, 0.99);
  return {
    id: 'live.push.p99',
    group: '7',
    name: `live: push to consumer at 100 blocks/s on loopback, p99 (${blocks} blocks), raw ws vs watchBlocks`,
    a: { label: 'raw ws', value: a, unit: 'ms' },
    b: { label: 'watchBlocks', value: b, unit: 'ms' },
    ratio: b / a,
    ratioMeaning: 'watchBlocks p99 / raw ws p99',
    target: { op: '<=', a: 5, b: 5, on: 'values' },
    note: `medians: raw ${median(raw).toFixed(2)} ms, watchBlocks ${median(watched).toFixed(2)} ms; max: raw ${Math.max(...raw).toFixed(2)} ms, watchBlocks ${Math.max(...watched).toFixed(2)} ms`,
  };
}
