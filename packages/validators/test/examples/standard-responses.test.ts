import { expect, it } from 'vitest';
import { responses, standardResponse } from '@x/validators/standard';

it('has a schema for every documented response', () => {
  const Account = responses.getAccountV1['200']; // AccountData | null, as validateResponse checks it
  expect(Account['~standard'].validate(null)).toEqual({ value: null });
  expect(responses.getAccountV1.default['~standard'].validate('<html>busy</html>')).toEqual({ value: '<html>busy</html>' });

  // a status looked up as validateResponse does it: exact, then NXX, then default
  const Busy = standardResponse('getAccountV2', 503, { strict: true });
  expect(Busy['~standard'].validate({ message: 'busy' })).toEqual({ value: { message: 'busy' } });
});
