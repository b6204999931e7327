/**
 * `x-validate record` records the table item read (`getTableItemV2`, a POST with a JSON body, as wallets
 * ask it) when the account's recorded resources hold a table keyed by address: the key is the account,
 * the types come from the ABI of the resource's module. Against the fake node, whose publisher holds
 * `registry::Registry` with `names: 0x1::table::Table<address, 0x1::string::String>`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { xValidate } from './cli-run.ts';

type HarEntry = { request: { method: string; url: string; postData?: { mimeType: string; text: string } }; response: { status: number; content: { text: string } } };

let tmp: string;
let node: NodeStubHandle;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'x-validate-table-item-'));
  node = await startNodeStub({ port: 0 });
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await node.close();
});

describe('x-validate record: the table item read', () => {
  it("is recorded from a table of the account's resources, keyed by the account, and passes --strict", async () => {
    const publisher = STUB_ACCOUNTS.publisher;
    const out = join(tmp, 'publisher');
    // Enough resources a page for the registry to be among those recorded.
    const r = await xValidate(['record', '--base-url', node.url, '--address', publisher, '--out', out, '--count', '40']);
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('skipped getTableItemV2')]);
    const file = join(out, `${publisher}.har`);
    const entries = (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
    const items = entries.filter((e) => /\/rpc\/v2\/tables\/0x[0-9a-f]+\/item$/.test(e.request.url));
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item!.request.method).toBe('POST');
    expect(item!.request.postData?.mimeType).toBe('application/json');
    expect(JSON.parse(item!.request.postData!.text)).toEqual({ key_type: 'address', value_type: '0x1::string::String', key: publisher });
    expect([item!.response.status, JSON.parse(item!.response.content.text)]).toEqual([200, { String: 'publisher' }]);
    // The module read for the table's types is recorded too.
    expect(entries.some((e) => e.request.url.endsWith(`/rpc/v3/accounts/${publisher}/modules/registry`))).toBe(true);

    const check = await xValidate(['--strict', '--format', 'json', file]);
    expect(check.code).toBe(0);
    const { results } = JSON.parse(check.stdout) as { results: { operationId?: string; outcome: string }[] };
    expect(results.filter((x) => x.operationId === 'getTableItemV2').map((x) => x.outcome)).toEqual(['pass']);
  });

  it('is skipped, saying what it needs, when the recorded resources hold no table', async () => {
    const r = await xValidate(['record', '--base-url', node.url, '--address', STUB_ACCOUNTS.alice, '--out', join(tmp, 'alice')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('skipped getTableItemV2 (/rpc/v2/tables/{table_handle}/item): no value for {table_handle}: a table keyed by address');
  });
});
