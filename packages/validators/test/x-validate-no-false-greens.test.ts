/**
 * `x-validate` is not green when nothing was checked or the node did not serve the account: a directory
 * with no recording fails, `record` refuses a node that answers the account call with a 4xx (and writes
 * nothing), and a node that cannot be reached is named with the cause and the flag to check. The
 * command is called in-process, against loopback servers of the test's own.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '@x-tools/scripted-server';
import { xValidate } from './cli-run.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'x-validate-greens-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const json = { 'content-type': 'application/json' };
const account = JSON.stringify({ sequence_number: 7, authentication_key: '0x01' });

describe('x-validate <dir>: a directory with no recording fails', () => {
  it('exits 1 on an empty directory, naming it', async () => {
    const dir = join(tmp, 'empty');
    mkdirSync(dir);
    const r = await xValidate([dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`ERROR  (${dir}): no recording (*.har or *.json) found in ${dir}\n`);
    expect(r.stdout).toContain('0 passed, 0 failed, 0 warned, 0 skipped, 1 unreadable');
  });

  it('exits 1 on a directory holding files but no recording', async () => {
    const dir = join(tmp, 'no-recordings');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'not a recording\n');
    writeFileSync(join(dir, 'sub', 'answers.yaml'), 'a: 1\n');
    const r = await xValidate(['--format', 'json', dir]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { results: { source: string; outcome: string; message: string }[] };
    expect(report.results).toEqual([{ source: dir, outcome: 'error', message: `no recording (*.har or *.json) found in ${dir}`, issues: [] }]);
  });

  it('exits 1 when one of the directories given is empty, and still validates the others', async () => {
    const full = join(tmp, 'full');
    const empty = join(tmp, 'empty-too');
    mkdirSync(full);
    mkdirSync(empty);
    writeFileSync(
      join(full, 'a.json'),
      JSON.stringify({ request: { method: 'GET', url: 'http://n/rpc/v2/accounts/0x1' }, response: { status: 200, body: JSON.parse(account) } }),
    );
    const r = await xValidate([full, empty]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`PASS  getAccountV2`);
    expect(r.stdout).toContain(`no recording (*.har or *.json) found in ${empty}`);
    expect(await xValidate([full])).toMatchObject({ code: 0 });
  });
});

describe('x-validate record: a node that rejects the address is not recorded', () => {
  it.each([400, 404])('exits 1 naming the status and the address when getAccount answers %i, and writes nothing', async (status) => {
    const node = await startScriptedServer((_req, res) => res.writeHead(status, json).end('{"message":"no such account"}'));
    try {
      const out = join(tmp, `rejected-${status}`);
      const r = await xValidate(['record', '--base-url', node.url, '--address', '0xabc', '--out', out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `x-validate record: GET ${node.url}/rpc/v1/accounts/0xabc answered ${status}: the node rejected or does not know the address 0xabc; nothing recorded\n`,
      );
      expect(r.stderr).not.toContain('wrote');
      expect(() => readdirSync(out)).toThrow(/ENOENT/);
      expect(node.requests.map((q) => q.url)).toEqual(['/rpc/v1/accounts/0xabc']);
    } finally {
      await node.close();
    }
  });

  it("records the other operations' 4xx answers once the account is served", async () => {
    const node = await startScriptedServer((req, res) => {
      if (/^\/rpc\/v[12]\/accounts\/0xabc$/.test(req.url ?? '')) res.writeHead(200, json).end(account);
      else res.writeHead(404, json).end('{"message":"not found"}');
    });
    try {
      const out = join(tmp, 'other-4xx');
      const r = await xValidate(['record', '--base-url', node.url, '--address', '0xabc', '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      const har = JSON.parse(readFileSync(join(out, '0xabc.har'), 'utf8')) as { log: { entries: { response: { status: number } }[] } };
      const statuses = har.log.entries.map((e) => e.response.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(2);
      expect(statuses.filter((s) => s === 404).length).toBeGreaterThan(0);
    } finally {
      await node.close();
    }
  });
});

describe('x-validate record: a node that cannot be reached', () => {
  it('names the URL and the cause and suggests checking --base-url', async () => {
    const gone = await startScriptedServer((_req, res) => res.end());
    await gone.close();
    const out = join(tmp, 'dead');
    const r = await xValidate(['record', '--base-url', gone.url, '--address', '0x1', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `x-validate record: GET ${gone.url}/rpc/v1/accounts/0x1: fetch failed (ECONNREFUSED); is a node listening at ${gone.url}? Check --base-url\n`,
    );
    expect(() => readdirSync(out)).toThrow(/ENOENT/);
  });

  it('suggests checking --price-base-url when the price service cannot be reached', async () => {
    const node = await startScriptedServer((req, res) => {
      if (/^\/rpc\/v[12]\/accounts\/0x1$/.test(req.url ?? '')) res.writeHead(200, json).end(account);
      else res.writeHead(404, json).end('{}');
    });
    const gone = await startScriptedServer((_req, res) => res.end());
    await gone.close();
    try {
      const r = await xValidate(['record', '--base-url', node.url, '--address', '0x1', '--out', join(tmp, 'dead-price'), '--price-base-url', gone.url], {
        SUPRA_PRICE_API_KEY: 'k',
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `x-validate record: GET ${gone.url}/latest?trading_pair=btc_usdt: fetch failed (ECONNREFUSED); is the price service listening at ${gone.url}? Check --price-base-url\n`,
      );
    } finally {
      await node.close();
    }
  });
});
