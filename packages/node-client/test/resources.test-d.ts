/** `node.v2.getResource` types `data` by the resource type string, so wallets read it without a cast. */
import { describe, expectTypeOf, test } from 'vitest';
import { createNodeClient, type AccountResourceData, type CoinInfoData, type CoinStoreData, type MoveResourceOf, type MoveValueResponseV1, type ResourceData } from '@x/node-client';
import { coinBalance, coinChanges, coinDecimals, coinInfoOf, coinStoreType, formatAmount, SUPRA_COIN, type CoinChanges, type CoinInfoType, type CoinStoreType } from '@x/node-client/shapes';

const node = createNodeClient();

describe('framework resources by their type string', () => {
  test('CoinStore, CoinInfo, Account, ChainId, CurrentTimeMicroseconds', async () => {
    const store = await node.v2.getResource('0x1', '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>');
    expectTypeOf(store.data).toEqualTypeOf<CoinStoreData>();
    expectTypeOf(store.data.coin.value).toEqualTypeOf<string>();
    expectTypeOf(store.type).toEqualTypeOf<string>();
    expectTypeOf((await node.v2.getResource('0x1', '0x1::coin::CoinInfo<0xcafe::usdc::USDC>')).data).toEqualTypeOf<CoinInfoData>();
    expectTypeOf((await node.v2.getResource('0x1', '0x1::coin::CoinInfo<0xcafe::usdc::USDC>')).data.decimals).toEqualTypeOf<number>();
    expectTypeOf((await node.v2.getResource('0x1', '0x1::account::Account')).data).toEqualTypeOf<AccountResourceData>();
    expectTypeOf((await node.v2.getResource('0x1', '0x1::chain_id::ChainId')).data.id).toEqualTypeOf<number>();
    expectTypeOf((await node.v2.getResource('0x1', '0x1::timestamp::CurrentTimeMicroseconds')).data.microseconds).toEqualTypeOf<string>();
  });

  test('any other type, or a type not known until run time: Record<string, unknown>', async () => {
    expectTypeOf((await node.v2.getResource('0x1', '0xcafe::vault::Vault')).data).toEqualTypeOf<Record<string, unknown>>();
    const type: string = '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>';
    expectTypeOf((await node.v2.getResource('0x1', type)).data).toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<ResourceData<'0x0000000000000000000000000000000000000000000000000000000000000001::account::Account'>>().toEqualTypeOf<Record<string, unknown>>();
    // @ts-expect-error -- an unknown resource's fields must be narrowed
    void (await node.v2.getResource('0x1', '0xcafe::vault::Vault')).data.coin.value;
  });

  test('v1 stays the v1 body (its documented form is one MoveValue per field)', async () => {
    expectTypeOf(node.v1.getResource('0x1', '0x1::account::Account')).resolves.toEqualTypeOf<MoveValueResponseV1 | null>();
  });

  test("the README's first example needs no cast", async () => {
    const resource = await node.v2.getResource('0x1', '0x1::account::Account'); // data typed by the type string
    expectTypeOf(resource).toEqualTypeOf<MoveResourceOf<'0x1::account::Account'>>();
    expectTypeOf(resource.data.sequence_number).toEqualTypeOf<string>();
  });
});

describe('wallet readers', () => {
  test('type strings built from a coin type keep getResource typed', async () => {
    expectTypeOf(coinStoreType(SUPRA_COIN)).toEqualTypeOf<CoinStoreType<'0x1::supra_coin::SupraCoin'>>();
    expectTypeOf(coinInfoOf('0xcafe::usdc::USDC').resourceType).toEqualTypeOf<CoinInfoType<'0xcafe::usdc::USDC'>>();
    const info = await node.v2.getResource('0xcafe', coinInfoOf('0xcafe::usdc::USDC').resourceType);
    expectTypeOf(info.data.symbol).toEqualTypeOf<string>();
    const store = await node.v2.getResource('0x1', coinStoreType(SUPRA_COIN));
    expectTypeOf(coinBalance(store)).toEqualTypeOf<bigint>();
    expectTypeOf(coinDecimals(info)).toEqualTypeOf<number>();
    expectTypeOf(coinBalance((await node.v1.getResource('0x1', coinStoreType(SUPRA_COIN)))!)).toEqualTypeOf<bigint>();
    expectTypeOf(formatAmount(1n, 8)).toEqualTypeOf<string>();
  });

  test('coinChanges takes v1 and v2 transactions', async () => {
    const [v2] = (await node.v2.listCoinTransactions('0x1')).record;
    const [v1] = (await node.v1.listCoinTransactions('0x1')).record;
    expectTypeOf(coinChanges(v2!, '0x1')).toEqualTypeOf<CoinChanges>();
    expectTypeOf(coinChanges(v1!, '0x1', { coinStore: await node.v2.getResource('0x1', coinStoreType(SUPRA_COIN)) })).toEqualTypeOf<CoinChanges>();
  });
});

describe('your own Move types (issue 48.7): the type given is the result, as the Aptos SDK types getAccountResource<T> and view<T>', () => {
  type Registry = { names: string[]; owner: string };
  test('getResource<Registry>: its data is a Registry, no cast', async () => {
    const registry = await node.v3.getResource<Registry>('0xcafe', '0xcafe::registry::Registry');
    expectTypeOf(registry.data).toEqualTypeOf<Registry>();
    expectTypeOf((await node.v2.getResource<Registry>('0xcafe', '0xcafe::registry::Registry')).data.names).toEqualTypeOf<string[]>();
    // The type string still types a framework resource when no type is given.
    expectTypeOf((await node.v3.getResource('0x1', '0x1::account::Account')).data).toEqualTypeOf<AccountResourceData>();
  });

  test('view<[string, number]>: its result is that tuple; a framework function stays typed by its name', async () => {
    const answer = await node.v3.view<[string, number]>({ function: '0xcafe::registry::lookup', arguments: ['alice'] });
    expectTypeOf(answer.result).toEqualTypeOf<[string, number]>();
    expectTypeOf((await node.v3.view({ function: '0xcafe::registry::lookup' })).result).toEqualTypeOf<unknown[]>();
  });
});
