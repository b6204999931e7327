/**
 * `pnpm test:install`: each package installed alone, from its tarball, with npm, into an empty project
 * outside the workspace, then used the ways a user uses it: `import`, `require` (Node >= 20.19 loads ESM
 * with `require`), and a TypeScript consumer type-checked with `moduleResolution` `nodenext` (ESM and
 * CommonJS files) and `bundler`, and with a Node-only setup (`lib` ES2022 and `@types/node`, no DOM).
 * The installed trees are checked too: no ajv anywhere, no `@types/node` anywhere, no openapi-fetch
 * anywhere (the clients build their requests themselves), and none of the optional peer dependencies
 * (`@tanstack/query-core`, `msw`): npm does not install optional peers.
 * `@x/validators` installs without `@x/client-core` (its CLI bundles what it takes from it): its tree has
 * none, and the installed `x-validate` runs `record --help`, refuses a price service without the key, and
 * records from the stubs of `@x/testing` (served by this process) a recording that it then validates.
 *
 * Every subpath of `exports` is loaded too (`import` and `require`), without the optional peers: each
 * loads and exports what the workspace build does, except the subpaths of {@link NEEDS_PEER}, which import
 * their peer at run time and must fail with ERR_MODULE_NOT_FOUND naming it. Then one more project
 * installs the packages that have optional peers together with those peers (one npm install): a
 * TypeScript consumer of the subpaths with TanStack Query and MSW (nodenext ESM + CommonJS, bundler),
 * and a run of the MSW handlers under `setupServer` answering `fetch` and the query options.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startNodeStub, startPriceStub } from '@x/testing';
import { type Packed, type Tally, ROOT, indent, optionalPeers, run, runOk, seconds } from './shared.ts';

/** The TypeScript the consumers are checked with, installed once from the registry beside them. */
const TYPESCRIPT = 'typescript@5.9.3';
const TYPES_NODE = '@types/node@20';

/**
 * Packages no installed tree may contain: the validators inline ajv's code, clients never need it; the
 * clients send their requests themselves, so openapi-fetch is a user's own choice (their READMEs' recipe).
 */
const FORBIDDEN_EVERYWHERE = ['ajv', 'openapi-fetch'];
/** `@types/node`: none of the packages needs Node's types (price-client and node-client run in browsers). */
const FORBIDDEN_TYPES = ['@types/node'];
/**
 * Packages one package's tree may not contain: `@x/validators` bundles what its CLI takes from
 * `@x/client-core` (dist/cli/main.js), so installing it pulls no client runtime.
 */
const FORBIDDEN_IN: Readonly<Record<string, readonly string[]>> = { '@x/validators': ['@x/client-core'] };

/**
 * Subpaths that import an optional peer dependency at run time (a static import, by design): installed
 * without it, loading them fails with ERR_MODULE_NOT_FOUND naming the peer. Every other subpath must load
 * without any optional peer (`/query` imports `@tanstack/query-core` as types only).
 */
const NEEDS_PEER: Readonly<Record<string, string>> = { '@x/testing/msw': 'msw', '@x/node-client/node': 'undici' };

/** The vendor of `@x/validators/standard`'s schemas (`VENDOR` of packages/validators/src/standard/adapter.ts). */
const STANDARD_VENDOR = 'x-validators';

