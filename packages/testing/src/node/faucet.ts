/**
 * The testnet faucet (`fundAccountV1`, `getFaucetTransactionV2`): each call credits the account with
 * `FAUCET_AMOUNT` quants of SupraCoin and answers the hash of the transfer, which the faucet's
 * transaction read then finds. The credit shows wherever the account's SupraCoin CoinStore does (its
 * resource reads, the `0x1::coin::balance` view); an address the chain does not know becomes an account
 * with only that CoinStore. The transfers are in no block (their `block_header` is null) and no listing:
 * the chain's history stays the seed's. State lives as long as the stub.
 */
import { errorResponse, jsonResponse, type StubResponse } from '../router.ts';
import { sha256Hex } from '../random.ts';
import { GAS_UNIT_PRICE } from './chain.ts';
import type { ChainHandler, Handler } from './handling.ts';
import { resource } from './user-accounts.ts';
import type { AccountView, ResourceView } from './views.ts';

/** What one faucet call sends: 5 SUPRA (8 decimals). */
export const FAUCET_AMOUNT = 500_000_000n;
/** The faucet's own account (the sender of its transfers). */
const FAUCET_ADDRESS = `0x${sha256Hex('faucet-account')}`;
const SUPRA_COIN_STORE = '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>';
const HASH = /^(0x)?[0-9a-fA-F]{64}$/;

type Body = Record<string, unknown>;

interface Transfer {
  readonly to: string;
  readonly seq: number;
  readonly atMs: number;
}

export function createFaucet(chainId: number, clock: () => number) {
  const credits = new Map<string, bigint>();
  const transfers = new Map<string, Transfer>();

  /** The SupraCoin CoinStore holding `value`, with the fields a CoinStore has. */
  const coinStore = (address: string, value: bigint, base?: Body): ResourceView =>
    resource({ type: SUPRA_COIN_STORE, data: { ...(base ?? { deposit_events: handle(address, 2), frozen: false, withdraw_events: handle(address, 3) }), coin: { value: value.toString() } } }, 'faucet');
  const handle = (address: string, n: number): Body => ({ counter: '0', guid: { id: { addr: address, creation_num: String(n) } } });

  /** The account as the faucet left it: its CoinStore credited, or a new account holding only what it was sent. */
  const view = (address: string, account: AccountView | undefined): AccountView | undefined => {
    const credit = credits.get(address);
    if (credit === undefined) return account;
    if (account === undefined) {
      return { address, sequenceNumber: 0, authenticationKey: `0x${address.slice(2).padStart(64, '0')}`, sent: [], coin: [], modules: [], resources: [coinStore(address, credit)] };
    }
    const has = account.resources.some((r) => r.type === SUPRA_COIN_STORE);
    const resources = has
      ? account.resources.map((r) => {
          if (r.type !== SUPRA_COIN_STORE) return r;
          const data = r.data();
          return coinStore(address, BigInt(String((data.coin as { value: string | number }).value)) + credit, data);
        })
      : [...account.resources, coinStore(address, credit)].sort((a, b) => (a.type < b.type ? -1 : 1));
    return { ...account, resources };
  };

  /** `fundAccountV1`: credits the account, answers `{ Accepted: <hash of the transfer> }`. */
  const fund: Handler = ({ address }) => {
    const seq = transfers.size;
    const hash = `0x${sha256Hex('faucet-transfer', address, seq)}`;
    transfers.set(hash, { to: address, seq, atMs: clock() });
    credits.set(address, (credits.get(address) ?? 0n) + FAUCET_AMOUNT);
    return jsonResponse(200, { Accepted: hash });
  };

  /**
   * `getFaucetTransactionV2`: a transfer the faucet made, as a TransactionInfoV2; else the chain's
   * transaction with that hash (`other`: the node reads any transaction there); else 404.
   */
  const transaction =
    (other: (hash: string, live: boolean) => Body | undefined): ChainHandler =>
    ({ params, live }): StubResponse => {
    const raw = params.hash as string;
    if (!HASH.test(raw)) return errorResponse(400, 'invalid_hash', `hash must be 64 hex digits with or without 0x, got '${raw}'`);
    const hash = `0x${raw.slice(raw.length - 64).toLowerCase()}`;
    const t = transfers.get(hash);
    if (t === undefined) {
      const found = other(hash, live);
      return found === undefined ? jsonResponse(404, { message: `no transaction with hash ${hash}` }) : jsonResponse(200, found);
    }
    const gas = 9;
    return jsonResponse(200, {
      authenticator: { Move: { Ed25519: { public_key: `0x${sha256Hex('public-key', FAUCET_ADDRESS)}`, signature: `0x${sha256Hex('faucet-sig-r', t.seq)}${sha256Hex('faucet-sig-s', t.seq)}` } } },
      block_header: null,
      hash,
      header: {
        chain_id: chainId,
        expiration_timestamp: { timestamp: (t.atMs + 300_000) * 1000 },
        sender: FAUCET_ADDRESS,
        sequence_number: t.seq,
        gas_unit_price: GAS_UNIT_PRICE,
        max_gas_amount: 500_000,
      },
      payload: { Move: { type: 'entry_function_payload', function: '0x1::supra_account::transfer', type_arguments: [], arguments: [t.to, FAUCET_AMOUNT.toString()] } },
      output: { Move: { gas_used: gas, events: [], vm_status: 'Executed successfully' } },
      status: 'Success',
    });
  };

  return { view, handlers: { fundAccountV1: fund }, transaction };
}
