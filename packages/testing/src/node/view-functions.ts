/**
 * View functions (`viewV3`, `POST /rpc/v3/view`): the framework's read-only functions a wallet or explorer
 * calls, run over the stub's own data, so that a view agrees with the resources and the ledger it reads
 * (`coin::balance` is the CoinStore's value, `account::get_sequence_number` the account's sequence number,
 * `block::get_current_block_height` the latest block). A call is resolved as a node resolves it: the
 * module must be published, the function declared in its ABI as a view, with as many type arguments and
 * arguments as it declares, each argument readable as its parameter's type. Results are plain JSON (u64
 * as decimal text, u8 to u32 as numbers), as real nodes send them (LIVE-SHAPES.md, S5). What fails is a
 * 400 whose message says why, as on nodes since v11.7.
 */
import { canonicalAddress } from '@x/common';
import { errorResponse, jsonResponse, type StubResponse } from '../router.ts';
import { STUB_ACCOUNTS } from './accounts.ts';
import type { ChainCall, ChainHandler } from './handling.ts';
import type { Ledger } from './ledger.ts';
import { readMove } from './move-json.ts';
import { STRING_TAG, V, optionTag, parseTypeTag, st, toJson, typeTagToString, type MoveVal, type TypeTag } from './move.ts';
import { readJsonBody } from './request-body.ts';
import type { AccountView } from './views.ts';

type Body = Record<string, unknown>;

/** What the view functions read: accounts and their resources, the ledger, the chain id and the clock. */
export interface ViewContext {
  account(address: string): AccountView | undefined;
  readonly ledger: Ledger;
  readonly chainId: number;
}

/** A function's run: its results, or the abort a node would report. */
type Outcome = MoveVal[] | { abort: string };
type Run = (env: Env, args: readonly MoveVal[], typeArgs: readonly TypeTag[]) => Outcome;

interface Env {
  account(address: string): AccountView | undefined;
  /** The struct JSON of the resource `type` at `address`. */
  resource(address: string, type: string): Body | undefined;
  readonly call: ChainCall;
  readonly ledger: Ledger;
  readonly chainId: number;
}

