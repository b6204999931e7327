import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@x/common';
import { matchOperation } from '../src/cli/match.ts';
import { xValidate } from './cli-run.ts';
import { liveModuleAbi, liveResourceV1, liveTransactionV1 } from './live-bodies.ts';
import { createNodeStubFetch, createPriceStubFetch, startNodeStub, startPriceStub, STUB_ACCOUNTS, DEFAULT_PRICE_API_KEY } from '@x/testing';

// The command runs in-process (./cli-run.ts); x-validate-readme.test.ts spawns the real one once.
const root = join(import.meta.dirname, '..', '..', '..');
const recorded = join(root, 'specs', 'recorded');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'x-validate-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type HarFile = {
  log: { entries: { request: { method: string; url: string; postData?: { text: string } }; response: { status: number; content: { text?: string; encoding?: string } } }[] };
};
const hars = (): string[] => readdirSync(recorded).filter((f) => f.endsWith('.har')).map((f) => join(recorded, f));

describe('matchOperation', () => {
  it.each([
    ['GET', 'http://localhost:27000/rpc/v2/accounts/0x1', 'getAccountV2'],
    ['GET', 'http://localhost:27000/rpc/v1/accounts/0x1', 'getAccountV1'],
    ['GET', 'http://n/rpc/v2/accounts/0x1/transactions?count=5&start=2', 'listTransactionsV2'],
    ['GET', 'http://n/rpc/v1/accounts/0x1/coin_transactions', 'listCoinTransactionsV1'],
    ['GET', 'http://n/rpc/v2/accounts/0x1/modules/coin', 'getModuleV2'],
    ['GET', 'http://n/rpc/v2/accounts/0x1/resources/0x1%3A%3Acoin%3A%3ACoinStore%3C0x1%3A%3Asupra_coin%3A%3ASupraCoin%3E', 'getResourceV2'],
    ['get', 'https://gateway.example/node/rpc/v2/accounts/0x1/resources', 'listResourcesV2'],
    ['GET', '/rpc/v1/accounts/abc/modules', 'listModulesV1'],
    ['GET', 'https://prod-kline-rest.supra.com/history?trading_pair=btc_usdt', 'getHistory'],
    ['GET', 'https://prices.example/v0/latest', 'getLatest'],
    ['GET', 'http://n/rpc/v3/accounts/0x1', 'getAccountV3'],
    ['GET', 'http://n/rpc/v3/accounts/0x1/fa_transactions?count=5&start=17&ascending=true', 'listFungibleAssetTransactionsV3'],
    ['GET', 'http://n/rpc/v3/accounts/0x1/automated_transactions?cursor=abc', 'listAutomatedTransactionsV3'],
    ['GET', 'http://n/rpc/v3/accounts/0x1/resources/0x1%3A%3Aaccount%3A%3AAccount', 'getResourceV3'],
    ['GET', 'http://n/rpc/v3/events/0x1%3A%3Acoin%3A%3ACoinDeposit?limit=5&start=00000000000000070000000100000000', 'listEventsV3'],
    ['GET', 'http://n/rpc/v3/block/height/41?with_finalized_transactions=true', 'getBlockByHeightV3'],
    ['GET', `http://n/rpc/v3/block/0x${'ab'.repeat(32)}/transactions`, 'getBlockTransactionHashesV3'],
    ['GET', 'http://n/rpc/v1/transactions/chain_id', 'getChainIdV1'],
    ['POST', 'http://n/rpc/v3/view', 'viewV3'],
    ['post', 'http://n/rpc/v2/tables/0x1b85/item', 'getTableItemV2'],
  ])('%s %s is %s', (method, url, id) => {
    expect(matchOperation(method, url)?.operationId).toBe(id);
  });

  it.each([
    ['POST', 'http://n/rpc/v2/accounts/0x1'],
    // A version no spec has (not v4: a real v4 read may be added any day).
    ['GET', 'http://n/rpc/v99/accounts/0x1'],
    ['GET', 'http://n/rpc/v3/accounts/0x1/events'],
    ['GET', 'http://n/rpc/v2/accounts/0x1/transactions/extra'],
    ['GET', 'http://n/favicon.ico'],
    ['GET', 'http://n/rpc/v3/view'],
  ])('%s %s matches nothing', (method, url) => {
    expect(matchOperation(method, url)).toBeUndefined();
  });
});

