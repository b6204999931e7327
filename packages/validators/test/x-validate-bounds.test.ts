/**
 * `x-validate` stays bounded: `record` writes at most `--max-total-bytes` and runs at most `--deadline-ms`
 * (stopping there, it writes what it recorded, a valid HAR, and exits 1 naming the limit), and a
 * recording larger than `--max-file-bytes` is not read. Small limits through the flags, in-process.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '@x-tools/scripted-server';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_RECORD_DEADLINE_MS, DEFAULT_RECORD_MAX_TOTAL_BYTES, RECORD_OPTIONS, VALIDATE_OPTIONS } from '../src/cli/options.ts';
import { xValidate } from './cli-run.ts';

let tmp: string;
let node: NodeStubHandle;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'x-validate-bounds-'));
  node = await startNodeStub({ port: 0 });
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await node.close();
});

const alice = STUB_ACCOUNTS.alice;
const harOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: { request: { url: string } }[] } };

describe('x-validate record: --max-total-bytes', () => {
  it('defaults to 128 MiB, and --deadline-ms to 5 minutes', () => {
    expect(DEFAULT_RECORD_MAX_TOTAL_BYTES).toBe(128 * 1024 * 1024);
    expect(RECORD_OPTIONS['max-total-bytes'].default).toBe(String(128 * 1024 * 1024));
    expect(DEFAULT_RECORD_DEADLINE_MS).toBe(300_000);
    expect(RECORD_OPTIONS['deadline-ms'].default).toBe('300000');
  });

  it('stops at the limit, writes the entries recorded before it (a valid HAR no larger than the limit) and exits 1 naming it', async () => {
    const out = join(tmp, 'total');
    const r = await xValidate(['record', '--base-url', node.url, '--address', alice, '--out', out, '--max-total-bytes', '40000']);
    expect(r.code).toBe(1);
    const file = join(out, `${alice}.har`);
    expect(r.stderr).toMatch(/x-validate record: the recording reached --max-total-bytes \(40000 bytes in all\): the answer to GET http:\S+ would take it past; wrote the (\d+) entries recorded before it to \S+\.har, a partial recording\n$/);
    const written = Number(/wrote the (\d+) entries/.exec(r.stderr)![1]);
    expect(written).toBeGreaterThan(0);
    expect(statSync(file).size).toBeLessThanOrEqual(40_000);
    expect(harOf(file).log.entries).toHaveLength(written);
    // What it wrote is a recording x-validate reads and passes.
    const check = await xValidate(['--strict', file]);
    expect([check.code, check.stderr]).toEqual([0, '']);
  });

  it('a whole recording under the limit is written as before', async () => {
    const out = join(tmp, 'whole');
    const r = await xValidate(['record', '--base-url', node.url, '--address', alice, '--out', out, '--max-total-bytes', String(64 * 1024 * 1024)]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote \d+ entries to /);
  });

  it('a first answer larger than the limit: exits 1 naming it, nothing written', async () => {
    const big = await startScriptedServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pad: 'x'.repeat(5000) })));
    try {
      const out = join(tmp, 'first');
      const r = await xValidate(['record', '--base-url', big.url, '--address', '0x1', '--out', out, '--max-total-bytes', '2000']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the recording reached --max-total-bytes (2000 bytes in all)');
      expect(r.stderr).toContain('; nothing recorded');
      expect(() => readdirSync(out)).toThrow(/ENOENT/);
    } finally {
      await big.close();
    }
  });

  it.each([
    ['max-total-bytes', 'bytes', '0'],
    ['max-total-bytes', 'bytes', 'lots'],
    ['deadline-ms', 'milliseconds', '-1'],
    ['deadline-ms', 'milliseconds', '1.5'],
  ])('exits 2 with usage for --%s (in %s) %j', async (flag, unit, value) => {
    const r = await xValidate(['record', '--base-url', 'http://127.0.0.1:9', '--address', '0x1', `--${flag}=${value}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--${flag} must be a whole number of ${unit}, at least 1, got ${JSON.stringify(value)}`);
  });
});

describe('x-validate record: --deadline-ms', () => {
  it('stops a recording a slow node holds, writes what it has and exits 1 naming the deadline', async () => {
    // Three answers, then none: each later request would wait out its whole --timeout-ms.
    let answered = 0;
    const stalls = await startScriptedServer((_req, res) => {
      if (answered++ < 3) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    try {
      const out = join(tmp, 'deadline');
      const r = await xValidate(['record', '--base-url', stalls.url, '--address', '0x1', '--out', out, '--timeout-ms', '60000', '--deadline-ms', '1000']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/x-validate record: the recording reached --deadline-ms \(1000 ms in all\) during GET http:\S+; wrote the 3 entries recorded before it to \S+\.har, a partial recording\n$/);
      expect(harOf(join(out, '0x1.har')).log.entries).toHaveLength(3);
    } finally {
      await stalls.close();
    }
  });
});

describe('x-validate: --max-file-bytes', () => {
  const envelope = { request: { method: 'GET', url: 'http://localhost:27000/rpc/v1/transactions/chain_id' }, response: { status: 200, body: 6 } };

  it('defaults to 256 MiB', () => {
    expect(DEFAULT_MAX_FILE_BYTES).toBe(256 * 1024 * 1024);
    expect(VALIDATE_OPTIONS['max-file-bytes'].default).toBe(String(256 * 1024 * 1024));
  });

  it('a recording larger than the limit is an error naming the file and the limit; one within it is read', async () => {
    const dir = mkdtempSync(join(tmp, 'files-'));
    const text = JSON.stringify(envelope);
    writeFileSync(join(dir, 'small.json'), text);
    writeFileSync(join(dir, 'large.json'), JSON.stringify({ ...envelope, pad: 'x'.repeat(500) }));
    const r = await xValidate(['--format', 'json', '--max-file-bytes', String(text.length), 'small.json', 'large.json'], {}, dir);
    expect(r.code).toBe(1);
    const { results } = JSON.parse(r.stdout) as { results: { source: string; outcome: string; message?: string }[] };
    expect(results.map((x) => [x.source, x.outcome])).toEqual([
      ['small.json', 'pass'],
      ['large.json', 'error'],
    ]);
    expect(results[1]!.message).toBe(`larger than ${text.length} bytes, the most x-validate reads of one recording (--max-file-bytes); not read`);
  });

  it('stops reading a file that never ends at the limit', async () => {
    const r = await xValidate(['--max-file-bytes', '100000', '/dev/zero']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('/dev/zero');
    expect(r.stdout).toContain('larger than 100000 bytes');
  });

  it.each(['0', 'big'])('exits 2 with usage for --max-file-bytes %j', async (value) => {
    const r = await xValidate([`--max-file-bytes=${value}`, 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--max-file-bytes must be a whole number of bytes, at least 1, got ${JSON.stringify(value)}`);
  });
});
