/**
 * The README's live block list with TanStack Query (`streamedQuery`), shown there verbatim, run against the
 * fake node: the query's data grows, newest first, as the stub makes blocks; the last observer leaving
 * aborts the query's signal, which ends the watch and closes its socket.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver, experimental_streamedQuery as streamedQuery } from '@tanstack/query-core';
import { createNodeClient } from '@x/node-client';
import type { BlockHeaderInfo } from '@x/node-types';
import { startNodeStub, type NodeStubHandle } from '@x/testing';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
});
afterAll(() => stub.close());

it('a live block list: streamedQuery over node.watchBlocks', async () => {
  expect(readme).toContain(`const queryClient = new QueryClient();
// The 10 newest blocks, newest first, as they come; useQuery(liveBlocks) in React, Vue, Solid or Svelte.
const liveBlocks = {
  queryKey: ['node', node.baseUrls, 'blocks', 'live'],
  queryFn: streamedQuery({
    streamFn: ({ signal }) => node.watchBlocks({ headersOnly: true, signal }),
    reducer: (newest: BlockHeaderInfo[], header: BlockHeaderInfo) => [header, ...newest].slice(0, 10),
    initialValue: [],
  }),
  staleTime: Infinity, // the stream keeps it fresh: no refetch on mount or focus
};
const unsubscribe = new QueryObserver(queryClient, liveBlocks).subscribe(({ data }) => console.log(data?.map((h) => h.height)));
// Later: the last observer gone, the watch ends.
unsubscribe();`);
  const node = createNodeClient({ baseUrl: stub.url });
  const seen: number[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((heights: number[] | undefined) => void (heights && seen.push(heights)));
  try {
    const queryClient = new QueryClient();
    // The 10 newest blocks, newest first, as they come; useQuery(liveBlocks) in React, Vue, Solid or Svelte.
    const liveBlocks = {
      queryKey: ['node', node.baseUrls, 'blocks', 'live'],
      queryFn: streamedQuery({
        streamFn: ({ signal }) => node.watchBlocks({ headersOnly: true, signal }),
        reducer: (newest: BlockHeaderInfo[], header: BlockHeaderInfo) => [header, ...newest].slice(0, 10),
        initialValue: [],
      }),
      staleTime: Infinity, // the stream keeps it fresh: no refetch on mount or focus
    };
    const unsubscribe = new QueryObserver(queryClient, liveBlocks).subscribe(({ data }) => console.log(data?.map((h) => h.height)));
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    // A block made before the subscription lands is not pushed (no fromHeight): make blocks until one comes.
    while (seen.length === 0) {
      stub.stream.produce(1);
      for (let i = 0; i < 100 && seen.length === 0; i++) await tick();
    }
    let top = 0;
    for (let i = 0; i < 10; i++) {
      top = stub.stream.produce(1);
      while (seen.at(-1)?.[0] !== top) await tick();
    }
    // Later: the last observer gone, the watch ends.
    unsubscribe();
    expect(seen.at(-1)).toEqual(Array.from({ length: 10 }, (_, i) => top - i));
    while (stub.stream.connections > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(stub.stream.connections).toBe(0);
  } finally {
    log.mockRestore();
  }
});
