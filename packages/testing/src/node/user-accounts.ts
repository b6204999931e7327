/**
 * Accounts a test defines next to the seeded ones: a sequence number, transactions built from a few
 * fields, resources and modules. Their transactions land after the seeded chain, each in a block of its
 * own, and are rendered once, up front, in the documented forms (the router turns them live per request
 * like every other body). The seeded accounts stay byte-identical for a seed: a transfer to one of them
 * shows in the sender's listings, not in theirs.
 */
import { StubArgumentError } from '../errors.ts';
import { fnv1a, hexBytes, mulberry32, sha256Hex } from '../random.ts';
import { STUB_ACCOUNTS } from './accounts.ts';
import { GAS_UNIT_PRICE, authKey, type BlockInfo, type Chain } from './chain.ts';
import { canonicalAddress, readU64 } from '@x/common';
import { IDENTIFIER, RESOURCE_TYPE, parseTypeTag, structTagToString } from './move.ts';
import { renderAbi, type FnSpec, type ModuleEntry, type StructSpec } from './modules.ts';
import { blockHeaderV2, blockInfoV1 } from './render.ts';
import type { AccountView, ResourceView, TxView } from './views.ts';

export type { FnSpec as FunctionSpec, StructSpec } from './modules.ts';

/**
 * One transaction a user account sent: a coin transfer (`to`), an entry function call (`function`), or
 * an EVM contract call (`evm`, its result: an `{ Evm }` output, status `Success` only for `'Success'`).
 */
export interface TransactionSpec {
  /** A coin transfer to this address, or to an account by name (seeded or user-defined). */
  to?: string;
  /** Amount of a transfer, in the smallest unit (u64). Default 1,000,000. */
  amount?: number | string | bigint;
  /** An entry function call instead of a transfer, e.g. `0x1::counter::increment`. */
  function?: string;
  arguments?: unknown[];
  typeArguments?: string[];
  /**
   * An EVM contract call ending in this result (its output's form, `EvmTransactionOutput`), instead of a
   * Move transaction (no `to`, no `function`).
   */
  evm?: 'Success' | 'Revert' | 'Halt' | 'Error';
  /** Default `Success`. A failed transfer moves no coins and is not a coin transaction. Not for `evm`. */
  status?: 'Success' | 'Fail';
  /** Default: 12 for a transfer, 20 for a call, 21,000 for an EVM call (500,000, all of it, for `Halt`; none for `Error`). */
  gasUsed?: number;
  /** Default `Executed successfully`, or an abort text when `status` is `Fail`. */
  vmStatus?: string;
  /** Events the call emits (a transfer emits its Withdraw and Deposit events itself); a FeeStatement follows. */
  events?: Array<{ type: string; data: unknown }>;
}

/** An account a test defines: `startNodeStub({ accounts: { carol: { transactions: [{ to: 'alice' }] } } })`. */
export interface AccountSpec {
  /** Its address (any form the API accepts). Default: derived from its name. */
  address?: string;
  /** What `getAccount` answers; at least the number of `transactions`. Default: that number. */
  sequenceNumber?: number;
  /** Balance before its transactions (u64). Default 1,000,000,000,000. */
  balance?: number | string | bigint;
  /** The transactions it sent, in sequence-number order. */
  transactions?: TransactionSpec[];
  /** Resources besides its `0x1::account::Account` and `0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>`. */
  resources?: Array<{ type: string; data: Record<string, unknown> }>;
  /** Modules it published. */
  modules?: Array<{ name: string; friends?: string[]; functions?: FnSpec[]; structs?: StructSpec[]; bytecode?: string }>;
}

type Obj = Record<string, unknown>;

/** A user account as the router reads it (the same view as a seeded account's). */
interface UserAccount extends AccountView {
  readonly name: string;
  sent: TxView[];
  coin: TxView[];
  modules: ModuleEntry[];
  resources: ResourceView[];
}

