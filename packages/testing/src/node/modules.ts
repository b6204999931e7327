/**
 * Published modules of the synthetic chain: ABIs (`MoveModule`) and bytecode. The set of modules is fixed;
 * the bytecode bytes and the generated modules' details come from the seed. Rendering is lazy.
 */
import type { components } from '@x/node-types';
import { fnv1a, hexBytes, mulberry32, randInt } from '../random.ts';
import { PUBLISHER_MODULES, STUB_ACCOUNTS, type ChainAccountName } from './accounts.ts';

export type MoveModule = components['schemas']['MoveModule'];
export type MoveModuleBytecode = components['schemas']['MoveModuleBytecode'];

export interface FnSpec {
  name: string;
  visibility: 'public' | 'friend' | 'private';
  entry?: boolean;
  view?: boolean;
  generics?: number;
  params: string[];
  ret?: string[];
}
export interface StructSpec {
  name: string;
  abilities: string[];
  /** `true` for a phantom parameter. */
  generics?: boolean[];
  fields: Array<[string, string]>;
}
export interface ModuleSpec {
  name: string;
  friends?: string[];
  functions: FnSpec[];
  structs: StructSpec[];
}

const EVENT_HANDLE = (t: string): string => `0x1::event::EventHandle<${t}>`;

/** The framework account's 16 modules (a faithful-looking subset of a Move framework). */
const FRAMEWORK: ModuleSpec[] = [
  {
    name: 'account',
    friends: ['0x1::coin', '0x1::genesis', '0x1::supra_account'],
    functions: [
      { name: 'exists_at', visibility: 'public', view: true, params: ['address'], ret: ['bool'] },
      { name: 'get_sequence_number', visibility: 'public', view: true, params: ['address'], ret: ['u64'] },
      { name: 'get_authentication_key', visibility: 'public', view: true, params: ['address'], ret: ['vector<u8>'] },
      { name: 'rotate_authentication_key', visibility: 'private', entry: true, params: ['&signer', 'u8', 'vector<u8>', 'u8', 'vector<u8>', 'vector<u8>', 'vector<u8>'] },
      { name: 'create_account', visibility: 'friend', params: ['address'], ret: ['signer'] },
    ],
    structs: [
      {
        name: 'Account',
        abilities: ['store', 'key'],
        fields: [
          ['authentication_key', 'vector<u8>'],
          ['sequence_number', 'u64'],
          ['guid_creation_num', 'u64'],
          ['coin_register_events', EVENT_HANDLE('0x1::account::CoinRegisterEvent')],
          ['key_rotation_events', EVENT_HANDLE('0x1::account::KeyRotationEvent')],
          ['rotation_capability_offer', '0x1::account::CapabilityOffer<0x1::account::RotationCapability>'],
          ['signer_capability_offer', '0x1::account::CapabilityOffer<0x1::account::SignerCapability>'],
        ],
      },
      { name: 'CapabilityOffer', abilities: ['store'], generics: [true], fields: [['for', '0x1::option::Option<address>']] },
      { name: 'CoinRegisterEvent', abilities: ['drop', 'store'], fields: [['type_info', '0x1::type_info::TypeInfo']] },
      { name: 'KeyRotationEvent', abilities: ['drop', 'store'], fields: [['old_authentication_key', 'vector<u8>'], ['new_authentication_key', 'vector<u8>']] },
      { name: 'RotationCapability', abilities: ['drop', 'store'], fields: [['account', 'address']] },
      { name: 'SignerCapability', abilities: ['drop', 'store'], fields: [['account', 'address']] },
    ],
  },
  {
    name: 'block',
    friends: ['0x1::genesis'],
    functions: [{ name: 'get_current_block_height', visibility: 'public', view: true, params: [], ret: ['u64'] }],
    structs: [
      { name: 'BlockResource', abilities: ['key'], fields: [['height', 'u64'], ['epoch_interval', 'u64'], ['new_block_events', EVENT_HANDLE('0x1::block::NewBlockEvent')]] },
      { name: 'NewBlockEvent', abilities: ['drop', 'store'], fields: [['hash', 'address'], ['epoch', 'u64'], ['round', 'u64'], ['height', 'u64'], ['proposer', 'address'], ['time_microseconds', 'u64']] },
    ],
  },
  {
    name: 'chain_id',
    friends: ['0x1::genesis'],
    functions: [{ name: 'get', visibility: 'public', view: true, params: [], ret: ['u8'] }],
    structs: [{ name: 'ChainId', abilities: ['key'], fields: [['id', 'u8']] }],
  },
  {
    name: 'chain_status',
    friends: ['0x1::genesis'],
    functions: [{ name: 'is_operating', visibility: 'public', view: true, params: [], ret: ['bool'] }],
    structs: [{ name: 'GenesisEndMarker', abilities: ['key'], fields: [['dummy_field', 'bool']] }],
  },
  {
    name: 'code',
    functions: [
      { name: 'publish_package_txn', visibility: 'public', entry: true, params: ['&signer', 'vector<u8>', 'vector<vector<u8>>'] },
    ],
    structs: [
      { name: 'PublishPackage', abilities: ['drop', 'store'], fields: [['code_address', 'address'], ['is_upgrade', 'bool']] },
      { name: 'ModuleMetadata', abilities: ['drop', 'store'], fields: [['name', '0x1::string::String'], ['source', 'vector<u8>'], ['source_map', 'vector<u8>']] },
    ],
  },
  {
    name: 'coin',
    friends: ['0x1::supra_coin', '0x1::transaction_fee'],
    functions: [
      { name: 'balance', visibility: 'public', view: true, generics: 1, params: ['address'], ret: ['u64'] },
      { name: 'transfer', visibility: 'public', entry: true, generics: 1, params: ['&signer', 'address', 'u64'] },
      { name: 'withdraw', visibility: 'public', generics: 1, params: ['&signer', 'u64'], ret: ['0x1::coin::Coin<T0>'] },
      { name: 'deposit', visibility: 'public', generics: 1, params: ['address', '0x1::coin::Coin<T0>'] },
      { name: 'supply', visibility: 'public', view: true, generics: 1, params: [], ret: ['0x1::option::Option<u128>'] },
      { name: 'decimals', visibility: 'public', view: true, generics: 1, params: [], ret: ['u8'] },
      { name: 'name', visibility: 'public', view: true, generics: 1, params: [], ret: ['0x1::string::String'] },
      { name: 'symbol', visibility: 'public', view: true, generics: 1, params: [], ret: ['0x1::string::String'] },
      { name: 'is_account_registered', visibility: 'public', view: true, generics: 1, params: ['address'], ret: ['bool'] },
    ],
    structs: [
      { name: 'Coin', abilities: ['store'], generics: [true], fields: [['value', 'u64']] },
      {
        name: 'CoinStore',
        abilities: ['key'],
        generics: [true],
        fields: [
          ['coin', '0x1::coin::Coin<T0>'],
          ['frozen', 'bool'],
          ['deposit_events', EVENT_HANDLE('0x1::coin::DepositEvent')],
          ['withdraw_events', EVENT_HANDLE('0x1::coin::WithdrawEvent')],
        ],
      },
      {
        name: 'CoinInfo',
        abilities: ['key'],
        generics: [true],
        fields: [['name', '0x1::string::String'], ['symbol', '0x1::string::String'], ['decimals', 'u8'], ['supply', '0x1::option::Option<u128>']],
      },
      { name: 'DepositEvent', abilities: ['drop', 'store'], fields: [['amount', 'u64']] },
      { name: 'WithdrawEvent', abilities: ['drop', 'store'], fields: [['amount', 'u64']] },
    ],
  },
  {
    name: 'event',
    functions: [{ name: 'counter', visibility: 'public', generics: 1, params: ['&0x1::event::EventHandle<T0>'], ret: ['u64'] }],
    structs: [{ name: 'EventHandle', abilities: ['store'], generics: [true], fields: [['counter', 'u64'], ['guid', '0x1::guid::GUID']] }],
  },
  {
    name: 'guid',
    friends: ['0x1::account'],
    functions: [{ name: 'creation_num', visibility: 'public', params: ['&0x1::guid::GUID'], ret: ['u64'] }],
    structs: [
      { name: 'GUID', abilities: ['drop', 'store'], fields: [['id', '0x1::guid::ID']] },
      { name: 'ID', abilities: ['copy', 'drop', 'store'], fields: [['creation_num', 'u64'], ['addr', 'address']] },
    ],
  },
  {
    name: 'option',
    functions: [
      { name: 'none', visibility: 'public', generics: 1, params: [], ret: ['0x1::option::Option<T0>'] },
      { name: 'some', visibility: 'public', generics: 1, params: ['T0'], ret: ['0x1::option::Option<T0>'] },
      { name: 'is_some', visibility: 'public', generics: 1, params: ['&0x1::option::Option<T0>'], ret: ['bool'] },
    ],
    structs: [{ name: 'Option', abilities: ['copy', 'drop', 'store'], generics: [false], fields: [['vec', 'vector<T0>']] }],
  },
  {
    name: 'signer',
    functions: [{ name: 'address_of', visibility: 'public', params: ['&signer'], ret: ['address'] }],
    structs: [],
  },
  {
    name: 'string',
    functions: [
      { name: 'utf8', visibility: 'public', params: ['vector<u8>'], ret: ['0x1::string::String'] },
      { name: 'length', visibility: 'public', params: ['&0x1::string::String'], ret: ['u64'] },
    ],
    structs: [{ name: 'String', abilities: ['copy', 'drop', 'store'], fields: [['bytes', 'vector<u8>']] }],
  },
  {
    name: 'supra_account',
    functions: [
      { name: 'transfer', visibility: 'public', entry: true, params: ['&signer', 'address', 'u64'] },
      { name: 'batch_transfer', visibility: 'public', entry: true, params: ['&signer', 'vector<address>', 'vector<u64>'] },
      { name: 'create_account', visibility: 'public', entry: true, params: ['address'] },
    ],
    structs: [{ name: 'DirectTransferConfig', abilities: ['key'], fields: [['allow_arbitrary_coin_transfers', 'bool']] }],
  },
  {
    name: 'supra_coin',
    friends: ['0x1::genesis'],
    functions: [{ name: 'mint', visibility: 'public', entry: true, params: ['&signer', 'address', 'u64'] }],
    structs: [
      { name: 'SupraCoin', abilities: ['key'], fields: [['dummy_field', 'bool']] },
      { name: 'MintCapStore', abilities: ['key'], fields: [['mint_cap', '0x1::coin::MintCapability<0x1::supra_coin::SupraCoin>']] },
    ],
  },
  {
    name: 'timestamp',
    friends: ['0x1::block', '0x1::genesis'],
    functions: [
      { name: 'now_microseconds', visibility: 'public', view: true, params: [], ret: ['u64'] },
      { name: 'now_seconds', visibility: 'public', view: true, params: [], ret: ['u64'] },
    ],
    structs: [{ name: 'CurrentTimeMicroseconds', abilities: ['key'], fields: [['microseconds', 'u64']] }],
  },
  {
    name: 'transaction_fee',
    friends: ['0x1::block', '0x1::genesis'],
    functions: [{ name: 'burn_fee', visibility: 'friend', params: ['address', 'u64'] }],
    structs: [
      {
        name: 'FeeStatement',
        abilities: ['drop', 'store'],
        fields: [
          ['total_charge_gas_units', 'u64'],
          ['execution_gas_units', 'u64'],
          ['io_gas_units', 'u64'],
          ['storage_fee_quants', 'u64'],
          ['storage_fee_refund_quants', 'u64'],
        ],
      },
    ],
  },
  {
    name: 'vector',
    functions: [
      { name: 'empty', visibility: 'public', generics: 1, params: [], ret: ['vector<T0>'] },
      { name: 'length', visibility: 'public', generics: 1, params: ['&vector<T0>'], ret: ['u64'] },
      { name: 'push_back', visibility: 'public', generics: 1, params: ['&mut vector<T0>', 'T0'] },
    ],
    structs: [],
  },
];