/** A user's first lines with each package: typed usage, and a mistake the types must catch. */
const CONSUMERS: Record<string, string> = {
  '@x/client-core': `
import { ClientError, HttpError, TimeoutError, resolveRetry, withRetry, type ErrorCode } from '@x/client-core';
const err = new HttpError({ status: 503, body: 'busy', method: 'GET', url: 'http://localhost/' });
export const same: boolean = err instanceof ClientError && err.name === 'HttpError';
export const code: ErrorCode = err.code;
export const once = (): Promise<number> => withRetry(async () => 1, resolveRetry({ attempts: 2 }), (e) => (e instanceof TimeoutError ? 10 : undefined));
// @ts-expect-error status is a number
void new HttpError({ status: '503', body: null, method: 'GET', url: '' });
`,
  '@x/common': `
import { canonicalAddress, matchRoute, paging, readU64, type PagingRule, type ResponseValidator, type ValidationIssue } from '@x/common';
export const id: string | undefined = matchRoute('/rpc/v2/accounts/0x1/transactions')?.route.operationId;
export const rule: PagingRule = paging.listTransactionsV2;
export const address: string | undefined = canonicalAddress('0x0001');
export const seq: bigint | undefined = readU64('007');
export const accept: ResponseValidator = () => ({ ok: true });
export const issue: ValidationIssue = { path: '', message: 'must be object', keyword: 'type' };
// @ts-expect-error an issue has a keyword
export const partial: ValidationIssue = { path: '', message: 'm' };
`,
  '@x/node-types': `
import type { AccountData, TransactionOutput, operations, paths } from '@x/node-types';
export const gasUsed = (o: TransactionOutput): number | undefined => (typeof o === 'object' && 'Move' in o ? o.Move.gas_used : undefined);
export type Query = operations['listTransactionsV2']['parameters']['query'];
export type AccountPath = keyof paths;
export const account: AccountData = { sequence_number: 1, authentication_key: '0x01' };
// @ts-expect-error gas_used is a number
export const wrong: TransactionOutput = { Move: { gas_used: 'x', events: [], vm_status: 'Executed' } };
`,
  '@x/price-types': `
import type { Candle, LatestResponse, operations, paths } from '@x/price-types';
export const closes = (candles: Candle[]): number[] => candles.map((c) => c.close);
export const pairs = (r: LatestResponse): string[] => r.instruments.map((i) => i.tradingPairs);
export type HistoryQuery = operations['getHistory']['parameters']['query'];
export type PricePath = keyof paths;
export const interval: HistoryQuery['interval'] = 3600;
// @ts-expect-error a candle's close is a number
export const wrong: Candle = { timestamp: 0, open: 1, high: 1, low: 1, close: '1', volume: 0 };
`,
  '@x/node-client': `
import { createNodeClient, ClientError, HttpError, InvalidArgumentError, DEFAULT_BASE_URL, type AccountData, type NodeClient } from '@x/node-client';
const node: NodeClient = createNodeClient({ baseUrl: DEFAULT_BASE_URL, timeoutMs: 5_000, retry: { attempts: 2 } });
export async function firstTransactions(): Promise<number> {
  const account: AccountData = await node.v2.getAccount('0x1');
  let n = 0;
  for await (const tx of node.v2.transactions('0x1', { start: 0 })) {
    if (++n > 3 || !tx) break;
  }
  return Number(account.sequence_number) + n;
}
export const isClientError = (e: unknown): boolean => e instanceof ClientError || e instanceof HttpError || e instanceof InvalidArgumentError;
// @ts-expect-error count is a number
void node.v2.listTransactions('0x1', { count: 'fifty' });
`,
  '@x/price-client': `
import { createPriceClient, readInstrument, HttpError, type Candle, type PriceClient } from '@x/price-client';
const prices: PriceClient = createPriceClient({ apiKey: 'key', timeoutMs: 5_000 });
export async function closes(): Promise<number[]> {
  const candles: Candle[] = await prices.history({ pair: 'btc_usdt', start: new Date(0), end: Date.now(), resolution: 3600 });
  const { instruments } = await prices.latest({ pair: 'btc_usdt' });
  if (instruments[0]) readInstrument(instruments[0]);
  return candles.map((c) => Number(c.close));
}
export const isHttp = (e: unknown): boolean => e instanceof HttpError;
// @ts-expect-error resolution is required
void prices.history({ pair: 'btc_usdt', start: 0, end: 1 });
`,
  '@x/validators': `
import { validateTransactionOutput, isMoveValue, assertAccountData, validateResponse, type AccountData, type ValidationResult, type TransactionOutput } from '@x/validators';
import { AccountData as AccountDataSchema, standardSchema, type StandardSchemaV1 } from '@x/validators/standard';
const r: ValidationResult<TransactionOutput> = validateTransactionOutput({ Move: { gas_used: 'x', events: [], vm_status: 'Executed' } }, { strict: true });
export const paths: string[] = r.ok ? [] : r.issues.map((i) => i.path);
export const ok: boolean = isMoveValue(1) && validateResponse('listTransactionsV2', 200, {}, { strict: true }).ok;
export function check(v: unknown): number {
  assertAccountData(v);
  return Number(v.sequence_number);
}
// @ts-expect-error strict is a boolean
validateTransactionOutput({}, { strict: 'yes' });
// @x/validators/standard: the Standard Schema types are the package's own (no dependency).
export const output = (v: StandardSchemaV1.InferOutput<typeof AccountDataSchema>): AccountData => v;
export const schema: StandardSchemaV1<unknown, TransactionOutput> = standardSchema('TransactionOutput', { strict: true, profile: 'live' });
export async function parse(v: unknown): Promise<AccountData | undefined> {
  const r = await AccountDataSchema['~standard'].validate(v);
  return r.issues ? undefined : r.value;
}
// @ts-expect-error the output is an AccountData, not a string
export const notText = (v: StandardSchemaV1.InferOutput<typeof AccountDataSchema>): string => v;
`,
  '@x/testing': `
import { createNodeStubFetch, createPriceStubFetch, startNodeStub, StubArgumentError, STUB_ACCOUNTS, type NodeStubFetch, type AccountSpec } from '@x/testing';
const carol: AccountSpec = { transactions: [{ to: 'alice', amount: '5' }, { function: '0x1::counter::increment' }] };
export const node: NodeStubFetch = createNodeStubFetch({ shapes: 'live', accounts: { carol } });
export async function account(): Promise<number> {
  node.failNext('getAccountV2', 503, 1, { retryAfter: '0' });
  const r: Response = await node(\`\${node.url}/rpc/v2/accounts/\${STUB_ACCOUNTS.alice}\`);
  return r.status + node.requests.length + (node.accounts['carol'] ?? '').length;
}
export async function listening(): Promise<string> {
  const stub = await startNodeStub({ port: 0 });
  await stub.close();
  return stub.url + createPriceStubFetch().apiKey;
}
export const isArg = (e: unknown): boolean => e instanceof StubArgumentError && e.code === 'INVALID_ARGUMENT';
// @ts-expect-error not an operation of the node stub
node.failNext('getHistory', 500);
`,
};

/** What the runtime checks print: the export names, and the package's own smoke test. */
const runtimeCheck = (name: string, load: string): string => `
${load}
const names = Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort();
let smoke = 'none';
if (${JSON.stringify(name)} === '@x/node-client' || ${JSON.stringify(name)} === '@x/price-client') {
  const create = m.createNodeClient ?? m.createPriceClient;
  const client = create();
  if ('raw' in client) throw new Error('client.raw is back: the clients have no openapi-fetch client');
  if (!Array.isArray(client.baseUrls) || client.baseUrls.length !== 1) throw new Error('client.baseUrls is not one base URL');
  try { create({ timeoutMs: -1 }); throw new Error('no error for timeoutMs -1'); }
  catch (e) { if (!(e instanceof m.ClientError) || e.code !== 'INVALID_ARGUMENT' || e.parameter !== 'timeoutMs') throw e; }
  smoke = 'client created; timeoutMs -1 is InvalidArgumentError(timeoutMs)';
}
if (${JSON.stringify(name)} === '@x/validators') {
  const r = m.validateTransactionOutput({ Move: { gas_used: 'x', events: [], vm_status: 'Executed' } });
  if (r.ok || r.issues[0].path !== '/Move/gas_used') throw new Error('unexpected result ' + JSON.stringify(r));
  smoke = 'validateTransactionOutput reports ' + r.issues[0].path + ': ' + r.issues[0].message;
}
// Async checks in a function: the CommonJS file cannot await at its top level.
const asyncSmoke = async () => {
  if (${JSON.stringify(name)} === '@x/testing') {
    const fetchStub = m.createNodeStubFetch();
    const inMemory = await fetchStub(fetchStub.url + '/rpc/v2/accounts/0x1');
    const stub = await m.startNodeStub();
    const overHttp = await fetch(stub.url + '/rpc/v2/accounts/0x1');
    const same = (await inMemory.text()) === (await overHttp.text());
    await stub.close();
    if (inMemory.status !== 200 || !same) throw new Error('the in-memory and loopback answers differ');
    smoke = 'getAccountV2 of 0x1 in memory and over loopback: the same 200 body';
  }
};
asyncSmoke().then(
  () => console.log(JSON.stringify({ names, smoke })),
  (e) => { console.error(e); process.exit(1); },
);
`;