const DEFAULT_BALANCE = 1_000_000_000_000n;
/** Every user transaction's `max_gas_amount`: what a halted EVM call spends. */
const MAX_GAS_AMOUNT = 500_000;

function u64(value: number | string | bigint | undefined, fallback: bigint, where: string): bigint {
  if (value === undefined) return fallback;
  const n = readU64(value);
  if (n === undefined) throw new StubArgumentError(where, `must be an unsigned 64-bit integer, got ${String(value)}`);
  return n;
}

/** A user account's canonical address: its own, or one derived from its name; `undefined` when malformed. */
export function userAddress(name: string, spec: AccountSpec): string | undefined {
  return spec.address === undefined ? `0x${sha256Hex('user-account', name)}` : canonicalAddress(spec.address);
}

/** The user accounts of one stub, by canonical address; `chainId` is the stub's (in their transactions' headers). */
export function buildUserAccounts(chain: Chain, specs: Readonly<Record<string, AccountSpec>>, chainId: number): Map<string, AccountView> {
  const users = new Map<string, UserAccount>();
  const seededByName = new Map<string, string>(Object.entries(STUB_ACCOUNTS));
  const addressOf = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) {
    const at = `accounts.${name}`;
    if (seededByName.has(name)) throw new StubArgumentError(at, `'${name}' is the name of a seeded account`);
    const address = userAddress(name, spec);
    if (address === undefined) throw new StubArgumentError(`${at}.address`, `must be 1 to 64 hex digits with or without 0x, got '${spec.address}'`);
    if (chain.byAddress.has(address) || address === STUB_ACCOUNTS.unknown || users.has(address)) {
      throw new StubArgumentError(`${at}.address`, `${address} is already an account of this stub`);
    }
    const count = spec.transactions?.length ?? 0;
    const sequenceNumber = spec.sequenceNumber ?? count;
    if (!Number.isSafeInteger(sequenceNumber) || sequenceNumber < count) {
      throw new StubArgumentError(`${at}.sequenceNumber`, `must be an integer >= the ${count} transactions given, got ${sequenceNumber}`);
    }
    addressOf.set(name, address);
    users.set(address, { name, address, sequenceNumber, authenticationKey: authKey(address), sent: [], coin: [], modules: [], resources: [] });
  }
  const recipient = (to: string, where: string): string => {
    const a = addressOf.get(to) ?? seededByName.get(to) ?? canonicalAddress(to);
    if (a === undefined) throw new StubArgumentError(where, `must be an address or an account name, got '${to}'`);
    return a;
  };

  // Blocks after the seeded chain's last one, one per transaction, 0.4-1.2 s apart.
  const last = chain.blocks[chain.blocks.length - 1] as BlockInfo;
  let height = last.height;
  let round = last.round;
  let timestampUs = last.timestampUs;
  const rng = mulberry32(chain.seed ^ 0x05e7ac);
  const balances = new Map<string, bigint>();
  /** Next sequence number of each event stream (`<address>:<creation number>`). */
  const streams = new Map<string, number>();
  const nextSeq = (guid: string, from = 0): number => {
    const n = streams.get(guid) ?? from;
    streams.set(guid, n + 1);
    return n;
  };
  /** Creation numbers of each user account's own event streams, by event type (4 and up: 0-3 are the account's). */
  const creationNumbers = new Map<string, Map<string, number>>();
  const streamOf = (sender: string, type: string): string => {
    let own = creationNumbers.get(sender);
    if (own === undefined) creationNumbers.set(sender, (own = new Map()));
    let n = own.get(type);
    if (n === undefined) own.set(type, (n = 4 + own.size));
    return `${sender}:${n}`;
  };

  for (const [name, spec] of Object.entries(specs)) {
    const user = users.get(addressOf.get(name) as string) as UserAccount;
    const sender = user.address;
    balances.set(sender, (balances.get(sender) ?? 0n) + u64(spec.balance, DEFAULT_BALANCE, `accounts.${name}.balance`));
    (spec.transactions ?? []).forEach((t, seq) => {
      const at = `accounts.${name}.transactions[${seq}]`;
      const forms = [t.to, t.function, t.evm].filter((f) => f !== undefined).length;
      if (forms !== 1) throw new StubArgumentError(at, 'give one of to (a transfer), function (a call) or evm (an EVM call)');
      if (t.evm !== undefined && !EVM_RESULTS.includes(t.evm)) throw new StubArgumentError(`${at}.evm`, `must be one of ${EVM_RESULTS.join(', ')}, got '${String(t.evm)}'`);
      if (t.evm !== undefined && t.status !== undefined) throw new StubArgumentError(`${at}.status`, 'an EVM call takes its status from evm; give no status');
      const ok = t.evm !== undefined ? t.evm === 'Success' : (t.status ?? 'Success') === 'Success';
      if (t.status !== undefined && t.status !== 'Success' && t.status !== 'Fail') throw new StubArgumentError(`${at}.status`, `must be Success or Fail, got '${String(t.status)}'`);
      const gasUsed = t.evm === 'Error' ? 0 : (t.gasUsed ?? (t.to !== undefined ? 12 : t.evm === 'Halt' ? MAX_GAS_AMOUNT : t.evm !== undefined ? 21_000 : 20));
      if (!Number.isSafeInteger(gasUsed) || gasUsed < 0) throw new StubArgumentError(`${at}.gasUsed`, `must be a non-negative integer, got ${gasUsed}`);
      // A skipped height is a block too (ledger.ts), so rounds move on at least as far as heights.
      const step = 1 + (rng() < 0.3 ? 1 : 0);
      height += step;
      round += step + (rng() < 0.05 ? 1 : 0);
      timestampUs += 400_000 + Math.floor(rng() * 800_000);
      const block: BlockInfo = { height, timestampUs, epoch: last.epoch, round, firstTx: -1, txCount: 1 };

      const fee = { guid: '0x0:0', sequence_number: 0, type: '0x1::transaction_fee::FeeStatement', data: { total_charge_gas_units: String(gasUsed), execution_gas_units: String(gasUsed), io_gas_units: '0', storage_fee_quants: '0', storage_fee_refund_quants: '0' } };
      let payload: Obj;
      let events: Obj[];
      let to: string | undefined;
      if (t.to !== undefined) {
        to = recipient(t.to, `${at}.to`);
        const amount = u64(t.amount, 1_000_000n, `${at}.amount`);
        payload = { type: 'entry_function_payload', function: '0x1::supra_account::transfer', type_arguments: [], arguments: [to, amount.toString()] };
        const held = balances.get(sender) ?? 0n;
        if (ok && amount + BigInt(gasUsed * GAS_UNIT_PRICE) > held) {
          throw new StubArgumentError(`${at}.amount`, `${amount} and its gas are more than the account holds then (${held}); give it a larger balance, or status: 'Fail'`);
        }
        // A seeded recipient's deposit stream goes on from the seeded chain's count.
        events = ok
          ? [
              { guid: `${sender}:3`, sequence_number: nextSeq(`${sender}:3`), type: '0x1::coin::WithdrawEvent', data: { amount: amount.toString() } },
              { guid: `${to}:2`, sequence_number: nextSeq(`${to}:2`, chain.byAddress.get(to)?.depositCount ?? 0), type: '0x1::coin::DepositEvent', data: { amount: amount.toString() } },
            ]
          : [];
        if (ok) {
          balances.set(sender, held - amount);
          balances.set(to, (balances.get(to) ?? 0n) + amount);
        }
      } else if (t.evm !== undefined) {
        payload = evmPayload(chain.seed, sender, seq);
        events = [];
      } else {
        payload = { type: 'entry_function_payload', function: t.function, type_arguments: t.typeArguments ?? [], arguments: t.arguments ?? [] };
        // A failed Move transaction emits no events of its own, only the fee statement.
        events = ok
          ? (t.events ?? []).map((e) => {
              const guid = streamOf(sender, e.type);
              return { guid, sequence_number: nextSeq(guid), type: e.type, data: e.data };
            })
          : [];
      }
      const gas = BigInt(gasUsed * GAS_UNIT_PRICE);
      if (gas > (balances.get(sender) ?? 0n)) {
        throw new StubArgumentError(`${at}.gasUsed`, `its gas (${gas}) is more than the account holds then (${balances.get(sender) ?? 0n})`);
      }
      balances.set(sender, (balances.get(sender) ?? 0n) - gas);
      const vmStatus = t.vmStatus ?? (ok ? 'Executed successfully' : 'Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): Not enough coins to complete transaction');
      const common = {
        authenticator: {
          Move: {
            Ed25519: {
              public_key: `0x${sha256Hex('public-key', sender)}`,
              signature: `0x${sha256Hex('user-sig-r', chain.seed, sender, seq)}${sha256Hex('user-sig-s', chain.seed, sender, seq)}`,
            },
          },
        },
        hash: `0x${sha256Hex('user-tx', chain.seed, sender, seq)}`,
        header: {
          chain_id: chainId,
          expiration_timestamp: { timestamp: timestampUs - 1_000_000 + 300_000_000 },
          sender,
          sequence_number: seq,
          gas_unit_price: GAS_UNIT_PRICE,
          max_gas_amount: MAX_GAS_AMOUNT,
        },
        payload: t.evm !== undefined ? { Evm: payload } : { Move: payload },
        output: t.evm !== undefined ? { Evm: evmOutput(t.evm, gasUsed, chain.seed, sender, seq) } : { Move: { gas_used: gasUsed, events: [...events, fee], vm_status: vmStatus } },
        status: ok ? 'Success' : 'Fail',
      };
      const v1 = { ...common, block_header: blockInfoV1(chain, block) };
      const v2 = { ...common, block_header: blockHeaderV2(chain, block, chainId) };
      const tx: TxView = { cursor: timestampUs, height, hash: common.hash, block, indexInBlock: 0, render: (v) => (v === 'v1' ? v1 : v2) };
      user.sent.push(tx);
      if (ok && to !== undefined) {
        user.coin.push(tx);
        const r = users.get(to);
        if (r !== undefined && r !== user) r.coin.push(tx);
      }
    });
  }

  for (const [name, spec] of Object.entries(specs)) {
    const user = users.get(addressOf.get(name) as string) as UserAccount;
    user.coin.sort((a, b) => a.cursor - b.cursor);
    user.resources = [...defaultResources(user, balances.get(user.address) ?? 0n, streams, 4 + (creationNumbers.get(user.address)?.size ?? 0)), ...(spec.resources ?? []).map((r, i) => resource(r, `accounts.${name}.resources[${i}]`))];
    user.resources.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
    user.modules = (spec.modules ?? []).map((m, i) => moduleEntry(user.address, m, chain.seed, `accounts.${name}.modules[${i}]`));
    user.modules.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return users;
}

