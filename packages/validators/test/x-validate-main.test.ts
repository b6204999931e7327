/**
 * `x-validate`'s command, called in-process with captured output: what a recording that a server keeps
 * from completing exits with and says, and the `--timeout-ms` flag.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, startSilentServer } from '@x-tools/scripted-server';
import { DEFAULT_RECORD_TIMEOUT_MS, RECORD_OPTIONS } from '../src/cli/options.ts';
import { xValidate } from './cli-run.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'x-validate-main-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('x-validate record: --timeout-ms and failed recordings', () => {
  it('defaults --timeout-ms to 30 s', () => {
    expect(DEFAULT_RECORD_TIMEOUT_MS).toBe(30_000);
    expect(RECORD_OPTIONS['timeout-ms'].default).toBe('30000');
  });

  it.each(['0', '-5', '1.5', 'soon', ''])('exits 2 with usage for --timeout-ms %j', async (value) => {
    const r = await xValidate(['record', '--base-url', 'http://127.0.0.1:9', '--address', '0x1', `--timeout-ms=${value}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--timeout-ms must be a whole number of milliseconds, at least 1, got ${JSON.stringify(value)}`);
    expect(r.stderr).toContain('Usage:');
  });

  it('exits 1 naming the timeout when the node never answers, and writes nothing', async () => {
    const silent = await startSilentServer();
    try {
      const out = join(tmp, 'silent');
      const r = await xValidate(['record', '--base-url', silent.url, '--address', '0x1', '--out', out, '--timeout-ms', '200']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`x-validate record: GET ${silent.url}/rpc/v1/accounts/0x1: no complete answer within 200 ms (--timeout-ms)\n`);
      expect(() => readdirSync(out)).toThrow(/ENOENT/);
    } finally {
      await silent.close();
    }
  });

  it('exits 1 naming the other origin when a keyed request is redirected there, which gets nothing', async () => {
    const other = await startScriptedServer((_req, res) => res.writeHead(200).end('{}'));
    const node = await startScriptedServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const price = await startScriptedServer((_req, res) => res.writeHead(302, { location: `${other.url}/latest` }).end());
    try {
      const r = await xValidate(
        ['record', '--base-url', node.url, '--address', '0x1', '--out', join(tmp, 'redirect'), '--price-base-url', price.url],
        { SUPRA_PRICE_API_KEY: 'k-1234' },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`x-validate record: GET ${price.url}/latest?trading_pair=btc_usdt: redirect not followed: it leads to another origin (${other.url})`);
      expect(other.requests).toEqual([]);
    } finally {
      await Promise.all([other.close(), node.close(), price.close()]);
    }
  });
});