/**
 * Loads each subpath of one package in one process (`import()` or `require`) and prints, per subpath,
 * its export names and smoke test, or the error of the load (`{ error: { code, message } }`).
 */
const subpathCheck = (specifiers: readonly string[], esm: boolean): string => `
const load = ${esm ? '(s) => import(s)' : 'async (s) => require(s)'};
const smokes = {
  '@x/node-client/query': async (m) => {
    const { createNodeClient } = await load('@x/node-client');
    const q = m.createNodeQueries(createNodeClient()).v2.getAccount('0x1');
    if (q.queryKey[0] !== m.NODE_QUERY_SCOPE || q.queryKey[2] !== 'getAccountV2' || typeof q.queryFn !== 'function') throw new Error('unexpected options ' + JSON.stringify(q));
    return 'createNodeQueries(node).v2.getAccount(0x1).queryKey ' + JSON.stringify(q.queryKey);
  },
  '@x/price-client/query': async (m) => {
    const { createPriceClient } = await load('@x/price-client');
    const q = m.createPriceQueries(createPriceClient()).latest({ pair: 'btc_usdt' });
    if (q.queryKey[0] !== m.PRICE_QUERY_SCOPE || q.queryKey[2] !== 'getLatest' || typeof q.queryFn !== 'function') throw new Error('unexpected options ' + JSON.stringify(q));
    return 'createPriceQueries(prices).latest({ pair: btc_usdt }).queryKey ' + JSON.stringify(q.queryKey);
  },
  '@x/validators/standard': async (m) => {
    const standard = m.AccountData['~standard'];
    const r = await standard.validate({ sequence_number: '1', authentication_key: '0x1' });
    const issue = r.issues?.[0];
    if (!issue || JSON.stringify(issue.path) !== '["sequence_number"]' || standard.vendor !== ${JSON.stringify(STANDARD_VENDOR)} || standard.version !== 1) {
      throw new Error('unexpected ' + JSON.stringify({ vendor: standard.vendor, version: standard.version, result: r }));
    }
    return "AccountData['~standard'] (vendor " + standard.vendor + ', version 1) reports ' + JSON.stringify(issue.path) + ': ' + issue.message;
  },
};
const results = {};
const main = async () => {
  for (const s of ${JSON.stringify(specifiers)}) {
    let m;
    try {
      m = await load(s);
    } catch (e) {
      results[s] = { error: { code: e?.code, message: String(e?.message ?? e) } };
      continue;
    }
    const names = Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort();
    try {
      results[s] = { names, smoke: smokes[s] ? await smokes[s](m) : 'none' };
    } catch (e) {
      results[s] = { names, smokeError: String(e?.stack ?? e) };
    }
  }
};
main().then(
  () => console.log(JSON.stringify(results)),
  (e) => { console.error(e); process.exit(1); },
);
`;

/** At most this many things at once (the type checks: one per core, not twelve fighting for two). */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(n: number) {
    this.free = Math.max(1, n);
  }
  async use<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
const typecheckSlots = new Slots(availableParallelism());

/** tsconfig of one consumer profile (the package's declarations are checked, TypeScript's own libs not). */
const tsconfig = (compilerOptions: Record<string, unknown>, files: string[]): string =>
  JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, skipDefaultLibCheck: true, ...compilerOptions }, files }, null, 2);

/**
 * Environment for npm and node in the consumer projects: none of pnpm's npm_config_* of the outer run,
 * and no NODE_PATH (pnpm's bin shims set it to the workspace's .pnpm/node_modules, where `require` would
 * find msw, @tanstack/query-core and every other workspace dependency the consumer did not install).
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|pnpm_|PNPM_|NODE_PATH$)/i.test(k)) env[k] = v;
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

/** Every package name under a node_modules tree (nested ones too). */
function installedNames(dir: string): string[] {
  const found: string[] = [];
  const walk = (nm: string): void => {
    if (!existsSync(nm)) return;
    for (const entry of readdirSync(nm)) {
      if (entry.startsWith('.')) continue;
      const scoped = entry.startsWith('@') ? readdirSync(join(nm, entry)).map((s) => `${entry}/${s}`) : [entry];
      for (const name of scoped) {
        if (!existsSync(join(nm, name, 'package.json'))) continue;
        found.push(name);
        walk(join(nm, name, 'node_modules'));
      }
    }
  };
  walk(join(dir, 'node_modules'));
  return [...new Set(found)].sort();
}

/**
 * npm overrides that point every @x dependency of `roots`, direct or not (`@x/price-client` ->
 * `@x/client-core` -> `@x/common`), at its tarball: none of them is on the registry.
 */
function tarballOverrides(packed: readonly Packed[], roots: readonly Packed[]): Record<string, string> {
  const byName = new Map(packed.map((p) => [p.pkg.name, p]));
  const overrides: Record<string, string> = {};
  const visit = (p: Packed): void => {
    for (const d of Object.keys(p.manifest.dependencies ?? {})) {
      const dep = byName.get(d);
      if (dep === undefined || d in overrides) continue;
      overrides[d] = `file:${dep.tarball}`;
      visit(dep);
    }
  };
  roots.forEach(visit);
  return overrides;
}