/** What an EVM transaction's execution ended in: its output's result form. */
type EvmResult = NonNullable<TransactionSpec['evm']>;
const EVM_RESULTS: readonly EvmResult[] = ['Success', 'Revert', 'Halt', 'Error'];

/** An EVM contract call's payload: the contract (20 bytes), no value, a 4-byte selector and one word. */
function evmPayload(seed: number, sender: string, seq: number): Obj {
  return { to: `0x${sha256Hex('evm-contract', seed, sender).slice(0, 40)}`, value: '0', input: `0xa9059cbb${sha256Hex('evm-input', seed, sender, seq)}` };
}

/** An EVM output of one result form, as the node's served document describes `EvmTransactionOutput`. */
function evmOutput(result: EvmResult, gasUsed: number, seed: number, sender: string, seq: number): Obj {
  switch (result) {
    case 'Success':
      return {
        Success: {
          reason: 'Stop',
          gas_used: gasUsed,
          gas_refunded: 0,
          logs: [{ address: `0x${sha256Hex('evm-contract', seed, sender).slice(0, 40)}`, topics: [`0x${sha256Hex('evm-topic', seed, sender, seq)}`], data: '0x' }],
          output: { Call: '0x' },
          transfers: [],
        },
      };
    case 'Revert':
      return { Revert: { gas_used: gasUsed, output: '0x08c379a0' } };
    case 'Halt':
      return { Halt: { reason: 'OutOfGas', gas_used: gasUsed } };
    case 'Error':
      return { Error: { message: 'nonce too low' } };
  }
}