/** The coin tickers the publisher's `coins` module defines (it holds a CoinStore of each). */
export const PUBLISHER_COINS: readonly string[] = [
  'AAVE', 'ADA', 'ARB', 'ATOM', 'AVAX', 'BNB', 'DAI', 'DOGE', 'DOT', 'ETH', 'FIL', 'LINK',
  'LTC', 'MATIC', 'NEAR', 'OP', 'SHIB', 'SOL', 'SUI', 'TON', 'TRX', 'UNI', 'USDC', 'USDT',
];

function publisherModule(pub: string, name: string, seed: number): ModuleSpec {
  const own = (s: string): string => `${pub}::${name}::${s}`;
  switch (name) {
    case 'coins':
      return {
        name,
        functions: [{ name: 'mint', visibility: 'public', entry: true, generics: 1, params: ['&signer', 'address', 'u64'] }],
        structs: PUBLISHER_COINS.map((c): StructSpec => ({ name: c, abilities: [], fields: [['dummy_field', 'bool']] })),
      };
    case 'counter':
      return {
        name,
        functions: [
          { name: 'increment', visibility: 'public', entry: true, params: ['&signer'] },
          { name: 'value', visibility: 'public', view: true, params: ['address'], ret: ['u64'] },
        ],
        structs: [
          { name: 'Counter', abilities: ['key'], fields: [['value', 'u64'], ['incremented_events', EVENT_HANDLE(own('Incremented'))]] },
          { name: 'Incremented', abilities: ['drop', 'store'], fields: [['account', 'address'], ['new_value', 'u64']] },
        ],
      };
    case 'showcase':
      return {
        name,
        friends: [`${pub}::registry`],
        functions: [{ name: 'store_all_kinds', visibility: 'public', entry: true, params: ['&signer', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'bool', 'address'] }],
        structs: [
          {
            name: 'AllKinds',
            abilities: ['key'],
            fields: [
              ['small', 'u8'], ['port', 'u16'], ['flags', 'u32'], ['balance', 'u64'], ['big', 'u128'], ['huge', 'u256'],
              ['active', 'bool'], ['owner', 'address'], ['label', '0x1::string::String'], ['raw', 'vector<u8>'],
              ['ids', 'vector<u64>'], ['tags', 'vector<0x1::string::String>'], ['matrix', 'vector<vector<u64>>'],
              ['point', own('Point')], ['maybe_owner', '0x1::option::Option<address>'], ['maybe_limit', '0x1::option::Option<u64>'],
            ],
          },
          { name: 'Point', abilities: ['copy', 'drop', 'store'], fields: [['x', 'u64'], ['y', 'u64'], ['z', 'u32']] },
        ],
      };
    case 'vault':
      return {
        name,
        functions: [
          { name: 'deposit', visibility: 'public', entry: true, generics: 1, params: ['&signer', 'u64'] },
          { name: 'withdraw', visibility: 'public', entry: true, generics: 1, params: ['&signer', 'u64'] },
        ],
        structs: [{ name: 'Vault', abilities: ['key'], generics: [false], fields: [['items', 'T0'], ['locked_until', 'u64']] }],
      };
    case 'registry':
      return {
        name,
        friends: [`${pub}::showcase`],
        functions: [{ name: 'register', visibility: 'friend', generics: 1, params: ['&signer', 'T0'] }],
        structs: [{ name: 'Registry', abilities: ['key'], generics: [false], fields: [['entries', 'vector<T0>'], ['owner', 'address'], ['names', '0x1::table::Table<address, 0x1::string::String>']] }],
      };
    default: {
      // amm_*, staking and the feature_NN modules: shapes drawn from the seed.
      const rng = mulberry32(seed ^ fnv1a(`${pub}::${name}`));
      const fns = randInt(rng, 1, 6);
      const structs = randInt(rng, 0, 3);
      const types = ['u8', 'u64', 'u128', 'bool', 'address', 'vector<u8>', '0x1::string::String', '&signer'];
      return {
        name,
        functions: Array.from({ length: fns }, (_, i): FnSpec => {
          const entry = rng() < 0.5;
          return {
            name: `${entry ? 'do' : 'get'}_${name}_${i}`,
            visibility: rng() < 0.8 ? 'public' : 'friend',
            entry,
            view: !entry && rng() < 0.5,
            generics: rng() < 0.3 ? 1 : 0,
            params: entry ? ['&signer', ...Array.from({ length: randInt(rng, 0, 3) }, () => types[randInt(rng, 0, 6)] as string)] : ['address'],
            ret: entry ? [] : [types[randInt(rng, 0, 6)] as string],
          };
        }),
        structs: Array.from({ length: structs }, (_, i): StructSpec => ({
          name: `State${i}`,
          abilities: rng() < 0.5 ? ['key'] : ['copy', 'drop', 'store'],
          fields: Array.from({ length: randInt(rng, 1, 4) }, (_, f): [string, string] => [`field_${f}`, types[randInt(rng, 0, 6)] as string]),
        })),
      };
    }
  }
}

