/**
 * EVM transactions (issue 47): the `{ Evm }` form of a transaction's output, with the four result forms
 * of the node's `EvmTransactionOutput`, in the validators, the response validators and the Standard
 * Schemas, in both profiles; an error inside the EVM form is reported at its own path, as the Move
 * form's are.
 */
import { describe, expect, it } from 'vitest';
import { validateResponse, validateTransactionInfoV2, validateTransactionOutput, type ValidateOptions } from '../src/index.ts';
import { TransactionInfoV2 } from '../src/standard.ts';
import { transactionInfoV2, userTransactionV3 } from './fixtures.js';
import { issuesOf } from './helpers.js';
import { liveTransactionV3 } from './live-bodies.ts';

const PROFILES: ValidateOptions[] = [{ profile: 'documented' }, { profile: 'live' }, { profile: 'documented', strict: true }, { profile: 'live', strict: true, allErrors: true }];

const evmSuccess = {
  Success: {
    reason: 'Stop',
    gas_used: 21_000,
    gas_refunded: 0,
    logs: [{ address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', topics: [], data: '0x' }],
    output: { Call: '0x' },
    transfers: [{ kind: 'call', from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', value: '1000' }],
  },
};
const outputs: [string, unknown][] = [
  ['Success', evmSuccess],
  ['Success without transfers', { Success: { reason: 'Return', gas_used: 21_000, gas_refunded: 0, logs: [], output: null } }],
  ['Revert', { Revert: { gas_used: 23_512, output: '0x08c379a0' } }],
  ['Halt', { Halt: { reason: 'OutOfGas', gas_used: 500_000 } }],
  ['Error', { Error: { message: 'nonce too low' } }],
];
const evmTx = (output: unknown) => ({ ...transactionInfoV2, output: { Evm: output }, status: 'Success' });

describe.each(PROFILES)('an EVM transaction (%o)', (options) => {
  it.each(outputs)('%s: accepted as an output, a v2 transaction, and in the v2 and v3 listings', (_, output) => {
    expect(validateTransactionOutput({ Evm: output }, options).ok).toBe(true);
    expect(validateTransactionInfoV2(evmTx(output), options).ok).toBe(true);
    expect(validateResponse('listTransactionsV2', 200, { record: [transactionInfoV2, evmTx(output)] }, options).ok).toBe(true);
    const v3 = options.profile === 'live' ? { ...liveTransactionV3, output: { Evm: output } } : { ...userTransactionV3, output: { Evm: output } };
    expect(validateResponse('listTransactionsV3', 200, [v3], options).ok).toBe(true);
  });

  it('an error inside the EVM form is reported at its path, not as "matches no form"', () => {
    const bad = { record: [transactionInfoV2, evmTx({ Revert: { gas_used: 'lots', output: '0x' } })] };
    const issues = issuesOf(validateResponse('listTransactionsV2', 200, bad, options));
    expect(issues.map((i) => i.path)).toContain('/record/1/output/Evm/Revert/gas_used');
    const missing = issuesOf(validateTransactionInfoV2(evmTx({ Success: { ...evmSuccess.Success, gas_used: undefined } }), options));
    expect(missing).toEqual([expect.objectContaining({ path: '/output/Evm/Success/gas_used', keyword: 'required' })]);
    const kind = issuesOf(validateTransactionOutput({ Evm: { Success: { ...evmSuccess.Success, transfers: [{ ...evmSuccess.Success.transfers[0], kind: 'jump' }] } } }, options));
    expect(kind).toEqual([expect.objectContaining({ path: '/Evm/Success/transfers/0/kind', keyword: 'enum' })]);
  });

  it('an EVM output of no known result form, or of two, is rejected at /output/Evm; one form is not', () => {
    expect(validateTransactionInfoV2(evmTx({ Revert: { gas_used: 1, output: '0x' } }), options).ok).toBe(true);
    for (const output of [{ Stopped: { gas_used: 1 } }, { Revert: { gas_used: 1, output: '0x' }, Halt: { reason: 'x', gas_used: 1 } }, 'Success']) {
      const issues = issuesOf(validateTransactionInfoV2(evmTx(output), options));
      expect(issues.every((i) => i.path.startsWith('/output/Evm')), JSON.stringify(issues)).toBe(true);
    }
  });
});

describe('the Standard Schema', () => {
  it('TransactionInfoV2 of @x/validators/standard accepts an EVM transaction and keys an EVM error by its path', async () => {
    expect(await TransactionInfoV2['~standard'].validate(evmTx(evmSuccess))).toEqual({ value: evmTx(evmSuccess) });
    const result = await TransactionInfoV2['~standard'].validate(evmTx({ Halt: { reason: 'OutOfGas', gas_used: -1 } }));
    expect('issues' in result && result.issues?.map((i) => i.path)).toEqual([['output', 'Evm', 'Halt', 'gas_used']]);
  });
});