/** The function id as a request names it: `address::module::function` (the document's MoveFunctionId). */
const FUNCTION_ID = /^(0x)?([0-9a-fA-F]{1,64})::([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)$/;

const addressOf = (v: MoveVal | undefined): string => (v?.t === 'address' ? v.v : '');
const abort = (module: string, code: string, value: number, why: string): { abort: string } => ({
  abort: `Move abort in ${module}: ${code}(0x${value.toString(16)}): ${why}`,
});

/** `0x1::coin::CoinStore<T>` at `owner`, if it holds one. */
const coinStore = (env: Env, owner: string, coin: TypeTag): Body | undefined => env.resource(owner, `0x1::coin::CoinStore<${typeTagToString(coin)}>`);

/** A field of `0x1::coin::CoinInfo<T>`, which lives at the address of the coin type's module. */
function coinInfo(env: Env, coin: TypeTag, field: string, type: TypeTag): Outcome {
  const info = typeof coin === 'object' && 'struct' in coin ? env.resource(coin.struct.address, `0x1::coin::CoinInfo<${typeTagToString(coin)}>`) : undefined;
  if (info === undefined) return abort('0x1::coin', 'ECOIN_INFO_NOT_PUBLISHED', 0x60003, `${typeTagToString(coin)} is not a coin: no CoinInfo is published for it`);
  const read = readMove(type, info[field]);
  return read.ok ? [read.value] : { abort: `the CoinInfo of ${typeTagToString(coin)} does not hold a ${typeTagToString(type)} ${field}: ${read.why}` };
}

const PUB = STUB_ACCOUNTS.publisher;

/** The view functions the stub runs, by canonical id. */
const FUNCTIONS: Readonly<Record<string, Run>> = {
  '0x1::account::exists_at': (env, [a]) => [V.bool(env.account(addressOf(a)) !== undefined)],
  '0x1::account::get_sequence_number': (env, [a]) => {
    const account = env.account(addressOf(a));
    return account === undefined ? abort('0x1::account', 'EACCOUNT_DOES_NOT_EXIST', 0x60002, `no account at ${addressOf(a)}`) : [V.u64(account.sequenceNumber)];
  },
  '0x1::account::get_authentication_key': (env, [a]) => {
    const account = env.account(addressOf(a));
    return account === undefined ? abort('0x1::account', 'EACCOUNT_DOES_NOT_EXIST', 0x60002, `no account at ${addressOf(a)}`) : [V.bytes(account.authenticationKey.slice(2))];
  },
  '0x1::coin::balance': (env, [a], [coin]) => {
    const value = (coinStore(env, addressOf(a), coin as TypeTag)?.coin as { value?: unknown } | undefined)?.value;
    const read = value === undefined ? undefined : readMove('u64', value);
    if (read === undefined) return abort('0x1::coin', 'ECOIN_STORE_NOT_PUBLISHED', 0x60005, `${addressOf(a)} has no CoinStore of ${typeTagToString(coin as TypeTag)}`);
    return read.ok ? [read.value] : { abort: `the CoinStore of ${addressOf(a)} holds no u64 value: ${read.why}` };
  },
  '0x1::coin::is_account_registered': (env, [a], [coin]) => [V.bool(coinStore(env, addressOf(a), coin as TypeTag) !== undefined)],
  '0x1::coin::decimals': (env, _args, [coin]) => coinInfo(env, coin as TypeTag, 'decimals', 'u8'),
  '0x1::coin::name': (env, _args, [coin]) => coinInfo(env, coin as TypeTag, 'name', st(STRING_TAG)),
  '0x1::coin::symbol': (env, _args, [coin]) => coinInfo(env, coin as TypeTag, 'symbol', st(STRING_TAG)),
  '0x1::coin::supply': (env, _args, [coin]) => coinInfo(env, coin as TypeTag, 'supply', st(optionTag('u128'))),
  '0x1::block::get_current_block_height': (env) => [V.u64(env.ledger.latest(env.call.now()))],
  '0x1::chain_id::get': (env) => [V.u8(env.chainId)],
  '0x1::chain_status::is_operating': () => [V.bool(true)],
  // The stub's clock as the chain reads it: whole microseconds.
  '0x1::timestamp::now_microseconds': (env) => [V.u64(Math.max(0, Math.floor(env.call.now() * 1000)) || 0)],
  '0x1::timestamp::now_seconds': (env) => [V.u64(Math.max(0, Math.floor(env.call.now() / 1000)) || 0)],
  [`${PUB}::counter::value`]: (env, [a]) => {
    const value = env.resource(addressOf(a), `${PUB}::counter::Counter`)?.value;
    const read = value === undefined ? undefined : readMove('u64', value);
    return read?.ok === true ? [read.value] : abort(`${PUB}::counter`, 'E_NO_COUNTER', 0x60001, `${addressOf(a)} has no Counter`);
  },
};

/** The ids of the view functions the stub runs, e.g. `0x1::coin::balance`. */
export const VIEW_FUNCTIONS: readonly string[] = Object.keys(FUNCTIONS);

const failed = (message: string): StubResponse => errorResponse(400, 'view_failed', message);

interface AbiFunction {
  is_view: boolean;
  generic_type_params: unknown[];
  params: string[];
}

export function viewReads(ctx: ViewContext) {
  const viewV3: ChainHandler = (call) => {
    const body = readJsonBody(call.req);
    if (!body.ok) return body.response;
    const { function: fn, type_arguments: typeArguments, arguments: args } = body.value;
    if (typeof fn !== 'string' || !Array.isArray(typeArguments) || !Array.isArray(args)) {
      return errorResponse(400, 'invalid_view_request', 'the body must be { "function": "<address>::<module>::<function>", "type_arguments": [...], "arguments": [...] }, all three given');
    }
    const id = FUNCTION_ID.exec(fn);
    if (id === null) return errorResponse(400, 'invalid_view_request', `function must be <address>::<module>::<function>, got '${fn.slice(0, 200)}'`);
    const [, , hex, module, name] = id as unknown as [string, string, string, string, string];
    const moduleAddress = canonicalAddress(hex) as string;
    const qualified = `${moduleAddress}::${module}::${name}`;

    const typeArgs: TypeTag[] = [];
    for (const t of typeArguments as unknown[]) {
      const parsed = typeof t === 'string' ? parseTypeTag(t) : undefined;
      if (parsed === undefined) return errorResponse(400, 'invalid_view_request', `type_arguments must be Move types, e.g. 0x1::supra_coin::SupraCoin; got ${typeof t === 'string' ? `'${t.slice(0, 200)}'` : typeof t}`);
      typeArgs.push(parsed);
    }

    // Resolved as a node resolves it: the published module, then the function its ABI declares.
    const published = ctx.account(moduleAddress)?.modules.find((m) => m.name === module);
    if (published === undefined) return failed(`LINKER_ERROR: ${qualified}: no module ${moduleAddress}::${module} is published`);
    const exposed = published.abi().exposed_functions as Record<string, AbiFunction>;
    const declared = Object.hasOwn(exposed, name) ? exposed[name] : undefined;
    if (declared === undefined) {
      return failed(`FUNCTION_RESOLUTION_FAILURE: ${qualified}: ${moduleAddress}::${module} has no function ${name}`);
    }
    if (!declared.is_view) return failed(`${qualified} is not a view function`);
    if (declared.generic_type_params.length !== typeArgs.length) {
      return failed(`NUMBER_OF_TYPE_ARGUMENTS_MISMATCH: ${qualified} takes ${declared.generic_type_params.length} type arguments, got ${typeArgs.length}`);
    }
    if (declared.params.length !== args.length) return failed(`NUMBER_OF_ARGUMENTS_MISMATCH: ${qualified} takes ${declared.params.length} arguments, got ${args.length}`);
    const run = Object.hasOwn(FUNCTIONS, qualified) ? FUNCTIONS[qualified] : undefined;
    if (run === undefined) return failed(`${qualified} is a view function this stub does not run (it runs ${VIEW_FUNCTIONS.join(', ')})`);
    const values: MoveVal[] = [];
    for (const [i, param] of declared.params.entries()) {
      const type = parseTypeTag(param);
      const read = type === undefined ? { ok: false as const, why: `this stub reads no ${param}` } : readMove(type, (args as unknown[])[i]);
      if (!read.ok) return failed(`INVALID_ARGUMENT: argument ${i} of ${qualified} (${param}): ${read.why}`);
      values.push(read.value);
    }

    const env: Env = {
      account: (a) => ctx.account(a),
      resource: (a, type) => ctx.account(a)?.resources.find((r) => r.type === type)?.data(),
      call,
      ledger: ctx.ledger,
      chainId: ctx.chainId,
    };
    const outcome = run(env, values, typeArgs);
    if (!Array.isArray(outcome)) return failed(outcome.abort);
    return jsonResponse(200, { result: outcome.map(toJson) });
  };

  return { viewV3 } satisfies Record<string, ChainHandler>;
}
