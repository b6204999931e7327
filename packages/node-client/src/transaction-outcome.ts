import type { TransactionOutput, TxExecutionStatus } from '@x/node-types';
import type { TransactionRecord } from './wallet.js';
import { isObject, shapeError, u64 } from './shape-read.js';

/**
 * The form of a transaction's output: `'Empty'`, or the one key of its object form (`'Move'`, `'Dkg'`,
 * `'Oracle'`). Read from `TransactionOutput`, so a form the node's contract gains (an EVM output) joins it.
 */
export type OutputKind = Extract<TransactionOutput, string> | (TransactionOutput extends infer O ? (O extends object ? keyof O & string : never) : never);

/** What became of a transaction, read by `transactionOutcome`. */
export interface TransactionOutcome {
  /**
   * Its execution status: `'Success'`, `'Fail'`, `'Invalid'`, `'Pending'` or `'PendingAfterExecution'`
   * (the record's `status`, else the one a DKG or oracle output holds); `undefined` where it has neither.
   */
  readonly status: TxExecutionStatus | undefined;
  /**
   * Whether it executed successfully: `status` is `'Success'` and, for an EVM output, its result is
   * `Success` (a `Revert`, `Halt` or `Error` is not).
   */
  readonly success: boolean;
  /** The form of its output; `undefined` while it has none (not executed yet, or `output: null`). */
  readonly output: OutputKind | undefined;
  /**
   * The VM's summary, where the output has one: Move's `'Executed successfully'` or why it aborted; an
   * EVM output's result form (`'Success'`, `'Revert'`, `'Halt'` or `'Error'`).
   */
  readonly vmStatus: string | undefined;
  /** The gas it used, where the output states it (Move, and EVM but for `Error`): as `gasUsed(tx)`. */
  readonly gasUsed: bigint | undefined;
}

/** An output's form, its content and where that content is (`/output/Move`, `/output/Evm/Revert`). */
interface Output {
  kind: OutputKind | undefined;
  body: unknown;
  at: string;
  /** An EVM output's result form: `Success`, `Revert`, `Halt` or `Error`. */
  evm?: string;
}

/** The result forms of an EVM output (`EvmTransactionOutput`), each holding what its execution ended in. */
const EVM_RESULTS = new Set(['Success', 'Revert', 'Halt', 'Error']);

/**
 * The output's form and its content: the value under its one key (for EVM, under its result form's key
 * too, where `gas_used` is), or nothing for `'Empty'` and none.
 */
function outputOf(tx: TransactionRecord, reader: string): Output {
  const read = formOf(tx, reader);
  const { kind, body } = read;
  if (kind !== 'Evm' || !isObject(body)) return read;
  const keys = Object.keys(body);
  const result = keys[0];
  // Read the served form only; any other object under Evm is read as the other forms are.
  if (keys.length !== 1 || result === undefined || !EVM_RESULTS.has(result)) return read;
  return { kind, body: body[result], at: `/output/Evm/${result}`, evm: result };
}

function formOf(tx: TransactionRecord, reader: string): Output {
  const output: unknown = (tx as { output?: unknown }).output;
  if (output === undefined || output === null) return { kind: undefined, body: undefined, at: '/output' };
  if (output === 'Empty') return { kind: 'Empty', body: undefined, at: '/output' };
  const keys = isObject(output) ? Object.keys(output) : [];
  // Any one-key form is read alike (its gas_used, vm_status or status), so a new form needs no new code.
  if (keys.length !== 1) throw shapeError(reader, '/output', '"Empty" or an object of one form ({ Move }, { Evm }, { Dkg }, { Oracle })', output);
  const kind = keys[0] as OutputKind;
  return { kind, body: (output as Record<string, unknown>)[kind], at: `/output/${kind}` };
}

/**
 * The gas a transaction used, from its output's `gas_used` (a Move output, or an EVM output's `Success`,
 * `Revert` or `Halt`: a safe integer or, as a u64, a decimal string), exactly; `undefined` for an output
 * that states none (`'Empty'`, DKG, oracle, an EVM `Error`) or no output yet. Any version and kind of transaction; multiply by the header's `gas_unit_price` for the fee.
 *
 * @example
 * ```ts
 * const tx = await node.v3.getTransaction(hash);
 * const used = gasUsed(tx);                            // 9n, or undefined
 * if (used !== undefined && 'header' in tx) console.log(used * BigInt(tx.header.gas_unit_price)); // the fee, in the smallest unit
 * ```
 */
export function gasUsed(tx: TransactionRecord): bigint | undefined {
  return gasOf(outputOf(tx, 'gasUsed'), 'gasUsed');
}

/** The `gas_used` of an output's content, exactly, where it has one. */
function gasOf({ body, at }: Output, reader: string): bigint | undefined {
  return isObject(body) && 'gas_used' in body ? u64(body.gas_used, reader, `${at}/gas_used`) : undefined;
}

/**
 * What became of a transaction, any version and kind: its status (and whether it succeeded), the form
 * of its output, the VM's summary and the gas used. A Move output, an EVM output and the status-only
 * forms (`Dkg`, `Oracle`) are read alike; an EVM output's result (`Success`, `Revert`, `Halt`, `Error`)
 * decides `success` with the status. `'Empty'` and no output state neither gas nor a summary.
 *
 * @example
 * ```ts
 * const { success, status, vmStatus, gasUsed } = transactionOutcome(await node.v3.getTransaction(hash));
 * if (!success) console.log(`${status}: ${vmStatus ?? 'no VM status'}`); // 'Fail: Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): ...'
 * ```
 */
export function transactionOutcome(tx: TransactionRecord): TransactionOutcome {
  const read = outputOf(tx, 'transactionOutcome');
  const { kind, body, at, evm } = read;
  const own: unknown = (tx as { status?: unknown }).status;
  if (own !== undefined && typeof own !== 'string') throw shapeError('transactionOutcome', '/status', 'a status string', own);
  const inner = typeof body === 'string' ? body : undefined;
  // An EVM output without a record status stands for one, as a DKG or oracle output's status does.
  const fromEvm = evm === undefined ? undefined : evm === 'Success' ? 'Success' : 'Fail';
  const status = (own ?? inner ?? fromEvm) as TxExecutionStatus | undefined;
  let vmStatus = evm;
  if (evm === undefined && isObject(body) && 'vm_status' in body) {
    if (typeof body.vm_status !== 'string') throw shapeError('transactionOutcome', `${at}/vm_status`, 'a string', body.vm_status);
    vmStatus = body.vm_status;
  }
  const success = status === 'Success' && (evm === undefined || evm === 'Success');
  return { status, success, output: kind, vmStatus, gasUsed: gasOf(read, 'transactionOutcome') };
}
