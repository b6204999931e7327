/**
 * Conformance of a recording's header cursors: a request to a v3 listing whose next page's start is the
 * `x-supra-cursor` response header must send a cursor an earlier recorded response of that listing (same
 * path parameters) gave in that header; `x-validate` fails the entry otherwise, naming the cursor. The
 * command is called in-process on recordings written by the test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xValidate } from './cli-run.ts';
import { okBodies, userTransactionV3 } from './fixtures.js';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'x-validate-cursors-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const node = 'http://localhost:27000/rpc';
/** A HAR entry: the request's URL, the response's status, headers and JSON body. */
const entry = (url: string, body: unknown, headers: Record<string, string> = {}, status = 200) => ({
  request: { method: 'GET', url, headers: [], queryString: [] },
  response: {
    status,
    headers: Object.entries({ 'content-type': 'application/json', 'x-supra-chain-id': '6', ...headers }).map(([name, value]) => ({ name, value })),
    content: { mimeType: 'application/json', text: JSON.stringify(body) },
  },
});
const har = (entries: unknown[]): string => {
  const file = join(tmp, `${Math.random().toString(36).slice(2)}.har`);
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries } }));
  return file;
};
type Report = { results: { outcome: string; operationId?: string; message?: string; url?: string }[] };
const page = [userTransactionV3];

describe('x-validate: a header cursor must come from an earlier recorded header', () => {
  it('passes cursors the recording was given, under the rule start name, for the same account', async () => {
    const file = har([
      entry(`${node}/v3/accounts/0x1/coin_transactions?count=1`, page, { 'x-supra-cursor': '17' }),
      entry(`${node}/v3/accounts/0x1/coin_transactions?count=1&start=17`, page, { 'X-Supra-Cursor': '12' }),
      entry(`${node}/v3/accounts/0x1/coin_transactions?count=1&start=12&ascending=true`, page, { 'x-supra-cursor': '' }),
      entry(`${node}/v3/accounts/0x1/automated_transactions?count=1`, page, { 'x-supra-cursor': 'b:7' }),
      entry(`${node}/v3/accounts/0x1/automated_transactions?count=1&cursor=b%3A7`, page),
      entry(`${node}/v3/accounts/0x1/modules?count=1`, okBodies.listModulesV3, { 'x-supra-cursor': 'm2' }),
      entry(`${node}/v3/accounts/0x1/modules?start=m2&count=1`, okBodies.listModulesV3),
      // a sequence-number start is a value a client may choose: not checked
      entry(`${node}/v3/accounts/0x1/transactions?count=1&start=5&ascending=true`, page),
      entry(`${node}/v2/accounts/0x1/transactions?count=1&start=5`, okBodies.listTransactionsV2),
    ]);
    const r = await xValidate(['--strict', file]);
    expect(r.stdout).toContain('x-validate: 9 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('fails a cursor no earlier response gave: made up, given later, of another account, or from an error answer', async () => {
    const file = har([
      entry(`${node}/v3/accounts/0x1/coin_transactions?count=1&start=99`, page),
      entry(`${node}/v3/accounts/0x1/coin_transactions?count=1`, page, { 'x-supra-cursor': '99' }),
      entry(`${node}/v3/accounts/0x2/coin_transactions?count=1&start=99`, page),
      entry(`${node}/v3/accounts/0x1/fa_transactions?count=1&start=99`, page),
      entry(`${node}/v3/accounts/0x1/resources?count=1`, { message: 'busy' }, { 'x-supra-cursor': 'r2' }, 500),
      entry(`${node}/v3/accounts/0x1/resources?count=1&start=r2`, okBodies.listResourcesV3),
      entry(`${node}/v3/accounts/0x1/automated_transactions?count=1&cursor=${'c'.repeat(100)}`, [{ ...userTransactionV3, hash: 7 }]),
    ]);
    const r = await xValidate(['--format', 'json', file]);
    expect(r.code).toBe(1);
    const results = (JSON.parse(r.stdout) as Report).results;
    expect(results.map((x) => x.outcome)).toEqual(['fail', 'pass', 'fail', 'fail', 'pass', 'fail', 'fail']);
    expect(results[0]!.message).toBe(
      'the cursor start="99" was not given by the x-supra-cursor header of an earlier recorded response of listCoinTransactionsV3 ' +
        'for these path parameters (a cursor is taken from that header, never built)',
    );
    expect(results[3]!.message).toContain('of listFungibleAssetTransactionsV3');
    expect(results[5]!.message).toContain('the cursor start="r2"');
    // a body that fails too keeps its issues; the cursor, shown shortened, is named beside them
    expect(results[6]).toMatchObject({ class: 'violation', message: expect.stringContaining(`cursor=${JSON.stringify(`${'c'.repeat(64)}...`)}`) });
    const text = await xValidate([file]);
    expect(text.stdout).toContain('FAIL  listCoinTransactionsV3 GET http://localhost:27000/rpc/v3/accounts/0x1/coin_transactions?count=1&start=99 -> 200');
    expect(text.stdout).toContain('      the cursor start="99" was not given');
  });

  it('reads the headers of JSON envelopes too, and keeps each recording to itself', async () => {
    const first = join(tmp, 'first.json');
    const second = join(tmp, 'second.json');
    const envelope = (url: string, headers?: Record<string, string>) => ({ request: { method: 'GET', url }, response: { status: 200, ...(headers && { headers }), body: page } });
    writeFileSync(first, JSON.stringify([envelope(`${node}/v3/accounts/0x1/coin_transactions`, { 'x-supra-cursor': '5' }), envelope(`${node}/v3/accounts/0x1/coin_transactions?start=5`)]));
    writeFileSync(second, JSON.stringify([envelope(`${node}/v3/accounts/0x1/coin_transactions?start=5`)]));
    expect((await xValidate([first])).code).toBe(0);
    const r = await xValidate(['--format', 'json', first, second]);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as Report).results.map((x) => x.outcome)).toEqual(['pass', 'pass', 'fail']);
  });
});
