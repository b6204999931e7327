/**
 * The live feed's catch-up (issue 46): `watchBlocks` from `fromHeight` over a link that adds 40 ms to every
 * REST read, against reading the same blocks one by one. Run: `npx tsx tools/bench/src/live-catchup.ts [blocks]`.
 */
import { createNodeClient, getBlockByHeightV4, watchBlocks } from '@x/node-client';
import { startNodeStub } from '@x/testing';

const blocks = Number(process.argv[2] ?? 200);
const stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
const slow = async (request: Request): Promise<Response> => {
  await new Promise((resolve) => setTimeout(resolve, 40));
  return fetch(request);
};
const node = createNodeClient({ baseUrl: stub.url, fetch: slow });
const top = (await node.v3.getLatestBlock()).header.height;
const from = top - blocks + 1;

let t = performance.now();
for (let h = from; h <= top; h++) await getBlockByHeightV4(node.transport, h);
const oneByOne = performance.now() - t;

t = performance.now();
let n = 0;
for await (const header of watchBlocks(node.transport, { fromHeight: from, headersOnly: true })) if (++n === blocks || header.height === top) break;
const caught = performance.now() - t;
console.log(JSON.stringify({ blocks, oneByOneMs: Math.round(oneByOne), watchBlocksMs: Math.round(caught), ratio: +(oneByOne / caught).toFixed(1) }));
await stub.close();
