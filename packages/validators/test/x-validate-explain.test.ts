/**
 * x-validate explains itself: every issue carries its class (known drift with its overlay action ids,
 * or violation), on mixed entries too; every issue shows the offending value, shortened, with secrets
 * redacted; `record` refuses a price service without a key. The command in-process (as main.ts runs
 * it, with only the environment each test gives), real files, real stubs.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, startPriceStub, STUB_ACCOUNTS } from '@x/testing';
import { PRICE_KEY_ENV } from '../src/cli/options.ts';
import { preview, valueAt, VALUE_PREVIEW_LENGTH } from '../src/cli/value.ts';
import { xValidate } from './cli-run.ts';
import { liveTransactionV1 } from './live-bodies.ts';

type JsonIssue = { path: string; message: string; keyword: string; class: string; actions?: string[]; value: string; valueAt?: string };
type JsonResult = { outcome: string; class?: string; actions?: string[]; operationId?: string; url?: string; issues: JsonIssue[] };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'x-validate-explain-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envelope = (url: string, body: unknown) => ({ request: { method: 'GET', url: `http://node${url}` }, response: { status: 200, body } });
const write = (name: string, content: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
};

describe('x-validate: the class of every issue', () => {
  // Record 0 in the live shapes (known drift only); record 1 the same but with a sender that fits
  // neither form (a violation), so the entry holds both.
  const broken = structuredClone(liveTransactionV1);
  (broken.header as Record<string, unknown>).sender = { Move: 42 };
  let mixed: string;
  beforeAll(() => {
    mixed = write('mixed.json', [envelope('/rpc/v1/accounts/0x1/transactions', { record: [liveTransactionV1, broken] })]);
  });

  it.each(['documented', 'live'])('a mixed entry (%s profile): a violation whose drift issues are labelled known drift with their actions', async (profile) => {
    const r = await xValidate(['--strict', '--format', 'json', '--profile', profile, mixed]);
    expect(r.code).toBe(1);
    const [entry] = (JSON.parse(r.stdout) as { results: JsonResult[] }).results;
    expect(entry!.class).toBe('violation');
    expect(entry!.actions).toEqual(['timestamp', 'sender', 'event-guid', 'event-sequence-number']);
    for (const i of entry!.issues) expect(['known-drift', 'violation']).toContain(i.class);
    const drift = entry!.issues.filter((i) => i.class === 'known-drift');
    const violations = entry!.issues.filter((i) => i.class === 'violation');
    // Record 0's sender and record 1's timestamp are drift; record 1's sender is not.
    expect(drift.find((i) => i.path === '/record/0/header/sender')).toMatchObject({ actions: ['sender'] });
    expect(drift.some((i) => i.path.startsWith('/record/1/block_header/timestamp') && i.actions?.includes('timestamp'))).toBe(true);
    expect(drift.some((i) => i.path.startsWith('/record/1/header/sender'))).toBe(false);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((i) => i.path.startsWith('/record/1/header/sender') && i.actions === undefined)).toBe(true);
    const sender = profile === 'live' ? '/record/1/header/sender/Move' : '/record/1/header/sender';
    expect(violations.find((i) => i.path === sender)).toMatchObject({ value: profile === 'live' ? '42' : '{"Move":42}' });
  });

  it('labels each issue line in the text report, and the entry as a violation with known drift', async () => {
    const r = await xValidate(['--strict', mixed]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(': violation (and known drift, overlay: timestamp, sender, event-guid, event-sequence-number)');
    expect(r.stdout).toMatch(/\/record\/0\/header\/sender: must be string \[type\]; known drift \(overlay: sender\); value \{"Move":"0x[0-9a-f]+"\}/);
    expect(r.stdout).toContain('/record/1/header/sender: must be string [type]; violation; value {"Move":42}');
    const issueLines = r.stdout.split('\n').filter((l) => l.startsWith('      /'));
    expect(issueLines.length).toBeGreaterThan(2);
    for (const l of issueLines) expect(l).toMatch(/; (known drift \(overlay: [a-z0-9-, ]+\)|violation); (value |absent; value at )/);
  });

  it('known drift alone: every issue known drift with actions; JUnit carries the classes and values', async () => {
    const file = write('drift.json', [envelope('/rpc/v1/accounts/0x1/transactions', { record: [liveTransactionV1] })]);
    const json = await xValidate(['--strict', '--format', 'json', file]);
    const [entry] = (JSON.parse(json.stdout) as { results: JsonResult[] }).results;
    expect(entry!.class).toBe('known-drift');
    expect(entry!.issues.every((i) => i.class === 'known-drift' && (i.actions ?? []).length > 0)).toBe(true);
    const junit = await xValidate(['--strict', '--format', 'junit', file, mixed]);
    expect(junit.stdout).toContain('; known drift (overlay: timestamp); ');
    expect(junit.stdout).toContain('/record/1/header/sender: must be string [type]; violation; value {&quot;Move&quot;:42}');
  });
});

describe('x-validate: the offending value', () => {
  it('shows a missing property as absent, with the object above it', async () => {
    const file = write('absent.json', envelope('/rpc/v2/accounts/0x1', { authentication_key: '0x01' }));
    const r = await xValidate(['--format', 'json', file]);
    const issue = (JSON.parse(r.stdout) as { results: JsonResult[] }).results[0]!.issues[0]!;
    expect(issue).toMatchObject({ path: '/sequence_number', keyword: 'required', class: 'violation', valueAt: '', value: '{"authentication_key":"0x01"}' });
    expect((await xValidate([file])).stdout).toContain('/sequence_number: required property "sequence_number" is missing [required]; violation; absent; value at /: {"authentication_key":"0x01"}');
  });

  it(`shortens long values to ${VALUE_PREVIEW_LENGTH} characters`, async () => {
    const long = `zz${'ab'.repeat(5_000)}`;
    const file = write('long.json', envelope('/rpc/v2/accounts/0x1', { sequence_number: 1, authentication_key: long }));
    const r = await xValidate(['--format', 'json', file]);
    const issue = (JSON.parse(r.stdout) as { results: JsonResult[] }).results[0]!.issues[0]!;
    expect(issue.path).toBe('/authentication_key');
    expect(issue.value).toHaveLength(VALUE_PREVIEW_LENGTH);
    expect(issue.value).toBe(`${JSON.stringify(long).slice(0, VALUE_PREVIEW_LENGTH - 3)}...`);
  });

  it('redacts secret-looking properties, the price key wherever it appears, and secrets in URLs', async () => {
    const key = 'k-4f1c9a-secret-value';
    const file = write('secrets.json', [
      { request: { method: 'GET', url: 'https://u:p@node/rpc/v2/accounts/0x1?api_key=abc' }, response: { status: 200, body: { token: 'tok-123', nested: { 'x-api-key': 'hdr-456' } } } },
      envelope('/rpc/v2/accounts/0x1', { sequence_number: 1, authentication_key: `0x${key}` }),
    ]);
    const r = await xValidate(['--format', 'json', file], { [PRICE_KEY_ENV]: key });
    expect(r.code).toBe(1);
    for (const secret of [key, 'tok-123', 'hdr-456', 'api_key=abc', 'u:p@']) expect(r.stdout).not.toContain(secret);
    const [first, second] = (JSON.parse(r.stdout) as { results: JsonResult[] }).results;
    expect(first!.url).toBe('https://node/rpc/v2/accounts/0x1?api_key=[REDACTED]');
    expect(first!.issues[0]).toMatchObject({ valueAt: '', value: '{"token":"[REDACTED]","nested":{"x-api-key":"[REDACTED]"}}' });
    expect(second!.issues[0]!.value).toBe('"0x[REDACTED]"');
    const text = await xValidate([file], { [PRICE_KEY_ENV]: key });
    for (const secret of [key, 'tok-123', 'hdr-456']) expect(text.stdout).not.toContain(secret);
  });

  it('preview and valueAt', () => {
    expect(preview({ a: [1, 'two', null], b: true })).toBe('{"a":[1,"two",null],"b":true}');
    expect(preview('x'.repeat(200))).toBe(`"${'x'.repeat(VALUE_PREVIEW_LENGTH - 4)}...`);
    expect(preview({ password: 'p', authentication_key: '0x1', apiKey: 'k' })).toBe('{"password":"[REDACTED]","authentication_key":"0x1","apiKey":"[REDACTED]"}');
    // A secret cut by the limit leaves none of its characters.
    const secret = 'S'.repeat(40);
    expect(preview(`${'a'.repeat(70)}${secret}`, [secret])).not.toContain('S');
    expect(preview(12345678901234567890n)).toBe('12345678901234567890');
    expect(valueAt({ a: { 'b/c': [5] } }, '/a/b~1c/0')).toEqual({ found: true, at: '/a/b~1c/0', value: 5 });
    expect(valueAt({ a: { b: 1 } }, '/a/c/d')).toEqual({ found: false, at: '/a', value: { b: 1 } });
    expect(valueAt({ a: 1 }, '')).toEqual({ found: true, at: '', value: { a: 1 } });
  });
});

describe('x-validate record: the price key', () => {
  it.each([
    ['unset', undefined],
    ['empty', ''],
  ])(`refuses --price-base-url with ${PRICE_KEY_ENV} %s: exit 2, naming the variable, before any request`, async (_label, key) => {
    const [node, price] = await Promise.all([startNodeStub({ port: 0 }), startPriceStub({ port: 0 })]);
    try {
      const out = join(dir, `refused-${_label}`);
      const r = await xValidate(
        ['record', '--base-url', node.url, '--address', STUB_ACCOUNTS.alice, '--out', out, '--price-base-url', price.url],
        key === undefined ? {} : { [PRICE_KEY_ENV]: key },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--price-base-url needs the price service's API key in the environment variable ${PRICE_KEY_ENV}`);
      expect(node.requests.length + price.requests.length).toBe(0);
      expect(() => readdirSync(out)).toThrow();
    } finally {
      await Promise.all([node.close(), price.close()]);
    }
  });

  it('records the node alone without a key', async () => {
    const node = await startNodeStub({ port: 0 });
    try {
      const out = join(dir, 'node-only');
      const r = await xValidate(['record', '--base-url', node.url, '--address', STUB_ACCOUNTS.alice, '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(out)).toHaveLength(1);
    } finally {
      await node.close();
    }
  });

  it.each([['--help'], ['record', '--help']])('%j prints the usage naming the variable (exit 0)', async (...args) => {
    const r = await xValidate(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage:');
    expect(r.stdout).toContain(`$${PRICE_KEY_ENV}`);
    expect(r.stdout).toContain('Exit codes: 0');
  });

  it('exits 2 for an unknown flag, naming it', async () => {
    const r = await xValidate(['--stric', 'x.har']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'--stric'");
  });
});
