/**
 * The README's walk examples, run against the node stub: each snippet below is shown in the README
 * verbatim (a test holds them equal), so the documented code is the code that passes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { useNodeStub } from '@x-tools/test-helpers';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ctx = useNodeStub();
const address = STUB_ACCOUNTS.busy;
const seq = (tx: { header: { sequence_number: number | string } }): number => Number(tx.header.sequence_number);

describe('README: Pagination', () => {
  it('long histories at the speed of the link', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const history = [];
for await (const tx of node.v2.transactions(address, { start: 0, concurrency: 8 })) history.push(tx);`);
    const history = [];
    for await (const tx of node.v2.transactions(address, { start: 0, concurrency: 8 })) history.push(tx);
    expect(history.map(seq)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
  });

  it('newest first', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(readme).toContain(`const recent = [];
for await (const tx of node.v2.transactions(address, { order: 'desc', limit: 25 })) recent.push(tx);`);
    const recent = [];
    for await (const tx of node.v2.transactions(address, { order: 'desc', limit: 25 })) recent.push(tx);
    expect(recent.map(seq)).toEqual(Array.from({ length: 25 }, (_, i) => 2499 - i));
  });
});