export function resource(r: { type: string; data: Record<string, unknown> }, at: string): ResourceView {
  const parsed = RESOURCE_TYPE.test(r.type) ? parseTypeTag(r.type) : undefined;
  if (parsed === undefined || typeof parsed === 'string' || !('struct' in parsed)) {
    throw new StubArgumentError(`${at}.type`, `must be a Move struct type matching ^0x[0-9a-zA-Z:_<>]+$, got '${r.type}'`);
  }
  if (typeof r.data !== 'object' || r.data === null || Array.isArray(r.data)) throw new StubArgumentError(`${at}.data`, 'must be an object (the struct as JSON)');
  const data = r.data;
  // v1 documented: the struct as one Struct MoveValue (the document's "object mapping top-level field
  // names to JSON values"); the data carries no Move types to split it field by field as the seeded ones.
  return { type: structTagToString(parsed.struct), tag: parsed.struct, data: () => data, v1Result: () => [{ Struct: data }] };
}

function defaultResources(user: UserAccount, balance: bigint, streams: Map<string, number>, guidCreationNum: number): ResourceView[] {
  const handle = (n: number): Obj => ({
    counter: String(streams.get(`${user.address}:${n}`) ?? 0),
    guid: { id: { addr: user.address, creation_num: String(n) } },
  });
  return [
    resource(
      {
        type: '0x1::account::Account',
        data: {
          authentication_key: authKey(user.address),
          sequence_number: String(user.sequenceNumber),
          guid_creation_num: String(guidCreationNum),
          coin_register_events: handle(0),
          key_rotation_events: handle(1),
          rotation_capability_offer: { for: { vec: [] } },
          signer_capability_offer: { for: { vec: [] } },
        },
      },
      'accounts',
    ),
    resource(
      {
        type: '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>',
        data: { coin: { value: balance.toString() }, deposit_events: handle(2), frozen: false, withdraw_events: handle(3) },
      },
      'accounts',
    ),
  ];
}

function moduleEntry(address: string, m: NonNullable<AccountSpec['modules']>[number], seed: number, at: string): ModuleEntry {
  if (typeof m.name !== 'string' || !IDENTIFIER.test(m.name)) throw new StubArgumentError(`${at}.name`, `must be a Move identifier, got '${String(m.name)}'`);
  if (m.bytecode !== undefined && !/^0x([0-9a-f]{2})+$/.test(m.bytecode)) throw new StubArgumentError(`${at}.bytecode`, 'must be 0x and lowercase hex bytes');
  const spec = { name: m.name, friends: m.friends ?? [], functions: m.functions ?? [], structs: m.structs ?? [] };
  const bytecode = m.bytecode ?? `0xa11ceb0b0700000a${hexBytes(mulberry32(seed ^ fnv1a(`bytecode:${address}::${m.name}`)), 96)}`;
  return { name: m.name, abi: () => renderAbi(address, spec), bytecode: () => ({ bytecode, abi: renderAbi(address, spec) }) };
}
