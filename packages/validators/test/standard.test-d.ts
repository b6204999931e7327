import type { StandardJSONSchemaV1 as SpecJSONSchemaV1, StandardSchemaV1 as SpecSchemaV1 } from '@standard-schema/spec';
import { sValidator } from '@hono/standard-validator';
import { Hono } from 'hono';
import { describe, expectTypeOf, test } from 'vitest';
import type { AccountData as AccountDataType, Candle, MoveValue, TransactionOutput as TransactionOutputType } from '../src/index.ts';
import {
  AccountData,
  type MoveValue as MoveValueSchema,
  type TransactionOutput,
  type responses,
  standardResponse,
  standardSchema,
  type SchemaName,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
  type StandardValidator,
} from '../src/standard.ts';

describe('@x/validators/standard types', () => {
  test('InferOutput of a schema is the generated type (the spec package’s helpers and the copied ones)', () => {
    expectTypeOf<SpecSchemaV1.InferOutput<typeof AccountData>>().toEqualTypeOf<AccountDataType>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof AccountData>>().toEqualTypeOf<AccountDataType>();
    expectTypeOf<SpecSchemaV1.InferInput<typeof AccountData>>().toEqualTypeOf<AccountDataType>();
    expectTypeOf<SpecJSONSchemaV1.InferOutput<typeof TransactionOutput>>().toEqualTypeOf<TransactionOutputType>();
    expectTypeOf<SpecSchemaV1.InferOutput<typeof MoveValueSchema>>().toEqualTypeOf<MoveValue>();
  });

  test('the value export has a type of the same name', () => {
    expectTypeOf<AccountData>().toEqualTypeOf<AccountDataType>();
    expectTypeOf<TransactionOutput>().toEqualTypeOf<TransactionOutputType>();
  });

  test('each schema is a Standard Schema and a Standard JSON Schema of @standard-schema/spec', () => {
    expectTypeOf(AccountData).toExtend<SpecSchemaV1<AccountDataType, AccountDataType>>();
    expectTypeOf(AccountData).toExtend<SpecJSONSchemaV1<AccountDataType, AccountDataType>>();
    expectTypeOf(AccountData).toExtend<SpecSchemaV1<unknown, AccountDataType>>();
    // the copied interfaces are the spec's, structurally
    expectTypeOf<StandardSchemaV1<string, number>>().toEqualTypeOf<SpecSchemaV1<string, number>>();
    expectTypeOf<StandardJSONSchemaV1<string, number>>().toEqualTypeOf<SpecJSONSchemaV1<string, number>>();
    const result = AccountData['~standard'].validate({});
    if (!(result instanceof Promise) && !result.issues) expectTypeOf(result.value).toEqualTypeOf<AccountDataType>();
  });

  test('standardSchema and the responses are typed by name, operation and status', () => {
    expectTypeOf(standardSchema('Candle', { strict: true })).toEqualTypeOf<StandardValidator<Candle>>();
    expectTypeOf<'AccountData'>().toExtend<SchemaName>();
    // @ts-expect-error not a schema name
    standardSchema('AccountDatum');
    // @ts-expect-error unknown option
    standardSchema('AccountData', { strictt: true });
    expectTypeOf<SpecSchemaV1.InferOutput<typeof responses.getAccountV1['200']>>().toEqualTypeOf<AccountDataType | null>();
    expectTypeOf<SpecSchemaV1.InferOutput<typeof responses.getAccountV2.default>>().toBeUnknown();
    expectTypeOf<SpecSchemaV1.InferOutput<ReturnType<typeof standardResponse<'getAccountV1', 200>>>>().toEqualTypeOf<AccountDataType | null>();
    expectTypeOf(standardResponse('getAccountV2', 200)).toEqualTypeOf<StandardValidator<AccountDataType>>();
    expectTypeOf(standardResponse('getAccountV2', 503)).toEqualTypeOf<StandardValidator<unknown>>();
    expectTypeOf(standardResponse('getAccountV2', 'default')).toEqualTypeOf<StandardValidator<unknown>>();
    // @ts-expect-error not a status key of getHistory
    standardResponse('getHistory', '2XX');
  });

  test('a consumer types its data by the schema: Hono’s sValidator', () => {
    new Hono().post('/accounts', sValidator('json', AccountData), (c) => {
      expectTypeOf(c.req.valid('json')).toEqualTypeOf<AccountDataType>();
      return c.json({});
    });
  });
});
