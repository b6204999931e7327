/**
 * Accounts a test defines next to the seeded ones: what each operation answers for them, in both
 * shapes and both versions, checked against the specs by the strict validators (documented and live).
 */
import { describe, expect, it } from 'vitest';
import { validateResponse } from '@x/validators';
import { createNodeStubFetch, STUB_ACCOUNTS, type AccountSpec } from '../src/index.ts';

const carol: AccountSpec = {
  balance: '1000000',
  transactions: [
    { to: 'dave', amount: 250 },
    { to: 'alice', amount: '100' },
    { function: '0xcafe::counter::increment', events: [{ type: '0xcafe::counter::Incremented', data: { value: '1' } }] },
    { to: 'dave', amount: 1, status: 'Fail' },
  ],
  resources: [{ type: '0xcafe::counter::Counter', data: { value: '1' } }],
  modules: [{ name: 'counter', functions: [{ name: 'increment', visibility: 'public', entry: true, params: ['&signer'] }], structs: [{ name: 'Counter', abilities: ['key'], fields: [['value', 'u64']] }] }],
};
const dave: AccountSpec = { address: '0xdA7e', sequenceNumber: 5 };

const json = async (stub: ReturnType<typeof createNodeStubFetch>, path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const r = await stub(`${stub.url}${path}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

describe('user-defined accounts', () => {
  const stub = createNodeStubFetch({ accounts: { carol, dave } });
  const c = stub.accounts.carol as string;
  const d = stub.accounts.dave as string;

  it('have addresses next to the seeded ones (derived, or their own in canonical form)', () => {
    expect(c).toMatch(/^0x[0-9a-f]{64}$/);
    expect(d).toBe(`0x${'da7e'.padStart(64, '0')}`);
    expect(stub.accounts.alice).toBe(STUB_ACCOUNTS.alice);
  });

  it('answer getAccount with their sequence number', async () => {
    expect((await json(stub, `/rpc/v2/accounts/${c}`)).body.sequence_number).toBe(4);
    expect((await json(stub, `/rpc/v1/accounts/${d}`)).body.sequence_number).toBe(5);
  });

  it('list what they sent, in order, each in a block of its own after the seeded chain', async () => {
    const { body } = await json(stub, `/rpc/v2/accounts/${c}/transactions?start=0`);
    const record = body.record as Array<{ header: { sequence_number: number }; status: string; block_header: { height: number; hash: string } }>;
    expect(record.map((t) => [t.header.sequence_number, t.status])).toEqual([[0, 'Success'], [1, 'Success'], [2, 'Success'], [3, 'Fail']]);
    expect(new Set(record.map((t) => t.block_header.hash)).size).toBe(4);
    const seeded = (await json(stub, `/rpc/v2/accounts/${STUB_ACCOUNTS.busy}/transactions?count=1`)).body.record as Array<{ block_header: { height: number } }>;
    expect(record[0]?.block_header.height).toBeGreaterThan(seeded[0]?.block_header.height as number);
  });

  it('list coin transactions sent and received: a transfer between two user accounts shows in both', async () => {
    const sent = (await json(stub, `/rpc/v2/accounts/${c}/coin_transactions?start=0`)).body;
    const received = (await json(stub, `/rpc/v1/accounts/${d}/coin_transactions?start=0`)).body;
    expect((sent.record as unknown[]).length).toBe(2);
    expect((received.record as Array<{ hash: string }>).map((t) => t.hash)).toEqual([(sent.record as Array<{ hash: string }>)[0]?.hash]);
  });

  it('serve their resources (with Account and CoinStore) and modules', async () => {
    const store = await json(stub, `/rpc/v2/accounts/${c}/resources/0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>`);
    // 1,000,000 - 250 - 100 sent, minus gas (12 + 12 + 20 + 12 units at 100).
    expect(store.body.data).toMatchObject({ coin: { value: String(1_000_000 - 350 - 5_600) } });
    const listing = await json(stub, `/rpc/v2/accounts/${c}/resources`);
    // In state-key order: the type's text, so the padded 0x000…cafe comes before 0x1.
    expect((listing.body.resources as Array<{ type: string }>).map((r) => r.type)).toEqual([
      `${'0x' + 'cafe'.padStart(64, '0')}::counter::Counter`,
      '0x1::account::Account',
      '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>',
    ]);
    expect((await json(stub, `/rpc/v1/accounts/${c}/modules/counter`)).body).toMatchObject({ name: { identifier: 'counter' } });
    expect((await json(stub, `/rpc/v2/accounts/${c}/modules/nothing`)).status).toBe(404);
  });

  it('number their event streams per account: one creation number per event type, sequence numbers running on', async () => {
    const evs = createNodeStubFetch({
      accounts: {
        erin: {
          transactions: [
            { function: '0xcafe::game::play', events: [{ type: '0xcafe::game::Played', data: {} }] },
            { function: '0xcafe::game::score', events: [{ type: '0xcafe::game::Scored', data: {} }, { type: '0xcafe::game::Played', data: {} }] },
            { function: '0xcafe::game::play', status: 'Fail', events: [{ type: '0xcafe::game::Played', data: {} }] },
            { to: 'alice', amount: 1 },
          ],
        },
      },
    });
    const e = evs.accounts.erin as string;
    const { body } = await json(evs, `/rpc/v2/accounts/${e}/transactions?start=0`);
    type Ev = { guid: string; sequence_number: number; type: string };
    // Each event as `<stream>` (the guid without its address: both addresses are 66 characters), number, type.
    const events = (body.record as Array<{ output: { Move: { events: Ev[] } } }>).map((t) =>
      t.output.Move.events.filter((ev) => !ev.type.endsWith('FeeStatement')).map((ev) => `${ev.guid.slice(e.length)} #${ev.sequence_number} ${ev.type.split('::').pop()}`),
    );
    // A failed call emits no events of its own; alice's deposit stream goes on from the seeded chain's count.
    const aliceDeposits = ((await json(evs, `/rpc/v2/accounts/${STUB_ACCOUNTS.alice}/resources/0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>`)).body.data as { deposit_events: { counter: string } }).deposit_events.counter;
    expect(events).toEqual([[':4 #0 Played'], [':5 #0 Scored', ':4 #1 Played'], [], [':3 #0 WithdrawEvent', `:2 #${aliceDeposits} DepositEvent`]]);
    const account = (await json(evs, `/rpc/v2/accounts/${e}/resources/0x1::account::Account`)).body.data as { guid_creation_num: string };
    expect(account.guid_creation_num).toBe('6');
  });

  const OPERATIONS: Array<[string, string]> = [
    ['getAccountV1', ''],
    ['getAccountV2', ''],
    ['listTransactionsV1', '/transactions?start=0'],
    ['listTransactionsV2', '/transactions'],
    ['listCoinTransactionsV1', '/coin_transactions?start=0'],
    ['listCoinTransactionsV2', '/coin_transactions'],
    ['listModulesV1', '/modules'],
    ['listModulesV2', '/modules'],
    ['getModuleV1', '/modules/counter'],
    ['getModuleV2', '/modules/counter'],
    ['listResourcesV1', '/resources?count=2'],
    ['listResourcesV2', '/resources'],
    ['getResourceV1', '/resources/0x1::account::Account'],
    ['getResourceV2', '/resources/0x1::account::Account'],
  ];
  it.each(OPERATIONS.flatMap(([op, tail]) => (['documented', 'live'] as const).map((shapes) => ({ op, tail, shapes }))))(
    '$op in the $shapes shapes conforms to the $shapes reading (strict)',
    async ({ op, tail, shapes }) => {
      const version = op.endsWith('V1') ? 'v1' : 'v2';
      const r = await stub(`${stub.url}/rpc/${version}/accounts/${c}${tail}`, { headers: { 'x-stub-shapes': shapes } });
      expect(r.status).toBe(200);
      const result = validateResponse(op as 'getAccountV2', 200, await r.json(), { strict: true, profile: shapes });
      expect(result.ok ? [] : result.issues).toEqual([]);
    },
  );
});
