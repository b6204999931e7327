/**
 * Every benchmark of `pnpm bench`, one entry each. main.ts runs each in a fresh child process (see
 * case.ts): what one leaves behind (heap, JIT state, sockets of a keep-alive pool) then cannot shape
 * the next one's numbers, as it did when they shared a process. Both arms of a ratio still run in the
 * same process, interleaved round by round.
 */
import { join } from 'node:path';
import { STUB_ACCOUNTS } from '@x/testing';
import type { Target } from './http.ts';
import type { Row } from './report.ts';
import { accountPath, PAGE, txPagePath, type ServersReady } from './server.ts';

/** The repository root, from this file's place in it. */
export const ROOT = join(import.meta.dirname, '..', '..', '..');

export const GROUPS = ['validate', 'unions', 'http', 'gen', 'stub', 'hostile', 'live'] as const;
export type Group = (typeof GROUPS)[number];

/** What a case gets from main.ts. */
export type CaseContext = { root: string; quick: boolean; servers?: ServersReady };

export type Case = {
  id: string;
  group: Group;
  /** The progress line. */
  title: string;
  /** Needs the loopback servers (started once by main.ts, shared by the cases). */
  servers: boolean;
  run(ctx: CaseContext): Promise<Row[]>;
};

function serversOf(ctx: CaseContext): ServersReady {
  if (!ctx.servers) throw new Error('this benchmark needs the loopback servers');
  return ctx.servers;
}

// 400 calls x 16 in flight per sample (~0.1 s on loopback), 100 rounds. The per-round ratios of a
// loopback round trip spread by 10-15%: at 60 rounds the ratio still moved by a standard deviation of
// ~0.017 from run to run (a 95% CI of about +-0.035), at 100 by ~0.013, for ~8 s more per server.
const GET_ACCOUNT = { requests: 400, concurrency: 16 };

/** The in-memory target: the bodies at `paths` of the pre-rendered server, answered from memory. */
async function memoryTarget(s: ServersReady, paths: readonly string[]): Promise<Target> {
  const http = await import('./http.ts');
  return http.inMemory(s.fastUrl, paths);
}

const getAccount = (name: 'pre-rendered' | 'stub' | 'in-memory'): Case => ({
  id: `getAccount.${name}`,
  group: 'http',
  title: `2: getAccount, client vs raw fetch (${name})`,
  servers: true,
  async run(ctx) {
    const s = serversOf(ctx);
    const http = await import('./http.ts');
    const q = ctx.quick;
    if (name === 'in-memory') {
      // In memory a call takes ~0.1 ms: larger samples, so that each lasts about as long as on loopback.
      return [await http.benchGetAccount(await memoryTarget(s, [accountPath(STUB_ACCOUNTS.busy)]), { ...GET_ACCOUNT, requests: 2000, rounds: q ? 5 : 15 })];
    }
    const t = http.loopback(name, name === 'stub' ? s.stubUrl : s.fastUrl);
    return [await http.benchGetAccount(t, { ...GET_ACCOUNT, rounds: q ? 7 : 100 })];
  },
});

const iterate = (name: 'pre-rendered' | 'stub' | 'in-memory'): Case => ({
  id: `iterate.${name}`,
  group: 'http',
  title:
    name === 'stub'
      ? '3: iterating the busy account 4 times, client vs raw pages (stub)'
      : `3: iterating 10,000 transactions, client vs raw pages (${name})`,
  servers: true,
  async run(ctx) {
    const s = serversOf(ctx);
    const http = await import('./http.ts');
    const q = ctx.quick;
    if (name === 'stub') {
      return [await http.benchIterate(http.loopback('stub', s.stubUrl), STUB_ACCOUNTS.busy, 2500, { rounds: q ? 3 : 7, repeats: 4 })];
    }
    const pages = (): string[] => Array.from({ length: s.syntheticCount / PAGE + 1 }, (_, i) => txPagePath(s.synthetic, i * PAGE));
    const t = name === 'in-memory' ? await memoryTarget(s, pages()) : http.loopback(name, s.fastUrl);
    return [await http.benchIterate(t, s.synthetic, s.syntheticCount, { rounds: q ? 3 : 11, repeats: 1 })];
  },
});

