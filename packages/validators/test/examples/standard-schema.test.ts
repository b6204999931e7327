import { expect, it } from 'vitest';
import { AccountData, TransactionOutput, standardSchema } from '@x/validators/standard';

it('validates as validateX does, with the path as keys', () => {
  const result = TransactionOutput['~standard'].validate({ Move: { gas_used: '7', events: [], vm_status: 'Executed' } });
  expect(result).toEqual({ issues: [{ message: 'must be integer', path: ['Move', 'gas_used'] }] });

  const account = { sequence_number: 7, authentication_key: '0x1' };
  expect(AccountData['~standard'].validate(account)).toEqual({ value: account });
  expect(account).toEqual(expect.schemaMatching(AccountData)); // vitest 4
});

it('takes the options of validateX for the other readings', () => {
  const extra = { sequence_number: 7, authentication_key: '0x1', nickname: 'al' };
  expect(AccountData['~standard'].validate(extra)).toEqual({ value: extra }); // documented, lenient
  const Strict = standardSchema('AccountData', { strict: true });
  expect(Strict['~standard'].validate(extra)).toEqual({
    issues: [{ message: 'unknown property "nickname" is not allowed', path: ['nickname'] }],
  });
  // what real nodes send too (the live overlay), every issue instead of the first
  const LivePage = standardSchema('AccountStatementV1', { profile: 'live', allErrors: true });
  expect(LivePage['~standard'].validate({ record: [1, 2] })).toEqual({
    issues: [
      { message: 'must be object', path: ['record', 0] },
      { message: 'must be object', path: ['record', 1] },
    ],
  });
});