export function renderAbi(address: string, spec: ModuleSpec): MoveModule {
  const friends: Record<string, unknown> = {};
  for (const f of spec.friends ?? []) {
    const [addr, mod] = f.split('::') as [string, string];
    friends[f] = { address: addr, name: mod };
  }
  const exposed: Record<string, unknown> = {};
  for (const fn of spec.functions) {
    exposed[fn.name] = {
      name: fn.name,
      visibility: fn.visibility,
      is_entry: fn.entry ?? false,
      is_view: fn.view ?? false,
      generic_type_params: Array.from({ length: fn.generics ?? 0 }, () => ({ constraints: [] })),
      params: fn.params,
      return: fn.ret ?? [],
    };
  }
  const structs: Record<string, unknown> = {};
  for (const s of spec.structs) {
    structs[s.name] = {
      name: s.name,
      is_native: false,
      abilities: s.abilities,
      generic_type_params: (s.generics ?? []).map((phantom) => ({ constraints: [], is_phantom: phantom })),
      fields: s.fields.map(([name, type]) => ({ name, type })),
    };
  }
  return { address, name: { identifier: spec.name }, friends, exposed_functions: exposed, structs };
}

/** A module of an account, rendered on demand. */
export interface ModuleEntry {
  name: string;
  abi(): MoveModule;
  bytecode(): MoveModuleBytecode;
}

/** The modules an account published, sorted by name (the listing order). */
export function modulesOf(account: ChainAccountName, seed: number): ModuleEntry[] {
  const address = STUB_ACCOUNTS[account];
  let specs: Array<() => ModuleSpec>;
  if (account === 'framework') specs = FRAMEWORK.map((m) => () => m);
  else if (account === 'publisher') specs = PUBLISHER_MODULES.map((n) => () => publisherModule(address, n, seed));
  else return [];
  const names = account === 'framework' ? FRAMEWORK.map((m) => m.name) : [...PUBLISHER_MODULES];
  const entries = names.map((name, i): ModuleEntry => {
    const spec = specs[i] as () => ModuleSpec;
    return {
      name,
      abi: () => renderAbi(address, spec()),
      bytecode: () => {
        const s = spec();
        const rng = mulberry32(seed ^ fnv1a(`bytecode:${address}::${name}`));
        const size = 96 + 48 * s.functions.length + 32 * s.structs.length + randInt(rng, 0, 64);
        return { bytecode: `0xa11ceb0b0700000a${hexBytes(rng, size)}`, abi: renderAbi(address, s) };
      },
    };
  });
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
