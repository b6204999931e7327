/**
 * Resources of the synthetic chain. Which resources an account holds is fixed; their values come from the
 * chain of the seed (balances, sequence numbers, event counters) and are rendered on demand.
 */
import { hexBytes, mulberry32, randInt, sha256Hex, utf8Hex } from '../random.ts';
import { PLANS, STUB_ACCOUNTS, type ChainAccountName } from './accounts.ts';
import { authKey, type Chain } from './chain.ts';
import {
  STRING_TAG,
  V,
  addressHex64,
  st,
  structTag,
  structTagToString,
  vec,
  type MoveVal,
  type StructTag,
  type TypeTag,
} from './move.ts';
import { PUBLISHER_COINS } from './modules.ts';

export interface ResourceEntry {
  tag: StructTag;
  /** The type as a string, e.g. `0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>` (also its listing key). */
  type: string;
  /** Top-level fields with typed values; `chainId` is the stub's (the `0x1::chain_id::ChainId` resource holds it). */
  fields(chain: Chain, chainId: number): Array<[string, MoveVal]>;
}

const PUB = STUB_ACCOUNTS.publisher;
export const SUPRA_COIN = structTag('0x1', 'supra_coin', 'SupraCoin');
const coinTag = (coin: StructTag): StructTag => structTag('0x1', 'coin', 'Coin', [st(coin)]);
const coinStoreTag = (coin: StructTag): StructTag => structTag('0x1', 'coin', 'CoinStore', [st(coin)]);
const eventHandleTag = (event: StructTag): StructTag => structTag('0x1', 'event', 'EventHandle', [st(event)]);
const GUID = structTag('0x1', 'guid', 'GUID');
const ID = structTag('0x1', 'guid', 'ID');

function eventHandle(event: StructTag, counter: number, creationNum: number, addr: string): MoveVal {
  return V.struct(eventHandleTag(event), [
    ['counter', V.u64(counter)],
    ['guid', V.struct(GUID, [['id', V.struct(ID, [['creation_num', V.u64(creationNum)], ['addr', V.address(addr)]])]])],
  ]);
}

function accountResource(name: ChainAccountName): ResourceEntry {
  const tag = structTag('0x1', 'account', 'Account');
  const offer = (cap: string): MoveVal =>
    V.struct(structTag('0x1', 'account', 'CapabilityOffer', [st(structTag('0x1', 'account', cap))]), [
      ['for', V.option('address', null)],
    ]);
  return {
    tag,
    type: structTagToString(tag),
    fields: (chain) => {
      const a = chain.accounts[name];
      return [
        ['authentication_key', V.bytes(authKey(a.address).slice(2))],
        ['sequence_number', V.u64(a.sent.length)],
        ['guid_creation_num', V.u64(name === 'publisher' ? 5 + 2 * PUBLISHER_COINS.length : 5)],
        ['coin_register_events', eventHandle(structTag('0x1', 'account', 'CoinRegisterEvent'), 1, 0, a.address)],
        ['key_rotation_events', eventHandle(structTag('0x1', 'account', 'KeyRotationEvent'), 0, 1, a.address)],
        ['rotation_capability_offer', offer('RotationCapability')],
        ['signer_capability_offer', offer('SignerCapability')],
      ];
    },
  };
}

function supraCoinStore(name: ChainAccountName): ResourceEntry {
  const tag = coinStoreTag(SUPRA_COIN);
  return {
    tag,
    type: structTagToString(tag),
    fields: (chain) => {
      const a = chain.accounts[name];
      return [
        ['coin', V.struct(coinTag(SUPRA_COIN), [['value', V.u64(a.balance)]])],
        ['frozen', V.bool(false)],
        ['deposit_events', eventHandle(structTag('0x1', 'coin', 'DepositEvent'), a.depositCount, 2, a.address)],
        ['withdraw_events', eventHandle(structTag('0x1', 'coin', 'WithdrawEvent'), a.withdrawCount, 3, a.address)],
      ];
    },
  };
}

function counterResource(name: ChainAccountName): ResourceEntry {
  const tag = structTag(PUB, 'counter', 'Counter');
  return {
    tag,
    type: structTagToString(tag),
    fields: (chain) => {
      const a = chain.accounts[name];
      return [
        ['value', V.u64(a.callCount)],
        ['incremented_events', eventHandle(structTag(PUB, 'counter', 'Incremented'), a.callCount, 4, a.address)],
      ];
    },
  };
}

function simple(tag: StructTag, fields: (chain: Chain, chainId: number) => Array<[string, MoveVal]>): ResourceEntry {
  return { tag, type: structTagToString(tag), fields };
}

function frameworkResources(): ResourceEntry[] {
  return [
    accountResource('framework'),
    simple(structTag('0x1', 'chain_id', 'ChainId'), (_chain, chainId) => [['id', V.u8(chainId)]]),
    simple(structTag('0x1', 'chain_status', 'GenesisEndMarker'), () => [['dummy_field', V.bool(false)]]),
    simple(structTag('0x1', 'timestamp', 'CurrentTimeMicroseconds'), (chain) => [
      ['microseconds', V.u64(chain.blocks[chain.blocks.length - 1]?.timestampUs ?? chain.genesisUs)],
    ]),
    simple(structTag('0x1', 'coin', 'CoinInfo', [st(SUPRA_COIN)]), () => [
      ['name', V.string('Supra Coin')],
      ['symbol', V.string('SUPRA')],
      ['decimals', V.u8(8)],
      ['supply', V.option('u128', V.u128('100000000000000000000'))],
    ]),
    simple(structTag('0x1', 'block', 'BlockResource'), (chain) => {
      const height = chain.blocks[chain.blocks.length - 1]?.height ?? 0;
      return [
        ['height', V.u64(height)],
        ['epoch_interval', V.u64(7_200_000_000)],
        ['new_block_events', eventHandle(structTag('0x1', 'block', 'NewBlockEvent'), height, 3, '0x1')],
      ];
    }),
  ];
}

