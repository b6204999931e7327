/**
 * Response bodies in the forms live nodes send (docs/live-shapes.md), modelled on the public
 * sources it names: S1 (a testnet v1 transaction and a v1 resource read printed by the Supra CLI), S2
 * (the rpc_node snapshot tests: module ABIs, v1 listing cursors). Written by hand from those sources,
 * not by the stubs, so that tests of the live reading do not check the stubs against themselves.
 */
import type { MoveModule } from '@x/node-types';

const sender = '0xb8922417130785087f9c7926e76542531b703693fdc74c9386b65cf4427f4e80';

/** A v1 transaction as S1 prints it: timestamps, sender and events in their live forms. */
export const liveTransactionV1 = {
  authenticator: {
    Move: {
      Ed25519: {
        public_key: '0xbf8e1c1b2cf4f2b6c6d6ed5d1c3c4f2e9f0a3b4c5d6e7f8091a2b3c4d5e6f708',
        signature:
          '0x5c3bd0a0b1c2d3e4f5061728394a5b6c7d8e9fa0b1c2d3e4f5061728394a5b6c7d8e9fa0b1c2d3e4f5061728394a5b6c7d8e9fa0b1c2d3e4f50617283940a',
      },
    },
  },
  block_header: {
    hash: '0x7d5c2a0e0f8b9a6c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c',
    height: 5_137_268,
    timestamp: { microseconds_since_unix_epoch: 1_734_471_953_424_357, utc_date_time: '2024-12-17T21:45:53.424357+00:00' },
  },
  hash: '0x9e4f8a2b3c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7',
  header: {
    chain_id: 6,
    expiration_timestamp: { microseconds_since_unix_epoch: 1_734_472_253_000_000, utc_date_time: '2024-12-17T21:50:53+00:00' },
    sender: { Move: sender },
    sequence_number: 12,
    gas_unit_price: 100,
    max_gas_amount: 500_000,
  },
  payload: {
    Move: {
      type: 'entry_function_payload',
      function: '0x1::supra_account::transfer',
      type_arguments: [],
      arguments: ['0xa7d4b1f83c9e2d6a05b8c3f1e94d27a6b0c5d8e3f1a4b7c9e2d5f8a1b4c7e0d3', '1000'],
    },
  },
  output: {
    Move: {
      gas_used: 9,
      events: [
        {
          guid: { creation_number: '2', account_address: sender },
          sequence_number: '11',
          type: '0x1::coin::WithdrawEvent',
          data: { amount: '1000' },
        },
        {
          guid: { creation_number: '0', account_address: '0x0' },
          sequence_number: '0',
          type: '0x1::transaction_fee::FeeStatement',
          data: { execution_gas_units: '5', io_gas_units: '4', storage_fee_octas: '0', storage_fee_refund_octas: '0', total_charge_gas_units: '9' },
        },
      ],
      vm_status: 'Executed successfully',
    },
  },
  status: 'Success',
};

/**
 * A v3 user transaction in the live forms. No public source prints a v2 or v3 body: this is S1's v1
 * transaction on the v2 record (its `block_header` a BlockHeaderInfo) with the v3 tag. One node serves
 * every version from the same types (the overlay's nodes are shared schemas: SmrTimestamp, the header's
 * sender, Event), so v3 takes the same live forms.
 */
export const liveTransactionV3 = {
  ...liveTransactionV1,
  block_header: {
    author: '0x5f1c2a9e',
    hash: liveTransactionV1.block_header.hash,
    height: liveTransactionV1.block_header.height,
    parent: '0x3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b',
    timestamp: liveTransactionV1.block_header.timestamp,
    view: { epoch_id: { chain_id: 6, epoch: 1_042 }, round: 88_214 },
  },
  txn_type: 'user',
};

/** A module ABI as S2's snapshots show it. */
export const liveModuleAbi: MoveModule = {
  address: '0x1',
  name: 'acl',
  friends: ['0x1::genesis'],
  exposed_functions: [
    {
      name: 'add',
      visibility: 'public',
      is_entry: false,
      is_view: false,
      generic_type_params: [],
      params: ['&mut 0x1::acl::ACL', 'address'],
      return: [],
    },
    {
      name: 'contains',
      visibility: 'public',
      is_entry: false,
      is_view: true,
      generic_type_params: [{ constraints: [] }],
      params: ['&0x1::acl::ACL', 'address'],
      return: ['bool'],
    },
  ],
  structs: [
    {
      name: 'ACL',
      is_native: false,
      abilities: ['copy', 'drop', 'store'],
      generic_type_params: [{ constraints: [], is_phantom: true }],
      fields: [{ name: 'list', type: 'vector<address>' }],
    },
  ],
};

/** A v1 module listing: pairs as documented, the cursor as hex (S2). */
export const liveModulesV1 = {
  Modules: {
    modules: [['0x0000000000000000000000000000000000000000000000000000000000000001::acl', { address: '0000000000000000000000000000000000000000000000000000000000000001', name: 'acl' }]],
    cursor: '00000000000000000000000000000000000000000000000000000000000000010361636c',
  },
};

/** A v1 resource read: the bare struct JSON (S1, S2). */
export const liveResourceV1 = {
  result: [
    {
      coin: { value: '49997100' },
      deposit_events: { counter: '1', guid: { id: { addr: sender, creation_num: '2' } } },
      frozen: false,
      withdraw_events: { counter: '12', guid: { id: { addr: sender, creation_num: '3' } } },
    },
  ],
};
