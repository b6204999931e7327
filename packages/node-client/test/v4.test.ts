/**
 * node.v4 and the faucet through the public API over loopback HTTP (the fake node of @x/testing): every
 * new parameter's bad input refused before any request (InvalidArgumentError naming it), a transaction
 * and its events read in v4 with their proofs, and a newcomer's test funding an account and reading its
 * balance.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, type NodeClient } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { collect, expectInvalid, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const node = (): NodeClient => createNodeClient({ baseUrl: ctx.stub.url, retry: false });
/** Values the types forbid, as a JavaScript caller may still pass them. */
const any = <T>(value: unknown): T => value as T;
const H = `0x${'a'.repeat(64)}`;

type Case = [label: string, call: (n: NodeClient) => Promise<unknown>, parameter: string];
const cases: Case[] = [
  ['hash of 63 hex digits', (n) => n.v4.getTransaction(`0x${'a'.repeat(63)}`), 'hash'],
  ['hash not hex', (n) => n.v4.getTransaction(`0x${'g'.repeat(64)}`), 'hash'],
  ['hash of 65 hex digits', (n) => n.v2.getFaucetTransaction(`0x${'a'.repeat(65)}`), 'hash'],
  ['event_hash short', (n) => n.v4.getEventEmissionProof('0x12', H), 'event_hash'],
  ['transaction_hash not hex', (n) => n.v4.getEventProof(H, 'nothex'), 'transaction_hash'],
  ['epoch negative', (n) => n.v4.getCommittee(-1), 'epoch'],
  ['epoch above u64', (n) => n.v4.getCommitteeAuthorization(2n ** 64n), 'epoch'],
  ['epoch not a number', (n) => n.v4.getCommittee(any('one')), 'epoch'],
  ['height not a u64', (n) => n.v4.getBlockByHeight(1.5), 'height'],
  ['type outside its enum (transaction)', (n) => n.v4.getTransaction(H, { type: any('everything') }), 'type'],
  ['type outside its enum (block)', (n) => n.v4.getBlockByHeight(1, { type: any('evm') }), 'type'],
  ['include_proof not a boolean', (n) => n.v4.getTransaction(H, { include_proof: any('yes') }), 'include_proof'],
  ['with_batches not a boolean', (n) => n.v4.getConsensusBlockByHeight(1, { with_batches: any(1) }), 'with_batches'],
  ['end_height below start_height', (n) => n.v4.getTransactionInclusionCertificates({ start_height: 5, end_height: 4 }), 'end_height'],
  ['address of the faucet', (n) => n.v1.fundAccount('0xzz'), 'address'],
];

describe('bad input for every new parameter: InvalidArgumentError naming it, before any request', () => {
  it.each(cases)('%s', async (_label, call, parameter) => {
    const before = ctx.stub.requests.length;
    await expectInvalid(call(node()), parameter);
    expect(ctx.stub.requests.length).toBe(before);
  });
});

describe('node.v4 reads', () => {
  it('a transaction and its events in v4, with proofs that name one another', async () => {
    const n = node();
    const [tx] = await n.v3.listTransactions(STUB_ACCOUNTS.alice, { count: 1 });
    const v4 = await n.v4.getTransaction(tx!.hash, { include_proof: true });
    expect(v4.hash).toBe(tx!.hash);
    if (v4.txn_type !== 'user' || typeof v4.output !== 'object' || v4.output === null || !('Move' in v4.output)) throw new Error('a user Move transaction expected');
    const [event] = v4.output.Move.events;
    const proof = await n.v4.getEventEmissionProof(event!.hash, v4.hash);
    expect(proof.merkle_root_hash_value).toBe(v4.inclusion_proof?.events_tree_merkle_root_hash_value);
    expect(await n.v4.getEventProof(event!.hash, v4.hash)).toEqual(proof);
    const events = await collect(n.v4.events(event!.type, { limit: 5, include_proof: true }));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => /^0x[0-9a-f]{64}$/.test(e.event.hash) && e.proofs?.event_emission_proof !== undefined)).toBe(true);
  });
});

describe('the testnet faucet', () => {
  it('funds an account, whose balance then shows it, and its transaction is found by hash', async () => {
    const n = node();
    const fresh = `0x${'7'.repeat(64)}`;
    const balance = async (): Promise<bigint> => {
      const { result } = await n.v3.view({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: [fresh] });
      return BigInt(result[0]);
    };
    const status = await n.v1.fundAccount(fresh);
    if (typeof status === 'string') throw new Error(`funded expected, got ${status}`);
    const first = await balance();
    expect(first).toBeGreaterThan(0n);
    await n.v1.fundAccount(fresh);
    expect(await balance()).toBe(first * 2n);
    const transfer = await n.v2.getFaucetTransaction(status.Accepted);
    expect(transfer.payload).toMatchObject({ Move: { function: '0x1::supra_account::transfer', arguments: [fresh, String(first)] } });
    expect((await n.v3.getAccount(fresh)).sequence_number).toBe(0);
  });
});