/** The handle of the publisher's `registry::Registry` `names` table (an address, from the seed): its items are served by tables.ts. */
export function registryNamesHandle(seed: number): string {
  return `0x${sha256Hex('table', seed, PUB, 'registry::Registry', 'names')}`;
}

function publisherResources(): ResourceEntry[] {
  const coinStores = PUBLISHER_COINS.map((ticker, i): ResourceEntry => {
    const coin = structTag(PUB, 'coins', ticker);
    const tag = coinStoreTag(coin);
    return simple(tag, (chain) => {
      const rng = mulberry32(chain.seed ^ (0xc0 + i));
      return [
        ['coin', V.struct(coinTag(coin), [['value', V.u64(randInt(rng, 0, 1_000_000) * 1_000_000)]])],
        ['frozen', V.bool(i % 7 === 0)],
        ['deposit_events', eventHandle(structTag('0x1', 'coin', 'DepositEvent'), 0, 5 + 2 * i, PUB)],
        ['withdraw_events', eventHandle(structTag('0x1', 'coin', 'WithdrawEvent'), 0, 6 + 2 * i, PUB)],
      ];
    });
  });
  const point = structTag(PUB, 'showcase', 'Point');
  const allKinds = simple(structTag(PUB, 'showcase', 'AllKinds'), (chain) => {
    const rng = mulberry32(chain.seed ^ 0xa11c1d5);
    const u = (): MoveVal => V.u64(randInt(rng, 0, 1_000_000));
    return [
      ['small', V.u8(randInt(rng, 0, 255))],
      ['port', V.u16(randInt(rng, 0, 65535))],
      ['flags', V.u32(4294967295)],
      ['balance', V.u64('18446744073709551615')],
      ['big', V.u128('340282366920938463463374607431768211455')],
      ['huge', V.u256(BigInt(`0x${hexBytes(rng, 32)}`).toString())],
      ['active', V.bool(rng() < 0.5)],
      ['owner', V.address(STUB_ACCOUNTS.alice)],
      ['label', V.string('Synthetic showcase – every kind of Move value ✓')],
      ['raw', V.bytes(`00${hexBytes(rng, 7)}00`)],
      ['ids', V.vector('u64', [u(), u(), u()])],
      ['tags', V.vector(st(STRING_TAG), [V.string('alpha'), V.string('beta'), V.string('γάμμα')])],
      ['matrix', V.vector(vec('u64'), [V.vector('u64', [u(), u()]), V.vector('u64', []), V.vector('u64', [u()])])],
      ['point', V.struct(point, [['x', u()], ['y', u()], ['z', V.u32(randInt(rng, 0, 1000))]])],
      ['maybe_owner', V.option('address', null)],
      ['maybe_limit', V.option('u64', V.u64(randInt(rng, 1, 1_000_000_000)))],
    ];
  });
  // A type argument nesting vector<vector<struct<struct>>>.
  const nested: TypeTag = vec(vec(st(coinTag(SUPRA_COIN))));
  const vault = simple(structTag(PUB, 'vault', 'Vault', [nested]), (chain) => {
    const rng = mulberry32(chain.seed ^ 0x7a017);
    const coin = (): MoveVal => V.struct(coinTag(SUPRA_COIN), [['value', V.u64(randInt(rng, 1, 9_999_999))]]);
    return [
      ['items', V.vector(vec(st(coinTag(SUPRA_COIN))), [V.vector(st(coinTag(SUPRA_COIN)), [coin(), coin()]), V.vector(st(coinTag(SUPRA_COIN)), []), V.vector(st(coinTag(SUPRA_COIN)), [coin()])])],
      ['locked_until', V.u64(chain.genesisUs + 86_400_000_000)],
    ];
  });
  // `names` is a table (tables.ts): the resource holds its handle, `getTableItemV2` its items.
  const registry = simple(structTag(PUB, 'registry', 'Registry', [st(STRING_TAG)]), (chain) => [
    ['entries', V.vector(st(STRING_TAG), [V.string('alpha'), V.string('beta'), V.string('gamma')])],
    ['owner', V.address(PUB)],
    ['names', V.struct(structTag('0x1', 'table', 'Table', ['address', st(STRING_TAG)]), [['handle', V.address(registryNamesHandle(chain.seed))]])],
  ]);
  return [accountResource('publisher'), supraCoinStore('publisher'), ...coinStores, allKinds, vault, registry];
}

/** The resources an account holds, sorted by type string (the listing order). Seed-independent set. */
export function resourcesOf(name: ChainAccountName): ResourceEntry[] {
  let list: ResourceEntry[];
  if (name === 'empty') list = [];
  else if (name === 'framework') list = frameworkResources();
  else if (name === 'publisher') list = publisherResources();
  else {
    list = [accountResource(name), supraCoinStore(name)];
    if (PLANS[name].some((i) => i.kind === 'call')) list.push(counterResource(name));
  }
  return list.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Resource listing key: state-key bytes of a resource (tag 0x01, the 32 address bytes, the type's UTF-8). */
export function resourceKeyHex(address: string, type: string): string {
  return `01${addressHex64(address)}${utf8Hex(type)}`;
}

/** Module listing key: tag 0x00, the 32 address bytes, the module name's UTF-8. */
export function moduleKeyHex(address: string, name: string): string {
  return `00${addressHex64(address)}${utf8Hex(name)}`;
}