export async function installAlone(packed: readonly Packed[], work: string, tally: Tally): Promise<void> {
  const env = npmEnv();
  const npmFlags = ['--no-audit', '--no-fund', '--loglevel=error'];
  // No optional peer in any tree installed alone, nor anything of its scope (`@tanstack/*`, `msw`).
  const peerPatterns = [...new Set(packed.flatMap((p) => optionalPeers(p.manifest).map(([n]) => (n.startsWith('@') ? `${n.split('/')[0]}/*` : n))))].sort();
  const matches = (pattern: string, name: string): boolean => (pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern);

  // The tools the checks use, installed once, beside (not inside) the consumer projects.
  const tools = join(work, 'tools');
  mkdirSync(tools, { recursive: true });
  writeFileSync(join(tools, 'package.json'), JSON.stringify({ name: 'x-pack-check-tools', private: true, version: '0.0.0' }));
  // Installed while the consumers install; awaited before the first type check.
  const t0 = performance.now();
  const toolsReady = runOk('npm', ['install', ...npmFlags, TYPESCRIPT, TYPES_NODE], { cwd: tools, env }).then(() => seconds(t0));
  toolsReady.catch(() => {});
  const tsc = join(tools, 'node_modules', 'typescript', 'bin', 'tsc');
  const typesDir = join(tools, 'node_modules', '@types');

  const consumers: { p: Packed; dir: string }[] = [];
  await Promise.all([
    withOptionalPeers(packed, work, env, { tsc, toolsReady }, tally),
    ...packed.map(async (p) => {
      const started = performance.now();
      const out: string[] = [];
      const local = { passed: [] as string[], failed: [] as [string, string][] };
      const check = (label: string, ok: boolean, detail = ''): void => {
        if (ok) local.passed.push(label);
        else local.failed.push([label, detail]);
      };
      const dir = join(work, p.pkg.dir);
      mkdirSync(dir, { recursive: true });
      // The consumer depends on this package only. Its @x dependencies, direct or not (@x/price-client
      // -> @x/client-core -> @x/common), are not on the registry, so an override points npm at their
      // tarballs; everything else comes from the registry.
      const overrides = tarballOverrides(packed, [p]);
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: `consumer-of-${p.pkg.dir}`, private: true, version: '0.0.0', dependencies: { [p.pkg.name]: `file:${p.tarball}` }, overrides }, null, 2),
      );
      const inst = await run('npm', ['install', ...npmFlags], { cwd: dir, env });
      out.push(`npm install: ${seconds(started)}`);
      check('npm install (tarball alone, dependencies from the registry)', inst.code === 0, inst.stdout + inst.stderr);
      if (inst.code !== 0) return report(p, out, local, tally);

      // The installed tree.
      const names = installedNames(dir);
      out.push(`installed tree: ${names.join(', ')}`);
      const ls = await run('npm', ['ls', '--all', '--parseable'], { cwd: dir, env });
      check('npm ls --all: tree complete and valid', ls.code === 0, ls.stdout + ls.stderr);
      const lsNames = ls.stdout.split('\n').map((l) => l.split('node_modules/').slice(1).at(-1) ?? '').filter(Boolean);
      for (const bad of [...FORBIDDEN_EVERYWHERE, ...FORBIDDEN_TYPES, ...(FORBIDDEN_IN[p.pkg.name] ?? [])]) {
        check(`no ${bad} in the installed tree`, !names.includes(bad) && !lsNames.includes(bad), `found ${bad}`);
      }
      // A package's own dependency is no peer of it (@x/testing serves its fake WebSockets with ws).
      const own = Object.keys(p.manifest.dependencies ?? {});
      for (const pattern of peerPatterns.filter((pat) => !own.some((n) => matches(pat, n)))) {
        const found = [...new Set([...names, ...lsNames])].filter((n) => matches(pattern, n));
        check(`no ${pattern} in the installed tree (optional peers are not installed)`, found.length === 0, `found ${found.join(', ')}`);
      }

      // Runtime: ESM import and CommonJS require, export names equal to the workspace build's.
      const expected = Object.keys(await import(pathToFileURL(join(p.pkg.path, 'dist', 'index.js')).href)).sort();
      writeFileSync(join(dir, 'esm.mjs'), runtimeCheck(p.pkg.name, `const m = await import(${JSON.stringify(p.pkg.name)});`));
      writeFileSync(join(dir, 'cjs.cjs'), runtimeCheck(p.pkg.name, `const m = require(${JSON.stringify(p.pkg.name)});`));
      for (const [label, file] of [['import (ESM)', 'esm.mjs'], [`require (CommonJS, Node ${process.versions.node})`, 'cjs.cjs']] as const) {
        const r = await run(process.execPath, [file], { cwd: dir, env });
        let detail = r.stdout + r.stderr;
        let ok = r.code === 0;
        if (ok) {
          const got = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { names: string[]; smoke: string };
          ok = JSON.stringify(got.names) === JSON.stringify(expected);
          detail = `exports ${got.names.join(', ')}\nexpected ${expected.join(', ')}`;
          if (ok) out.push(`${label}: ${got.names.length} exports; ${got.smoke}${r.stderr.trim() ? `; stderr: ${r.stderr.trim()}` : ''}`);
        }
        check(label, ok, detail);
      }

      // Every subpath of `exports`, with no optional peer installed: loads and exports what the workspace
      // build does (with its smoke test), or, for a subpath that imports its peer, fails naming it.
      const subpaths = Object.entries(p.manifest.exports ?? {})
        .map(([key, v]) => [key, typeof v === 'string' ? v : (v['default'] ?? v['import'])] as const)
        .filter((e): e is readonly [string, string] => e[0] !== '.' && e[1]?.endsWith('.js') === true)
        .map(([key, target]) => ({ spec: `${p.pkg.name}/${key.replace(/^\.\//, '')}`, target }));
      if (subpaths.length) {
        const specs = subpaths.map((sp) => sp.spec);
        writeFileSync(join(dir, 'esm-subpaths.mjs'), subpathCheck(specs, true));
        writeFileSync(join(dir, 'cjs-subpaths.cjs'), subpathCheck(specs, false));
        const expectedOf = new Map<string, string[]>();
        for (const sp of subpaths) {
          if (!NEEDS_PEER[sp.spec]) expectedOf.set(sp.spec, Object.keys(await import(pathToFileURL(join(p.pkg.path, sp.target)).href)).sort());
        }
        for (const [mode, file] of [['import', 'esm-subpaths.mjs'], ['require', 'cjs-subpaths.cjs']] as const) {
          const r = await run(process.execPath, [file], { cwd: dir, env });
          type Loaded = { names?: string[]; smoke?: string; smokeError?: string; error?: { code?: string; message: string } };
          let results: Record<string, Loaded> = {};
          if (r.code === 0) results = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, Loaded>;
          for (const spec of specs) {
            const got = results[spec];
            const call = mode === 'import' ? `import '${spec}'` : `require('${spec}')`;
            const peer = NEEDS_PEER[spec];
            if (peer) {
              const ok = got?.error?.code === 'ERR_MODULE_NOT_FOUND' && got.error.message.includes(`'${peer}'`);
              check(`${call} without ${peer}: ERR_MODULE_NOT_FOUND naming '${peer}'`, ok, got ? JSON.stringify(got) : r.stdout + r.stderr);
              if (ok) out.push(`${call}: ${got.error!.code}: ${got.error!.message}`);
              continue;
            }
            const expected = expectedOf.get(spec) ?? [];
            const ok = !!got?.names && !got.error && !got.smokeError && JSON.stringify(got.names) === JSON.stringify(expected);
            const detail = got?.names ? `exports ${got.names.join(', ')}\nexpected ${expected.join(', ')}${got.smokeError ? `\n${got.smokeError}` : ''}` : got ? JSON.stringify(got.error) : r.stdout + r.stderr;
            check(`${call} (${mode === 'import' ? 'ESM' : 'CommonJS'}), no optional peer installed`, ok, detail);
            if (ok) out.push(`${call}: ${got.names!.length} exports; ${got.smoke}`);
          }
        }
      }

      // The CLIs, through the bins npm linked.
      for (const bin of Object.keys(p.manifest.bin ?? {})) {
        const path = join(dir, 'node_modules', '.bin', bin);
        if (bin === 'x-stub') {
          const r = await serveOnce(path, dir, env);
          check(`bin ${bin}: serves the node and price stubs, stops on SIGTERM`, r.ok, r.detail);
          if (r.ok) out.push(`bin ${bin}: ${r.detail}`);
          continue;
        }
        const r = await run(path, ['--strict', join(ROOT, 'specs', 'recorded')], { cwd: dir, env });
        check(`bin ${bin} --strict specs/recorded`, r.code === 0, r.stdout + r.stderr);
        if (r.code === 0) out.push(`bin ${bin}: ${r.stdout.trim().split('\n').at(-1)}`);
        if (bin === 'x-validate') {
          const r = await recordOnce(path, dir, env);
          check(`bin ${bin} record (--help; from the node and price stubs; refused without the key), the recording validates`, r.ok, r.detail);
          if (r.ok) out.push(`bin ${bin} record: ${r.detail}`);
        }
      }

      // The TypeScript consumer, without @types/node in the tree (the default lib has the DOM's fetch
      // types), is written here and type-checked with the other packages' consumers below.
      const code = CONSUMERS[p.pkg.name];
      if (!code) throw new Error(`no TypeScript consumer for ${p.pkg.name}`);
      for (const file of ['consumer.mts', 'consumer.cts', 'consumer.ts']) writeFileSync(join(dir, file), code);
      const globals = declaresGlobals(dir);
      check('no declaration of the installed @x packages declares globals, augments a module or references types or a lib', globals.length === 0, globals.join('\n'));
      consumers.push({ p, dir });
      out.push(`total ${seconds(started)} (the type checks follow, one program per profile)`);
      report(p, out, local, tally);
    }),
  ]);
  if (consumers.length > 0) await typecheckConsumers(consumers, work, { tsc, typesDir, toolsReady }, env, tally);
}

