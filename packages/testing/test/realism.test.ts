/**
 * The synthetic chain looks like a real one where a benchmark or a test could be fooled by repetition:
 * an ordinary account's transactions each in a block of its own, blocks authored by a validator set of
 * realistic size, every hash and signature distinct. Over loopback through the public stub API.
 */
import { describe, expect, it } from 'vitest';
import { STUB_ACCOUNTS, VALIDATOR_COUNT } from '../src/index.ts';
import { useNodeStub } from '@x-tools/test-helpers';
import { get, SEED } from './helpers.ts';

const ctx = useNodeStub(SEED);
type Tx = { status: string; output: { Move?: { events: Array<{ type: string }> } } | string | null; hash: string; block_header: { hash: string; height: number; author: string; parent: string }; authenticator: { Move?: { Ed25519: { public_key: string; signature: string } } } };

async function allSent(address: string): Promise<Tx[]> {
  const out: Tx[] = [];
  for (let start = 0; ; start += 100) {
    const page = await get<{ record: Tx[] }>(`${ctx.stub.url}/rpc/v2/accounts/${address}/transactions?count=100&start=${start}`);
    out.push(...page.body.record);
    if (page.body.record.length < 100) return out;
  }
}

describe('the synthetic chain', () => {
  it.each(['alice', 'bob', 'publisher', 'exactly100', 'exactly101', 'exactly200'] as const)(
    "%s: each transaction in a block of its own, every hash and signature distinct",
    async (name) => {
      const txs = await allSent(STUB_ACCOUNTS[name]);
      const distinct = (f: (t: Tx) => unknown) => new Set(txs.map(f)).size;
      expect(distinct((t) => t.block_header.hash)).toBe(txs.length);
      expect(distinct((t) => t.block_header.height)).toBe(txs.length);
      expect(distinct((t) => t.block_header.parent)).toBe(txs.length);
      expect(distinct((t) => t.hash)).toBe(txs.length);
      expect(distinct((t) => t.authenticator.Move!.Ed25519.signature)).toBe(txs.length);
      // Leaders change from block to block: no page is authored by a handful of validators.
      expect(distinct((t) => t.block_header.author)).toBeGreaterThan(txs.length / 2);
    },
  );

  it('busy: bursts share blocks, as on a busy chain; its blocks come from a validator set of >= 100', async () => {
    const txs = await allSent(STUB_ACCOUNTS.busy);
    expect(txs).toHaveLength(2500);
    const blocks = new Set(txs.map((t) => t.block_header.hash));
    expect(blocks.size).toBeLessThan(txs.length);
    expect(blocks.size).toBeGreaterThan(txs.length / 7);
    const authors = new Set(txs.map((t) => t.block_header.author));
    expect(VALIDATOR_COUNT).toBeGreaterThanOrEqual(100);
    expect(authors.size).toBeGreaterThanOrEqual(100);
    expect(authors.size).toBeLessThanOrEqual(VALIDATOR_COUNT);
    expect(new Set(txs.map((t) => t.hash)).size).toBe(txs.length);
  });

  it('every account signs with its own key', async () => {
    const keys = new Map<string, string>();
    for (const name of ['alice', 'bob', 'busy', 'publisher', 'exactly100', 'exactly101', 'exactly200'] as const) {
      const page = await get<{ record: Tx[] }>(`${ctx.stub.url}/rpc/v2/accounts/${STUB_ACCOUNTS[name]}/transactions?count=5&start=0`);
      const own = new Set(page.body.record.map((t) => t.authenticator.Move!.Ed25519.public_key));
      expect(own.size).toBe(1);
      keys.set(name, [...own][0]!);
    }
    expect(new Set(keys.values()).size).toBe(keys.size);
  });

  it.each(['alice', 'bob'] as const)('%s: a realistic mix of outcomes and events, not one repeated transaction', async (name) => {
    const txs = await allSent(STUB_ACCOUNTS[name]);
    const count = (f: (t: Tx) => boolean) => txs.filter(f).length;
    const events = (t: Tx) => (typeof t.output === 'object' && t.output?.Move ? t.output.Move.events.map((e) => e.type.replace(/^0x[0-9a-f]+::/, '')) : []);
    const types = new Set(txs.flatMap(events));
    expect([...types].sort()).toEqual(['coin::DepositEvent', 'coin::WithdrawEvent', 'counter::Incremented', 'transaction_fee::FeeStatement']);
    // Transfers dominate, entry calls and failed transfers are a minority, as on a user's account.
    const transfers = count((t) => events(t).includes('coin::WithdrawEvent'));
    const calls = count((t) => events(t).includes('counter::Incremented'));
    const failed = count((t) => t.status === 'Fail');
    expect(transfers / txs.length).toBeGreaterThan(0.7);
    expect(calls).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    expect(transfers + calls + failed).toBe(txs.length);
  });
});
