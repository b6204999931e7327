/**
 * The validators under `Content-Security-Policy: script-src 'self'` (no eval, no `new Function`): the
 * standalone compiled code needs neither. Bodies come from the stub, cross-origin.
 */
import { describe, expect, inject, it } from 'vitest';
import { createNodeClient, ResponseValidationError } from '@x/node-client';
import { createResponseValidator, isMoveValue, validateResponse, validateTransactionOutput } from '@x/validators';
import { rejection } from './helpers.ts';

const nodeUrl = inject('nodeUrl');
const { alice, busy } = inject('accounts');

describe('validators under a CSP without unsafe-eval', () => {
  it('the CSP is in force', () => {
    expect(() => new Function('return 1')).toThrow(EvalError);
  });

  it('validateResponse accepts what the stub sends, strictly, and locates what is wrong', async () => {
    const body = (await (await fetch(`${nodeUrl}/rpc/v2/accounts/${busy}/transactions?count=100`)).json()) as { record: unknown[] };
    expect(validateResponse('listTransactionsV2', 200, body, { strict: true })).toEqual({ ok: true, value: body });
    const broken = structuredClone(body) as { record: Array<{ header: { sequence_number: unknown } }> };
    broken.record[3]!.header.sequence_number = '3';
    const result = validateResponse('listTransactionsV2', 200, broken, { strict: true });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0]).toMatchObject({ path: '/record/3/header/sequence_number', keyword: 'type' });
  });

  it('record validators and guards', () => {
    expect(validateTransactionOutput('Empty')).toMatchObject({ ok: true });
    const r = validateTransactionOutput({ Move: { gas_used: '7', events: [], vm_status: 'Executed' } });
    expect(!r.ok && r.issues[0]).toMatchObject({ path: '/Move/gas_used', keyword: 'type' });
    expect(isMoveValue({ U8: 1 })).toBeTypeOf('boolean');
  });

  it('a client with an injected validator checks every body', async () => {
    const strict = createResponseValidator({ strict: true });
    const node = createNodeClient({ baseUrl: nodeUrl, retry: false, validator: strict });
    expect((await node.v2.getAccount(alice)).sequence_number).toBeGreaterThan(0);
    // The same body checked against another operation's schema fails, with its issues.
    const wrong = createNodeClient({ baseUrl: nodeUrl, retry: false, validator: (_id, status, body) => strict('listTransactionsV2', status, body) });
    const err = await rejection(wrong.v2.getAccount(alice));
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err).toMatchObject({ name: 'ResponseValidationError', code: 'RESPONSE_VALIDATION_ERROR', operationId: 'getAccountV2' });
    expect((err as ResponseValidationError).issues.length).toBeGreaterThan(0);
  });
});