/**
 * The TypeScript consumers of the packages installed alone, one tsc program per profile instead of one
 * per package and profile (3 programs, not 24: most of a program's time is TypeScript reading its libs).
 * Each consumer file still resolves from its own project, so it sees that package's tree alone. Two things
 * a program shares, and why they do not mix the projects: globals (every installed declaration is checked
 * to declare none, see {@link declaresGlobals}), and TypeScript's reading of one package at one version
 * once (an @x package installed in several projects is read from the first that imports it): the
 * consumers are listed in dependency order, so each package is first read, and its imports resolved, in
 * its own project.
 */
async function typecheckConsumers(
  consumers: readonly { p: Packed; dir: string }[],
  work: string,
  tools: { tsc: string; typesDir: string; toolsReady: Promise<string> },
  env: NodeJS.ProcessEnv,
  tally: Tally,
): Promise<void> {
  const started = performance.now();
  const installed = await tools.toolsReady;
  const ordered = inDependencyOrder(consumers);
  const profiles: [label: string, file: string, options: Record<string, unknown>, files: string[]][] = [
    ['nodenext (ESM .mts and CommonJS .cts)', 'tsconfig.nodenext.json', { module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.mts', 'consumer.cts']],
    ['bundler', 'tsconfig.bundler.json', { module: 'preserve', moduleResolution: 'bundler' }, ['consumer.ts']],
    [
      'nodenext, Node only (lib ES2022 + @types/node, no DOM)',
      'tsconfig.node.json',
      { module: 'nodenext', moduleResolution: 'nodenext', lib: ['ES2022'], types: ['node'], typeRoots: [tools.typesDir] },
      ['consumer.mts'],
    ],
  ];
  const local: Local = { passed: [], failed: [] };
  const out = [`${TYPESCRIPT} and ${TYPES_NODE} installed in ${installed}`];
  await Promise.all(
    profiles.map(async ([label, file, options, files]) => {
      const t0 = performance.now();
      writeFileSync(join(work, file), tsconfig(options, ordered.flatMap(({ dir }) => files.map((f) => relative(work, join(dir, f))))));
      const r = await typecheckSlots.use(() => run(process.execPath, [tools.tsc, '-p', file], { cwd: work, env }));
      out.push(`tsc ${label}: ${seconds(t0)}`);
      // tsc names each error's file relative to `work`: an error belongs to the project it is in.
      const errors = (r.stdout + r.stderr).split('\n').filter((l) => /^\S.*\(\d+,\d+\): error /.test(l));
      const owned = new Set<string>();
      for (const { p, dir } of ordered) {
        const mine = errors.filter((l) => l.startsWith(`${relative(work, dir)}/`));
        mine.forEach((l) => owned.add(l));
        const ok = mine.length === 0 && (r.code === 0 || errors.length > 0);
        if (ok) local.passed.push(`${p.pkg.name}: tsc: ${label}`);
        else local.failed.push([`${p.pkg.name}: tsc: ${label}`, mine.join('\n') || r.stdout + r.stderr]);
      }
      const stray = errors.filter((l) => !owned.has(l));
      if (stray.length > 0) local.failed.push([`tsc: ${label}: errors outside the consumer projects`, stray.join('\n')]);
    }),
  );
  out.push(`type checks: ${seconds(started)}`);
  printBlock('TypeScript consumers of the packages installed alone (one tsc program per profile)', 'consumers', out, local, tally);
}

/** The consumers with each package before the packages that depend on it. */
function inDependencyOrder<T extends { p: Packed }>(consumers: readonly T[]): T[] {
  const byName = new Map(consumers.map((c) => [c.p.pkg.name, c]));
  const ordered: T[] = [];
  const visit = (c: T): void => {
    if (ordered.includes(c)) return;
    for (const d of Object.keys(c.p.manifest.dependencies ?? {})) {
      const dep = byName.get(d);
      if (dep) visit(dep);
    }
    ordered.push(c);
  };
  consumers.forEach(visit);
  return ordered;
}

/**
 * The declarations of the @x packages installed in a project that reach beyond their own module:
 * `declare global`, a module augmentation (`declare module '...'`) or a `/// <reference types|lib>`. One
 * would apply to every consumer of a shared tsc program (a lib "dom" to the Node-only profile), so any is
 * a failure; the type checks would then need one program per package again.
 */
function declaresGlobals(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      }
      else if (/\.d\.[cm]?ts$/.test(entry.name)) {
        const text = readFileSync(full, 'utf8');
        if (/^\s*declare\s+global\b|^\s*declare\s+module\s+['"]|^\/\/\/\s*<reference\s+(types|lib)=/m.test(text)) found.push(relative(dir, full));
      }
    }
  };
  const scope = join(dir, 'node_modules', '@x');
  if (existsSync(scope)) walk(scope);
  return found;
}

/**
 * A user of the subpaths that need the optional peers: TanStack Query's `QueryClient` over the query
 * options, and MSW's `setupServer` over the stub handlers. Types are compared exactly (`Equal`), on
 * values typed by the options alone: `const x: Promise<AccountData> = queryClient.fetchQuery(...)` would
 * hold whatever the options say, TypeScript inferring `fetchQuery`'s data type from the declared one.
 *
 * Known, in CommonJS files only (`.cts` under nodenext), where TypeScript resolves the peers' `require`
 * types (`msw`'s `lib/*.d.ts`, `@tanstack/query-core`'s `.d.cts`) while the packages' ESM-only
 * declarations see the peers' `import` types: two copies of each peer's declarations, so
 * `setupServer(...nodeHandlers())` does not type-check (msw's `RequestHandler` is a class with protected
 * members) and `getQueryData(key)` is `unknown` (the key's data tag is a `unique symbol`). At run time
 * there is one copy (`require('msw/node')` takes msw's `module-sync` ESM on Node >= 20.19; the require
 * check below proves it); in types, `customConditions: ["module-sync"]` fixes the msw half. The `.cts`
 * file expects both errors, so the check fails once they are gone (then remove the expectations).
 */
const peersConsumer = (commonjs: boolean): string => {
  const known = (what: string): string => (commonjs ? `// @ts-expect-error KNOWN in CommonJS: ${what}\n` : '');
  return `
import { QueryClient } from '@tanstack/query-core';
import { setupServer, type SetupServer } from 'msw/node';
import { createNodeClient, type AccountData, type NodeClient } from '@x/node-client';
import { createNodeQueries, NODE_QUERY_SCOPE, type PageParam } from '@x/node-client/query';
import { createPriceClient, type LatestResponse, type PriceClient } from '@x/price-client';
import { createPriceQueries } from '@x/price-client/query';
import { nodeHandlers, priceHandlers, type NodeHandlers } from '@x/testing/msw';
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const queryClient = new QueryClient();
const node: NodeClient = createNodeClient();
const prices: PriceClient = createPriceClient({ apiKey: 'key' });
const queries = createNodeQueries(node);
const account = queryClient.fetchQuery(queries.v2.getAccount('0x1'));
export const accountData: Promise<AccountData> = account;
export const accountExact: Equal<typeof account, Promise<AccountData>> = true;
const latest = queryClient.fetchQuery(createPriceQueries(prices).latest({ pair: 'btc_usdt' }));
export const latestData: Promise<LatestResponse> = latest;
export const latestExact: Equal<typeof latest, Promise<LatestResponse>> = true;
// @ts-expect-error the account query's data is an AccountData, not a LatestResponse
export const wrong: Promise<LatestResponse> = account;
const pages = queryClient.fetchInfiniteQuery(queries.v2.transactions('0x1', { pageSize: 25 }));
export const pageParams: Equal<Awaited<typeof pages>['pageParams'], PageParam[]> = true;
export const scope: typeof NODE_QUERY_SCOPE = queries.v2.getAccount('0x1').queryKey[0];
const cached = queryClient.getQueryData(queries.v2.getAccount('0x1').queryKey);
${known("the key's data tag is @tanstack/query-core's ESM declaration, the QueryClient's is the CommonJS one")}export const cachedExact: Equal<typeof cached, AccountData | undefined> = true;
const handlers: NodeHandlers = nodeHandlers({ seed: 7 });
${known("msw's CommonJS RequestHandler (setupServer) is not its ESM RequestHandler (@x/testing/msw)")}export const server: SetupServer = setupServer(...handlers, ...priceHandlers({ apiKey: 'key' }));
export const seen: number = handlers.requests.length;
// @ts-expect-error baseUrl is a string
nodeHandlers({ baseUrl: 1 });
`;
};

/** With the peers installed, at run time: the MSW handlers answer `fetch` under `setupServer`, and the query options run through a `QueryClient`. */
const peersRuntime = (esm: boolean): string => `
const load = ${esm ? '(s) => import(s)' : 'async (s) => require(s)'};
const main = async () => {
  const { setupServer } = await load('msw/node');
  const { nodeHandlers, priceHandlers } = await load('@x/testing/msw');
  const { QueryClient } = await load('@tanstack/query-core');
  const { createNodeClient } = await load('@x/node-client');
  const { createNodeQueries } = await load('@x/node-client/query');
  const { createPriceClient } = await load('@x/price-client');
  const { createPriceQueries } = await load('@x/price-client/query');
  const handlers = nodeHandlers();
  const price = priceHandlers();
  const server = setupServer(...handlers, ...price);
  server.listen({ onUnhandledRequest: 'error' });
  const queryClient = new QueryClient();
  try {
    const url = handlers.url + '/rpc/v2/accounts/0x1';
    const r = await fetch(url);
    const body = await r.text();
    if (r.status !== 200) throw new Error('GET ' + url + ': ' + r.status + ' ' + body);
    // Clients made after listen(): they call the fetch MSW patched.
    const account = await queryClient.fetchQuery(createNodeQueries(createNodeClient({ baseUrl: handlers.url })).v2.getAccount('0x1'));
    if (JSON.stringify(account) !== JSON.stringify(JSON.parse(body))) throw new Error('fetchQuery gave ' + JSON.stringify(account) + ', fetch ' + body);
    const latest = await queryClient.fetchQuery(createPriceQueries(createPriceClient({ baseUrl: price.url, apiKey: price.apiKey })).latest({ pair: 'btc_usdt' }));
    if (!Array.isArray(latest?.instruments) || latest.instruments.length === 0) throw new Error('latest gave ' + JSON.stringify(latest));
    if (handlers.requests.length !== 2 || price.requests.length !== 1) throw new Error('the stubs saw ' + handlers.requests.length + ' and ' + price.requests.length + ' requests');
    return 'GET ' + url + ' under setupServer(...nodeHandlers()): 200; fetchQuery: getAccount(0x1) the same account, latest(btc_usdt) '
      + latest.instruments.length + ' instrument(s); requests seen by the handlers: ' + handlers.requests.length + ' + ' + price.requests.length;
  } finally {
    queryClient.clear();
    server.close();
  }
};
main().then(
  (smoke) => { console.log(JSON.stringify({ smoke })); process.exit(0); },
  (e) => { console.error(e); process.exit(1); },
);
`;

/**
 * The packages with optional peers installed together, with those peers, in one project: npm's tree
 * valid (the peer ranges accept the peers' current majors), the TypeScript consumer of the subpaths
 * (nodenext ESM and CommonJS, bundler), and the MSW handlers and query options at run time.
 */
async function withOptionalPeers(packed: readonly Packed[], work: string, env: NodeJS.ProcessEnv, tools: { tsc: string; toolsReady: Promise<string> }, tally: Tally): Promise<void> {
  const started = performance.now();
  const users = packed.filter((p) => optionalPeers(p.manifest).length > 0);
  if (users.length === 0) return;
  const peers = new Map<string, string>();
  for (const p of users) for (const [name, range] of optionalPeers(p.manifest)) if (!peers.has(name)) peers.set(name, range);
  const title = `${users.map((p) => p.pkg.name).join(', ')} with their optional peers (${[...peers].map(([n, r]) => `${n}@${r}`).join(', ')})`;
  const out: string[] = [];
  const local: Local = { passed: [], failed: [] };
  const check = (label: string, ok: boolean, detail = ''): void => {
    if (ok) local.passed.push(label);
    else local.failed.push([label, detail]);
  };
  const done = (): void => printBlock(title, 'with optional peers', out, local, tally);

  const dir = join(work, 'with-optional-peers');
  mkdirSync(dir, { recursive: true });
  const dependencies = { ...Object.fromEntries(users.map((p) => [p.pkg.name, `file:${p.tarball}`])), ...Object.fromEntries(peers) };
  const overrides = tarballOverrides(packed, users);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer-with-optional-peers', private: true, version: '0.0.0', dependencies, overrides }, null, 2));
  const inst = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env });
  out.push(`npm install: ${seconds(started)}`);
  check('npm install (tarballs and the optional peers from the registry)', inst.code === 0, inst.stdout + inst.stderr);
  if (inst.code !== 0) return done();
  const versionOf = (name: string): string => {
    try {
      return (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'absent';
    }
  };
  out.push(`peers installed: ${[...peers.keys()].map((n) => `${n}@${versionOf(n)}`).join(', ')}`);
  const ls = await run('npm', ['ls', '--all', '--parseable'], { cwd: dir, env });
  check('npm ls --all: tree complete and valid (peer ranges met)', ls.code === 0, ls.stdout + ls.stderr);

  for (const [label, file, esm] of [
    ['import (ESM)', 'peers-esm.mjs', true],
    [`require (CommonJS, Node ${process.versions.node})`, 'peers-cjs.cjs', false],
  ] as const) {
    writeFileSync(join(dir, file), peersRuntime(esm));
    const r = await run(process.execPath, [file], { cwd: dir, env, timeoutMs: 60_000 });
    const ok = r.code === 0;
    check(`${label}: setupServer(...nodeHandlers()) answers fetch, query options through a QueryClient`, ok, r.stdout + r.stderr);
    if (ok) {
      const got = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { smoke: string };
      out.push(`${label}: ${got.smoke}${r.stderr.trim() ? `; stderr: ${r.stderr.trim()}` : ''}`);
    }
  }

  out.push(`${TYPESCRIPT} and ${TYPES_NODE} installed in ${await tools.toolsReady}`);
  const typecheckStart = performance.now();
  writeFileSync(join(dir, 'consumer.mts'), peersConsumer(false));
  writeFileSync(join(dir, 'consumer.cts'), peersConsumer(true));
  writeFileSync(join(dir, 'consumer.ts'), peersConsumer(false));
  const profiles: [string, string, Record<string, unknown>, string[]][] = [
    ['nodenext (ESM .mts and CommonJS .cts)', 'tsconfig.nodenext.json', { module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.mts', 'consumer.cts']],
    ['bundler', 'tsconfig.bundler.json', { module: 'preserve', moduleResolution: 'bundler' }, ['consumer.ts']],
  ];
  for (const [label, file, options, files] of profiles) {
    writeFileSync(join(dir, file), tsconfig(options, files));
    const r = await typecheckSlots.use(() => run(process.execPath, [tools.tsc, '-p', file], { cwd: dir, env }));
    check(`tsc: ${label}, TanStack Query and MSW`, r.code === 0, r.stdout + r.stderr);
  }
  out.push('known in CommonJS (.cts): setupServer(...nodeHandlers()) does not type-check, getQueryData(key) is unknown (two copies of the peers\' types; see peersConsumer)');
  out.push(`type checks: ${seconds(typecheckStart)}; total ${seconds(started)}`);
  done();
}

/**
 * `x-validate record` as installed (its helpers from @x/client-core bundled, the package not installed):
 * `record --help`, a recording from the node and price stubs of @x/testing (this process serves them),
 * checked by the same bin, and `--price-base-url` refused without SUPRA_PRICE_API_KEY (exit 2).
 */
async function recordOnce(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; detail: string }> {
  const help = await run(bin, ['record', '--help'], { cwd, env });
  if (help.code !== 0 || !help.stdout.includes('x-validate record --base-url')) return { ok: false, detail: `record --help: exit ${help.code}\n${help.stdout}${help.stderr}` };
  const [node, price] = await Promise.all([startNodeStub({ port: 0 }), startPriceStub({ port: 0 })]);
  try {
    const out = join(cwd, 'recording');
    const args = ['record', '--base-url', node.url, '--address', '0x1', '--out', out, '--price-base-url', price.url];
    const noKey = { ...env };
    delete noKey.SUPRA_PRICE_API_KEY;
    const refused = await run(bin, args, { cwd, env: noKey });
    if (refused.code !== 2 || !refused.stderr.includes('SUPRA_PRICE_API_KEY')) return { ok: false, detail: `without the key: exit ${refused.code}\n${refused.stderr}` };
    // run() resolves when the child exits; the stubs answer from this process's event loop meanwhile.
    const rec = await run(bin, args, { cwd, env: { ...env, SUPRA_PRICE_API_KEY: price.apiKey } });
    if (rec.code !== 0) return { ok: false, detail: `record: exit ${rec.code}\n${rec.stdout}${rec.stderr}` };
    const check = await run(bin, ['--strict', out], { cwd, env });
    const summary = check.stdout.trim().split('\n').at(-1) ?? '';
    const detail = `record --help ok; without the key exit 2; ${rec.stderr.trim().split('\n').at(-1)} (${node.requests.length} node, ${price.requests.length} price requests); --strict: ${summary}`;
    return { ok: check.code === 0 && price.requests.length === 2, detail: check.code === 0 ? detail : `${detail}\n${check.stdout}${check.stderr}` };
  } finally {
    await Promise.all([node.close(), price.close()]);
  }
}

/** Starts `x-stub` on free ports, asks both stubs once, and stops it with SIGTERM (exit 0 expected). */
async function serveOnce(bin: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; detail: string }> {
  const child = spawn(bin, ['--node-port', '0', '--price-port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const deadline = Date.now() + 15_000;
    while (!out.includes('Ctrl-C')) {
      if (child.exitCode !== null || Date.now() > deadline) return { ok: false, detail: `did not start: ${out}` };
      await new Promise((r) => setTimeout(r, 20));
    }
    const node = /node stub:\s+(\S+)/.exec(out)?.[1];
    const price = /price stub:\s+(\S+)/.exec(out)?.[1];
    const statuses = [(await fetch(`${node}/rpc/v2/accounts/0x1`)).status, (await fetch(`${price}/latest`)).status];
    child.kill('SIGTERM');
    const code = await exited;
    return { ok: statuses.join() === '200,200' && code === 0, detail: `GET ${node}/rpc/v2/accounts/0x1 and ${price}/latest: ${statuses.join(', ')}; exit ${code} on SIGTERM` };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Results of one project, printed in one block (the projects run in parallel). */
interface Local {
  passed: string[];
  failed: [string, string][];
}

/** Prints one package's results in one block. */
function report(p: Packed, out: string[], local: Local, tally: Tally): void {
  printBlock(`${p.pkg.name} (installed alone from ${p.tarball.split('/').at(-1)})`, p.pkg.name, out, local, tally);
}

function printBlock(title: string, failurePrefix: string, out: string[], local: Local, tally: Tally): void {
  console.log(`\n${title}`);
  if (out.length) console.log(indent(out.join('\n'), 8));
  for (const label of local.passed) tally.ok(label);
  for (const [label, detail] of local.failed) tally.fail(`${failurePrefix}: ${label}`, detail);
}