export const CASES: readonly Case[] = [
  {
    id: 'validate',
    group: 'validate',
    title: '1: validating v2 pages vs JSON.parse (realistic, live shapes, busy, reference floor, bytes)',
    servers: true,
    async run(ctx) {
      const { benchValidatePages } = await import('./validate.ts');
      const page = async (address: string, shapes: 'documented' | 'live'): Promise<string> => {
        const res = await fetch(serversOf(ctx).stubUrl + txPagePath(address, 0), { headers: { 'x-stub-shapes': shapes } });
        if (!res.ok) throw new Error(`the stub answered ${res.status} for the page`);
        return res.text();
      };
      const pages = {
        realistic: await page(STUB_ACCOUNTS.alice, 'documented'),
        realisticLive: await page(STUB_ACCOUNTS.alice, 'live'),
        busy: await page(STUB_ACCOUNTS.busy, 'documented'),
      };
      return benchValidatePages(pages, ctx.quick ? 9 : 31);
    },
  },
  {
    id: 'unions',
    group: 'unions',
    title: '5: union encodings, keyed vs oneOf',
    servers: true,
    async run(ctx) {
      const { benchUnions, unionValues } = await import('./unions.ts');
      return benchUnions(await unionValues(serversOf(ctx).stubUrl), ctx.quick ? 7 : 21);
    },
  },
  getAccount('pre-rendered'),
  getAccount('stub'),
  getAccount('in-memory'),
  {
    id: 'getAccount.undici',
    group: 'http',
    title: '2: getAccount over httpUndici and over http vs a raw undici request, 32 in flight (pre-rendered)',
    servers: true,
    async run(ctx) {
      const { benchUndici } = await import('./undici.ts');
      return benchUndici(serversOf(ctx).fastUrl, { requests: 800, concurrency: 32, rounds: ctx.quick ? 7 : 60 });
    },
  },
  {
    id: 'getAccount.openapi-fetch',
    group: 'http',
    title: "2: getAccount, openapi-fetch's GET vs raw fetch, and the client vs it (pre-rendered; reported)",
    servers: true,
    async run(ctx) {
      const { benchOpenapiFetch } = await import('./openapi-fetch.ts');
      return benchOpenapiFetch(serversOf(ctx).fastUrl, { ...GET_ACCOUNT, rounds: ctx.quick ? 7 : 60 });
    },
  },
  {
    id: 'getAccount.alloc',
    group: 'http',
    title: '2: getAccount, bytes allocated per call, client vs raw fetch (in-memory)',
    servers: true,
    async run(ctx) {
      const { benchAllocations } = await import('./alloc.ts');
      const t = await memoryTarget(serversOf(ctx), [accountPath(STUB_ACCOUNTS.busy)]);
      return [await benchAllocations(t, { calls: 10_000, rounds: ctx.quick ? 1 : 3 })];
    },
  },
  iterate('pre-rendered'),
  iterate('in-memory'),
  iterate('stub'),
  {
    id: 'iterate.concurrency',
    group: 'http',
    title: '3: 3,000 transactions, 40 ms per answer, concurrency 1 vs 8 (a slow loopback server of its own)',
    servers: false,
    async run(ctx) {
      const { benchConcurrentWalk } = await import('./concurrency.ts');
      return benchConcurrentWalk({ rounds: ctx.quick ? 3 : 7 });
    },
  },
  {
    id: 'iterate.v3',
    group: 'http',
    title: '3: v3, 3,000 transactions, 40 ms per answer, concurrency 1 vs 8, ascending and newest first (a slow loopback server of its own)',
    servers: false,
    async run(ctx) {
      const { benchConcurrentWalkV3 } = await import('./concurrency-v3.ts');
      return benchConcurrentWalkV3({ rounds: ctx.quick ? 3 : 5 });
    },
  },
  {
    id: 'hedge.p99',
    group: 'http',
    title: '7: getAccount p99 over two nodes (A slow on every 10th request), hedgeAfterMs 50 vs off (loopback servers of its own)',
    servers: false,
    async run(ctx) {
      const { benchHedging } = await import('./hedging.ts');
      return benchHedging({ rounds: ctx.quick ? 1 : 3 });
    },
  },
  {
    id: 'gen',
    group: 'gen',
    title: '4: pnpm gen, cold and with nothing changed (a copy of the tree in the temp dir)',
    servers: false,
    async run(ctx) {
      const { benchGen } = await import('./gen.ts');
      return [await benchGen(ctx.root, ctx.quick ? 1 : 2, ctx.quick ? 2 : 3)];
    },
  },
  {
    id: 'hostile.block',
    group: 'hostile',
    title: '8: the longest event-loop block of a hostile answer (error text, endless and gzip bodies, a huge cursor) vs ordinary calls',
    servers: false,
    async run(ctx) {
      const { benchHostileBlock } = await import('./hostile.ts');
      return benchHostileBlock(ctx.quick ? 1 : 3);
    },
  },
  ...(['endless', 'gzip'] as const).map(
    (kind): Case => ({
      id: `hostile.rss.${kind}`,
      group: 'hostile',
      title: `8: peak RSS of one call against ${kind === 'endless' ? 'an endless body' : 'a gzip bomb'} (maxResponseBytes 16 MiB)`,
      servers: false,
      async run() {
        const { benchHostileRss } = await import('./hostile.ts');
        return benchHostileRss(kind);
      },
    }),
  ),
  {
    id: 'live.catchup',
    group: 'live',
    title: 'issue 46: catch-up of 1,000 missed blocks over a 40 ms link, one by one (100, scaled) vs watchBlocks (the fake node)',
    servers: false,
    async run(ctx) {
      const { benchCatchUp } = await import('./live.ts');
      return [await benchCatchUp(ctx.quick ? 1 : 3)];
    },
  },
  {
    id: 'live.push.p99',
    group: 'live',
    title: 'issue 46: push to consumer at 100 blocks/s, p99, raw ws vs watchBlocks (a loopback WebSocket server of its own)',
    servers: false,
    async run(ctx) {
      const { benchPush } = await import('./live.ts');
      return [await benchPush(ctx.quick ? 300 : 1_000)];
    },
  },
  {
    id: 'stub.start',
    group: 'stub',
    title: '6: startNodeStub, cold and with new seeds (issue 20: under 50 ms)',
    servers: false,
    async run(ctx) {
      const { benchStubStart } = await import('./stub-start.ts');
      return [await benchStubStart(ctx.quick ? 5 : 20)];
    },
  },
];
