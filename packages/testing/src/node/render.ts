/** Renders transactions of the synthetic chain as TransactionInfoV1 / TransactionInfoV2 records. */
import type { components } from '@x/node-types';
import { sha256Hex } from '../random.ts';
import { STUB_ACCOUNTS } from './accounts.ts';
import { GAS_UNIT_PRICE, blockAuthor, blockHash, txHash, type BlockInfo, type Chain, type TxInfo } from './chain.ts';

type TransactionInfoV1 = components['schemas']['TransactionInfoV1'];
type TransactionInfoV2 = components['schemas']['TransactionInfoV2'];
type TransactionOutput = components['schemas']['TransactionOutput'];
type TxExecutionStatus = components['schemas']['TxExecutionStatus'];
type Event = components['schemas']['Event'];
type TransactionBlockInfo = components['schemas']['TransactionBlockInfo'];
type BlockHeaderInfo = components['schemas']['BlockHeaderInfo'];
type SmrTransactionHeader = components['schemas']['SmrTransactionHeader'];

const PUB = STUB_ACCOUNTS.publisher;
const ZERO_ADDRESS = '0x0';

/** Event stream id: `<account address>:<creation number>`. */
const guid = (address: string, creationNum: number): string => `${address}:${creationNum}`;

function feeStatement(gas: number): Event {
  const io = Math.floor(gas / 3);
  return {
    guid: guid(ZERO_ADDRESS, 0),
    sequence_number: 0,
    type: '0x1::transaction_fee::FeeStatement',
    data: {
      total_charge_gas_units: String(gas),
      execution_gas_units: String(gas - io),
      io_gas_units: String(io),
      storage_fee_quants: '0',
      storage_fee_refund_quants: '0',
    },
  };
}

interface Parts {
  authenticator: Record<string, unknown>;
  payload: Record<string, unknown>;
  output: TransactionOutput;
  status: TxExecutionStatus;
}

function parts(chain: Chain, tx: TxInfo): Parts {
  const sender = chain.accounts[tx.sender].address;
  const moveAuth = {
    Move: {
      Ed25519: {
        public_key: `0x${sha256Hex('public-key', sender)}`,
        signature: `0x${sha256Hex('sig-r', chain.seed, tx.gi)}${sha256Hex('sig-s', chain.seed, tx.gi)}`,
      },
    },
  };
  const entry = (fn: string, args: unknown[], typeArgs: string[] = []): Record<string, unknown> => ({
    Move: { type: 'entry_function_payload', function: fn, type_arguments: typeArgs, arguments: args },
  });
  const intent = tx.intent;
  switch (intent.kind) {
    case 'transfer': {
      const to = chain.accounts[intent.to].address;
      const payload = entry('0x1::supra_account::transfer', [to, String(tx.amount)]);
      if (!intent.ok) {
        return {
          authenticator: moveAuth,
          payload,
          status: 'Fail',
          output: {
            Move: {
              gas_used: tx.gasUsed,
              events: [feeStatement(tx.gasUsed)],
              vm_status: 'Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): Not enough coins to complete transaction',
            },
          },
        };
      }
      return {
        authenticator: moveAuth,
        payload,
        status: 'Success',
        output: {
          Move: {
            gas_used: tx.gasUsed,
            events: [
              { guid: guid(sender, 3), sequence_number: tx.withdrawSeq, type: '0x1::coin::WithdrawEvent', data: { amount: String(tx.amount) } },
              { guid: guid(to, 2), sequence_number: tx.depositSeq, type: '0x1::coin::DepositEvent', data: { amount: String(tx.amount) } },
              feeStatement(tx.gasUsed),
            ],
            vm_status: 'Executed successfully',
          },
        },
      };
    }
    case 'call':
      return {
        authenticator: moveAuth,
        payload: entry(`${PUB}::counter::increment`, []),
        status: 'Success',
        output: {
          Move: {
            gas_used: tx.gasUsed,
            events: [
              {
                guid: guid(sender, 4),
                sequence_number: tx.callSeq,
                type: `${PUB}::counter::Incremented`,
                data: { account: sender, new_value: String(tx.callSeq + 1) },
              },
              feeStatement(tx.gasUsed),
            ],
            vm_status: 'Executed successfully',
          },
        },
      };
    case 'publish':
      return {
        authenticator: moveAuth,
        payload: entry('0x1::code::publish_package_txn', [
          `0x${sha256Hex('metadata', chain.seed, intent.module)}`,
          [`0xa11ceb0b0700000a${sha256Hex('code', chain.seed, intent.module)}`],
        ]),
        status: 'Success',
        output: {
          Move: {
            gas_used: tx.gasUsed,
            events: [
              { guid: guid(ZERO_ADDRESS, 0), sequence_number: 0, type: '0x1::code::PublishPackage', data: { code_address: sender, is_upgrade: false } },
              feeStatement(tx.gasUsed),
            ],
            vm_status: 'Executed successfully',
          },
        },
      };
    case 'dkg':
      return {
        authenticator: { Dkg: { committee_signature: `0x${sha256Hex('dkg-sig', chain.seed, tx.gi)}` } },
        payload: { Dkg: { epoch: chain.blocks[tx.block]?.epoch ?? 0, dealer: tx.seq % 5, transcript_hash: `0x${sha256Hex('dkg', chain.seed, tx.gi)}` } },
        status: 'Success',
        output: { Dkg: 'Success' },
      };
    case 'oracle':
      return {
        authenticator: { Oracle: { committee_signature: `0x${sha256Hex('oracle-sig', chain.seed, tx.gi)}` } },
        payload: { Oracle: { round: tx.seq, pair_indexes: [0, 1, 19, 49] } },
        status: intent.ok ? 'Success' : 'Fail',
        output: { Oracle: intent.ok ? 'Success' : 'Fail' },
      };
    case 'meta':
      return {
        authenticator: { BlockMetadata: {} },
        payload: { BlockMetadata: { height: chain.blocks[tx.block]?.height ?? 0 } },
        status: 'Success',
        output: 'Empty',
      };
  }
}

