import { describe, expectTypeOf, test } from 'vitest';
import type { NodeClientOptions } from '@x/node-client';
import {
  assertAccountData,
  createResponseValidator,
  isMoveValue,
  validateCandle,
  validateSignedDecimalString,
  validateResponse,
  validateTransactionOutput,
  type AccountData,
  type Candle,
  type ErrorMessage,
  type Issue,
  type MoveModuleBytecode,
  type MoveValue,
  type TransactionV3,
  type OperationId,
  type SignedDecimalString,
  type TransactionOutput,
} from '@x/validators';

declare const input: unknown;

describe('types', () => {
  test('validateX gives the typed value or readonly issues', () => {
    const r = validateTransactionOutput(input, { strict: true });
    if (r.ok) expectTypeOf(r.value).toEqualTypeOf<TransactionOutput>();
    else expectTypeOf(r.issues).toEqualTypeOf<readonly Issue[]>();
    expectTypeOf<Issue>().toEqualTypeOf<{ readonly path: string; readonly message: string; readonly keyword: string }>();
    const c = validateCandle(input);
    if (c.ok) expectTypeOf(c.value).toEqualTypeOf<Candle>();
    const d = validateSignedDecimalString(input);
    if (d.ok) expectTypeOf(d.value).toEqualTypeOf<SignedDecimalString>();
    // @ts-expect-error unknown option
    validateCandle(input, { strictt: true });
  });

  test('isX and assertX narrow', () => {
    if (isMoveValue(input)) expectTypeOf(input).toEqualTypeOf<MoveValue>();
    const v: unknown = input;
    assertAccountData(v);
    expectTypeOf(v).toEqualTypeOf<AccountData>();
  });

  test('validateResponse types the body of a documented literal status', () => {
    const r = validateResponse('getAccountV1', 200, input);
    if (r.ok) expectTypeOf(r.value).toEqualTypeOf<AccountData | null>();
    const s = validateResponse('getAccountV2', 503, input);
    if (s.ok) expectTypeOf(s.value).toBeUnknown();
    const status: number = 200;
    const t = validateResponse('getAccountV2', status, input);
    if (t.ok) expectTypeOf(t.value).toBeUnknown();
    const any = validateResponse('someOperation' as string, 200, input);
    if (any.ok) expectTypeOf(any.value).toBeUnknown();
    expectTypeOf<'getHistory'>().toExtend<OperationId>();
    // v3: a bare array of the TransactionV3 union; an inline array of a named schema is that schema's array
    const page = validateResponse('listCoinTransactionsV3', 200, input);
    if (page.ok) expectTypeOf(page.value).toEqualTypeOf<TransactionV3[]>();
    const modules = validateResponse('listModulesV3', 200, input);
    if (modules.ok) expectTypeOf(modules.value).toEqualTypeOf<MoveModuleBytecode[]>();
    const pruned = validateResponse('listTransactionsV3', 410, input);
    if (pruned.ok) expectTypeOf(pruned.value).toEqualTypeOf<ErrorMessage>();
  });

  test('createResponseValidator fits the clients’ validator option', () => {
    expectTypeOf(createResponseValidator({ strict: true })).toExtend<NonNullable<NodeClientOptions['validator']>>();
  });
});
