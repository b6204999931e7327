/**
 * Types of the framework resources wallets and explorers read most, by their Move type string, so that
 * `node.v2.getResource(address, '0x1::coin::CoinStore<…>')` is typed without a cast. Their `data` is the
 * document's JSON mapping of the Move struct: u64 and u128 as decimal strings, u8 to u32 as numbers,
 * addresses and `vector<u8>` as `0x` hex, an `Option<T>` as `{ vec: [] | [T] }`. Types only: no bytes.
 *
 * @module
 */
import type { MoveResource } from '@x/node-types';

/** An `0x1::event::EventHandle<…>`: how many events the stream has had and its guid. */
export type EventHandleData = {
  /** u64, decimal. */
  counter: string;
  guid: { id: { /** u64, decimal. */ creation_num: string; addr: string } };
};

/** `0x1::coin::CoinStore<Coin>`: an account's balance of one coin and its event streams. */
export type CoinStoreData = {
  /** `value`: the balance in the coin's smallest unit (u64, decimal). */
  coin: { value: string };
  frozen: boolean;
  deposit_events: EventHandleData;
  withdraw_events: EventHandleData;
};

/** `0x1::coin::CoinInfo<Coin>`, held at the coin's address: its name, symbol and decimals. */
export type CoinInfoData = {
  name: string;
  symbol: string;
  /** u8: the amount `10 ** decimals` is one coin. */
  decimals: number;
  /** The supply, when tracked (`{ vec: [] }` when not); its inner form differs between framework versions. */
  supply: { vec: unknown[] };
};

/** `0x1::account::Account`. */
export type AccountResourceData = {
  /** `0x` hex. */
  authentication_key: string;
  /** u64, decimal. */
  sequence_number: string;
  /** u64, decimal. */
  guid_creation_num: string;
  coin_register_events: EventHandleData;
  key_rotation_events: EventHandleData;
  rotation_capability_offer: { for: { vec: string[] } };
  signer_capability_offer: { for: { vec: string[] } };
};

/**
 * The `data` of a resource by its type string: the framework resources above (written with the short
 * `0x1`, as nodes write them), `Record<string, unknown>` for any other type.
 */
export type ResourceData<T extends string> = T extends `0x1::coin::CoinStore<${string}>`
  ? CoinStoreData
  : T extends `0x1::coin::CoinInfo<${string}>`
    ? CoinInfoData
    : T extends '0x1::account::Account'
      ? AccountResourceData
      : T extends '0x1::chain_id::ChainId'
        ? { id: number }
        : T extends '0x1::timestamp::CurrentTimeMicroseconds'
          ? { /** u64, decimal. */ microseconds: string }
          : Record<string, unknown>;

/**
 * A `MoveResource` whose `data` is typed by the resource type asked for (a framework resource's, by its
 * type string), or, for a resource of your own, by the type you give (`getResource<Registry>(...)`, as the
 * Aptos SDK's `getAccountResource<T>`).
 */
export type MoveResourceOf<T extends string | object> = Omit<MoveResource, 'data'> & { data: T extends string ? ResourceData<T> : T };