function header(chain: Chain, tx: TxInfo, chainId: number): SmrTransactionHeader {
  const system = tx.intent.kind === 'dkg' || tx.intent.kind === 'oracle' || tx.intent.kind === 'meta';
  return {
    chain_id: chainId,
    expiration_timestamp: { timestamp: tx.expirationUs },
    sender: chain.accounts[tx.sender].address,
    sequence_number: tx.seq,
    gas_unit_price: system ? 0 : GAS_UNIT_PRICE,
    max_gas_amount: system ? 0 : 500_000,
  };
}

function blockOf(chain: Chain, tx: TxInfo): BlockInfo {
  const b = chain.blocks[tx.block];
  if (b === undefined) throw new Error(`transaction ${tx.gi} has no block`);
  return b;
}

export function blockInfoV1(chain: Chain, b: BlockInfo): TransactionBlockInfo {
  return { hash: blockHash(chain.seed, b.height), height: b.height, timestamp: { timestamp: b.timestampUs } };
}

/** A v2 block header; `chainId` is the stub's (its `chainId` option). */
export function blockHeaderV2(chain: Chain, b: BlockInfo, chainId: number): BlockHeaderInfo {
  return {
    author: blockAuthor(chain, b.round),
    hash: blockHash(chain.seed, b.height),
    height: b.height,
    parent: blockHash(chain.seed, b.height - 1),
    timestamp: { timestamp: b.timestampUs },
    view: { epoch_id: { chain_id: chainId, epoch: b.epoch }, round: b.round },
  };
}

export function renderTxV1(chain: Chain, tx: TxInfo, chainId: number): TransactionInfoV1 {
  const p = parts(chain, tx);
  return {
    authenticator: p.authenticator,
    block_header: blockInfoV1(chain, blockOf(chain, tx)),
    hash: txHash(chain.seed, tx.gi),
    header: header(chain, tx, chainId),
    payload: p.payload,
    output: p.output,
    status: p.status,
  };
}

export function renderTxV2(chain: Chain, tx: TxInfo, chainId: number): TransactionInfoV2 {
  const p = parts(chain, tx);
  return {
    authenticator: p.authenticator,
    block_header: blockHeaderV2(chain, blockOf(chain, tx), chainId),
    hash: txHash(chain.seed, tx.gi),
    header: header(chain, tx, chainId),
    payload: p.payload,
    output: p.output,
    status: p.status,
  };
}
