/** Types of the reads beyond accounts: view results by function name, a final transaction's status, pages by cursor. */
import { describe, expectTypeOf, it } from 'vitest';
import { createNodeClient, waitForTransaction, http, type CursorPage, type EventWithContextV3, type FinalTransaction } from '@x/node-client';

const node = createNodeClient({ baseUrl: 'http://127.0.0.1:27000' });

describe('reads beyond accounts', () => {
  it('a transaction waited for has a final status', async () => {
    const tx = await node.waitForTransaction('0x' + 'ab'.repeat(32));
    expectTypeOf(tx.status).toEqualTypeOf<'Success' | 'Fail' | 'Invalid'>();
    expectTypeOf(await waitForTransaction(http(), 'x')).toEqualTypeOf<FinalTransaction>();
  });

  it('a view answers the typed function results, unknown[] for another function', async () => {
    const { result } = await node.v3.view({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: ['0x1'] });
    expectTypeOf(result).toEqualTypeOf<[balance: string]>();
    expectTypeOf((await node.v3.view({ function: '0xabc::m::f', arguments: [1n] })).result).toEqualTypeOf<unknown[]>();
    // @ts-expect-error -- the balance function takes its owner
    await node.v3.view({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'] });
  });

  it('an events page is a CursorPage of events', async () => {
    expectTypeOf(await node.v3.listEvents('0x1::coin::DepositEvent')).toEqualTypeOf<CursorPage<EventWithContextV3>>();
  });
});
