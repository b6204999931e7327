/**
 * The faucet is a GET that changes the chain: `x-validate record` does not call it unless asked
 * (`--fund-from-faucet`), because the operation table marks it as sent once (the spec's `x-retry: false`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { xValidate } from './cli-run.ts';

let stub: NodeStubHandle;
let dir: string;
beforeAll(async () => {
  stub = await startNodeStub({ seed: 1 });
  dir = mkdtempSync(join(tmpdir(), 'x-record-faucet-'));
});
afterAll(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The faucet requests the stub received (its request log, emptied before each run). */
const faucetCalls = (): string[] => stub.requests.filter((r) => r.operationId === 'fundAccountV1').map((r) => r.url);

describe('x-validate record and the faucet', () => {
  it('skips the faucet by default, saying how to call it; --fund-from-faucet calls it once', async () => {
    stub.reset();
    const plain = await xValidate(['record', '--base-url', stub.url, '--address', STUB_ACCOUNTS.alice, '--out', dir, '--count', '1']);
    expect(plain.code).toBe(0);
    expect(faucetCalls()).toEqual([]);
    expect(plain.stderr).toMatch(/skipped fundAccountV1 \(\/rpc\/v1\/wallet\/faucet\/\{address\}\): .*--fund-from-faucet/);

    stub.reset();
    const funded = await xValidate(['record', '--base-url', stub.url, '--address', STUB_ACCOUNTS.alice, '--out', dir, '--count', '1', '--fund-from-faucet']);
    expect(funded.code).toBe(0);
    expect(faucetCalls()).toHaveLength(1);
  });

  it('documents the flag in --help', async () => {
    expect((await xValidate(['record', '--help'])).stdout).toContain('--fund-from-faucet');
  });
});