describe('x-validate over recordings', () => {
  // The committed recordings pass in the strict profile (exit 0): `pnpm conformance`, a step of `pnpm check`,
  // runs the built CLI over them; the live profile's drift is read below.

  it('the committed recordings, in both shapes, hold every GET operation of the route table and the view that the stubs have a handler for, each answered 2xx; the others are a reported gap', async () => {
    // The POST reads record sends a body for and the stubs answer (the table item needs a table the seed-1 accounts lack).
    const expected = routes.filter((r) => r.method === 'GET' || r.operationId === 'viewV3' || r.operationId === 'getEventProofsV4');
    // An operation added to the spec is answered by the stubs' generated sample (x-stub-sample) until its
    // handler is written; a recording of it would record the sample, so it is a gap until then, not a failure.
    const stubs = { 'node-rpc': createNodeStubFetch(), 'price-history': createPriceStubFetch() };
    const bySample = new Set<string>();
    for (const r of expected) {
      const res = await stubs[r.service](stubs[r.service].url + r.path.replace(/\{\w+\}/g, '0x1'), { method: r.method });
      if (res.headers.get('x-stub-sample') === 'true') bySample.add(r.operationId);
    }
    for (const folder of [recorded, join(root, 'specs', 'recorded-live')]) {
      const entries = readdirSync(folder)
        .filter((f) => f.endsWith('.har'))
        .flatMap((f) => (JSON.parse(readFileSync(join(folder, f), 'utf8')) as HarFile).log.entries);
      const ok = entries.filter((e) => e.response.status >= 200 && e.response.status <= 299);
      const have = new Set(ok.map((e) => matchOperation(e.request.method, e.request.url)?.operationId));
      const gaps = expected.map((r) => r.operationId).filter((id) => !have.has(id) && bySample.has(id));
      expect([...have].sort(), `${folder}: run \`pnpm recordings\` after writing a stub handler`).toEqual(expected.map((r) => r.operationId).filter((id) => !gaps.includes(id)).sort());
      if (gaps.length > 0) console.warn(`${folder}: no recording yet of ${gaps.join(', ')} (the stubs answer them by a sample until their handlers are written)`);
    }
  });

  it('finds only known drift in the live recordings, every overlay action a body can show, and no violation', async () => {
    const r = await xValidate(['--strict', '--profile', 'live', '--format', 'json', join(root, 'specs', 'recorded-live')]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { summary: Record<string, number>; results: { class?: string; actions?: string[] }[] };
    expect(report.summary.fail).toBe(0);
    expect(report.summary.warn).toBeGreaterThan(0);
    expect(report.results.some((x) => x.class === 'violation')).toBe(false);
    const seen = new Set(report.results.flatMap((x) => x.actions ?? []));
    // Every action but error-body (error statuses accept any body, so their drift is never a failure).
    expect([...seen].sort()).toEqual(
      ['event-guid', 'event-sequence-number', 'module-friends', 'module-functions', 'module-name', 'module-structs', 'sender', 'timestamp', 'v1-list-cursor', 'v1-resource-value'],
    );
  });

  it('fails a corrupted recording with the JSON pointer of the fault (exit 1)', async () => {
    const isMovePage = (e: HarFile['log']['entries'][number]): boolean =>
      /\/rpc\/v2\/accounts\/[^/]+\/transactions\?/.test(e.request.url) && (e.response.content.text ?? '').includes('"Move"');
    const har = hars()
      .map((f) => JSON.parse(readFileSync(f, 'utf8')) as HarFile)
      .find((h) => h.log.entries.some(isMovePage))!;
    const i = har.log.entries.findIndex(isMovePage);
    const entry = har.log.entries[i]!;
    const body = JSON.parse(entry.response.content.text!) as { record: { output: { Move?: { gas_used: unknown } } }[] };
    const k = body.record.findIndex((t) => t.output && typeof t.output === 'object' && 'Move' in t.output);
    body.record[k]!.output.Move!.gas_used = 'lots';
    entry.response.content.text = JSON.stringify(body);
    const file = join(dir, 'corrupted.har');
    writeFileSync(file, JSON.stringify(har));

    const r = await xValidate(['--strict', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL {2}listTransactionsV2 GET .*: violation/);
    expect(r.stdout).toContain(`/record/${k}/output/Move/gas_used: must be integer [type]`);
    expect(r.stdout).toMatch(/1 failed/);
  });

  it('tells strict from lenient: an unknown property fails only with --strict', async () => {
    const file = join(dir, 'extra.json');
    writeFileSync(file, JSON.stringify({ request: { method: 'GET', url: 'http://n/rpc/v2/accounts/0x1' }, response: { status: 200, body: { sequence_number: 1, authentication_key: '0xab', extra: true } } }));
    expect((await xValidate([file])).code).toBe(0);
    const strict = await xValidate(['--strict', file]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('/extra:');
  });

  it('reads envelopes, arrays of envelopes, base64 HAR bodies and reports json and junit', async () => {
    const envelopes = join(dir, 'envelopes.json');
    writeFileSync(
      envelopes,
      JSON.stringify([
        { request: { method: 'GET', url: 'http://n/rpc/v1/accounts/0x9' }, response: { status: 200, body: null } },
        { request: { method: 'GET', url: 'http://n/rpc/v2/accounts/0x1' }, response: { status: 200, body: { sequence_number: -1, authentication_key: '0xab' } } },
      ]),
    );
    const b64 = join(dir, 'b64.har');
    const text = Buffer.from(JSON.stringify({ sequence_number: 3, authentication_key: '0xab' })).toString('base64');
    writeFileSync(b64, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [{ request: { method: 'GET', url: 'http://n/rpc/v2/accounts/0x1' }, response: { status: 200, content: { mimeType: 'application/json', text, encoding: 'base64' } } }] } }));

    const json = await xValidate(['--format', 'json', envelopes, b64]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { summary: Record<string, number>; results: { outcome: string; operationId?: string; issues: { path: string; keyword: string }[] }[] };
    expect(report.summary).toEqual({ pass: 2, fail: 1, warn: 0, skip: 0, error: 0 });
    const failure = report.results.find((x) => x.outcome === 'fail')!;
    expect(failure.operationId).toBe('getAccountV2');
    expect(failure.issues[0]).toMatchObject({ path: '/sequence_number', keyword: 'minimum' });

    const junit = await xValidate(['--format', 'junit', envelopes]);
    expect(junit.code).toBe(1);
    expect(junit.stdout).toMatch(/^<\?xml/);
    expect(junit.stdout).toContain('<testsuite name="x-validate" tests="2" failures="1" errors="0" skipped="0">');
    expect(junit.stdout).toContain('<failure message="violation: /sequence_number: must be &gt;= 0" type="violation">');
  });

  it('reports unknown paths as skipped and unreadable inputs as errors, without crashing', async () => {
    const unknown = join(dir, 'unknown.json');
    writeFileSync(unknown, JSON.stringify({ request: { method: 'GET', url: 'http://n/favicon.ico' }, response: { status: 200, body: {} } }));
    const skipped = await xValidate([unknown]);
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain('SKIP');

    const broken = join(dir, 'broken.har');
    writeFileSync(broken, '{"log": {"entries": [');
    const shape = join(dir, 'shape.json');
    writeFileSync(shape, JSON.stringify({ hello: 'world' }));
    const r = await xValidate([broken, shape, join(dir, 'missing.har')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ERROR .*missing\.har.*cannot read: ENOENT/);
    expect(r.stdout).toMatch(/ERROR .*broken\.har.*not JSON/);
    expect(r.stdout).toMatch(/ERROR .*shape\.json.*neither a HAR 1\.2 log nor an envelope/);
    expect(r.stderr).toBe('');
  });

  it.each([[[]], [['--format', 'xml', 'x.har']], [['record', '--address', '0x1']]])('exits 2 with usage for bad arguments %j', async (args) => {
    const r = await xValidate(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage:');
  });

  it.each([
    [['--format', 'xml', 'x.har'], 'x-validate: --format must be one of text, json, junit, got "xml"'],
    [[], 'x-validate: no files or directories to validate'],
  ])('says why before the usage: %j (issue 37.10)', async (args, why) => {
    const r = await xValidate(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(why);
  });
});

describe('x-validate: known drift and violations', () => {
  const envelope = (url: string, body: unknown) => ({ request: { method: 'GET', url: `http://node${url}` }, response: { status: 200, body } });
  const broken = structuredClone(liveTransactionV1);
  (broken.header as Record<string, unknown>).sender = { Move: 42 };
  let drift: string;
  let both: string;
  beforeAll(() => {
    drift = join(dir, 'drift.json');
    writeFileSync(
      drift,
      JSON.stringify([
        envelope('/rpc/v1/accounts/0x1/transactions', { record: [liveTransactionV1] }),
        envelope('/rpc/v2/accounts/0x1/modules/acl', { bytecode: '0xa11ceb0b', abi: liveModuleAbi }),
        envelope('/rpc/v1/accounts/0x1/resources/0x1%3A%3Acoin%3A%3ACoinStore', liveResourceV1),
        envelope('/rpc/v2/accounts/0x1', { sequence_number: 1, authentication_key: '0xab' }),
      ]),
    );
    both = join(dir, 'violation.json');
    writeFileSync(both, JSON.stringify([envelope('/rpc/v1/accounts/0x1/transactions', { record: [liveTransactionV1, broken] })]));
  });

  it('names known drift and its overlay actions, and fails on it by default (documented profile)', async () => {
    const r = await xValidate(['--strict', drift]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL  listTransactionsV1 GET http://node/rpc/v1/accounts/0x1/transactions -> 200 (');
    expect(r.stdout).toContain('known drift (overlay: timestamp, sender, event-guid, event-sequence-number)');
    expect(r.stdout).toContain('known drift (overlay: module-name, module-friends, module-functions, module-structs)');
    expect(r.stdout).toContain('known drift (overlay: v1-resource-value)');
    expect(r.stdout).toContain('/record/0/block_header/timestamp/timestamp: required property "timestamp" is missing [required]');
    expect(r.stdout).toMatch(/1 passed, 3 failed, 0 warned, 0 skipped, 0 unreadable \(3 known drift, 0 violations\)/);
  });

  it('passes known drift with --profile live or --drift-as-warning (exit 0), as warnings', async () => {
    for (const flags of [['--profile', 'live'], ['--drift-as-warning']]) {
      const r = await xValidate(['--strict', ...flags, drift]);
      expect(r.code, flags.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/WARN {2}getModuleV2 .*known drift \(overlay: module-name/);
      expect(r.stdout).toMatch(/1 passed, 0 failed, 3 warned/);
    }
  });

  it('fails a violation under every profile, with the issue of the live reading under --profile live', async () => {
    const documented = await xValidate(['--strict', '--drift-as-warning', both]);
    expect(documented.code).toBe(1);
    expect(documented.stdout).toMatch(/FAIL {2}listTransactionsV1 .*: violation/);
    expect(documented.stdout).toContain('/record/1/header/sender: must be string [type]');
    const live = await xValidate(['--strict', '--profile', 'live', both]);
    expect(live.code).toBe(1);
    expect(live.stdout).toContain('/record/1/header/sender/Move: must be string (neither the documented nor the observed form fits; closest: the observed form; overlay action sender) [type]');
    expect(live.stdout).toMatch(/\(0 known drift, 1 violations\)/);
  });

  it('carries the class and the action ids in JSON and JUnit', async () => {
    const json = await xValidate(['--format', 'json', '--profile', 'live', drift, both]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { summary: Record<string, number>; results: { outcome: string; class?: string; actions?: string[]; operationId?: string }[] };
    expect(report.summary).toEqual({ pass: 1, fail: 1, warn: 3, skip: 0, error: 0 });
    expect(report.results.filter((x) => x.class).map((x) => [x.operationId, x.outcome, x.class, x.actions])).toEqual([
      ['listTransactionsV1', 'warn', 'known-drift', ['timestamp', 'sender', 'event-guid', 'event-sequence-number']],
      ['getModuleV2', 'warn', 'known-drift', ['module-name', 'module-friends', 'module-functions', 'module-structs']],
      ['getResourceV1', 'warn', 'known-drift', ['v1-resource-value']],
      // The violation's drift issues name their actions (record 0 is in the live shapes).
      ['listTransactionsV1', 'fail', 'violation', ['timestamp', 'sender', 'event-guid', 'event-sequence-number']],
    ]);
    const junit = await xValidate(['--format', 'junit', drift, both]);
    expect(junit.stdout).toContain('failures="4"');
    expect(junit.stdout).toContain('type="known-drift"');
    expect(junit.stdout).toContain('type="violation"');
    const warned = await xValidate(['--format', 'junit', '--drift-as-warning', drift]);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain('failures="0"');
    expect(warned.stdout).toContain('<system-out>WARNING known drift (overlay: v1-resource-value)');
  });

  it('exits 2 for a bad --profile', async () => {
    const r = await xValidate(['--profile', 'contract', drift]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--profile must be documented or live, got "contract"');
  });
});

describe('x-validate record', () => {
  it('records every operation of the route table (the view and table item POSTs too), with the key redacted, and the result validates', async () => {
    const [node, price] = await Promise.all([startNodeStub({ port: 0, seed: 7 }), startPriceStub({ port: 0, seed: 7 })]);
    try {
      const out = join(dir, 'rec');
      const r = await xValidate(
        // 40 a page: the publisher's registry (its table) is among the resources recorded.
        // --fund-from-faucet: the faucet too (a GET that changes the chain, skipped without it).
        ['record', '--base-url', node.url, '--address', STUB_ACCOUNTS.publisher, '--out', out, '--count', '40', '--price-base-url', price.url, '--fund-from-faucet'],
        { SUPRA_PRICE_API_KEY: DEFAULT_PRICE_API_KEY },
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/\[1\] GET .*\/rpc\/v1\/accounts\//);
      const [file] = readdirSync(out);
      const har = readFileSync(join(out, file!), 'utf8');
      expect(har).not.toContain(DEFAULT_PRICE_API_KEY);
      expect(price.requests.filter((q) => q.url.startsWith('/history')).every((q) => q.headers['x-api-key'] === DEFAULT_PRICE_API_KEY)).toBe(true);
      const entries = (JSON.parse(har) as HarFile).log.entries;
      const ids = entries.map((e) => matchOperation(e.request.method, e.request.url)?.operationId);
      // Every GET operation of the route table, of both services (the publisher has modules and resources to
      // name, transactions whose hash and events to read; the latest block names a height and a hash), and
      // the POSTs: the view, and the table item of the publisher's registry.
      expect([...new Set(ids)].sort()).toEqual(routes.map((r) => r.operationId).sort());
      expect(r.stderr.split('\n').filter((l) => l.startsWith('skipped'))).toEqual([]);
      // Every answer of the node is a 2xx: the values record reads from one answer fill another's path.
      expect(entries.filter((e) => e.response.status >= 300).map((e) => `${e.request.method} ${e.request.url} ${e.response.status}`)).toEqual([]);
      expect(entries.find((e) => e.request.method === 'POST' && e.request.url.endsWith('/view'))?.request.postData?.text).toBe(
        '{"function":"0x1::timestamp::now_microseconds","type_arguments":[],"arguments":[]}',
      );
      const check = await xValidate(['--strict', out]);
      expect(check.code).toBe(0);
      cpSync(out, join(dir, 'rec-copy'), { recursive: true });
    } finally {
      await Promise.all([node.close(), price.close()]);
    }
  });
});
