import { describe, expect, it } from 'vitest';
import { createResponseValidator, validateResponse, type ResponseValidator } from '@x/validators';
import { okBodies, transactionInfoV2 } from './fixtures.js';
import { issuesOf } from './helpers.js';

const operations = Object.keys(okBodies);

describe('validateResponse', () => {
  it.each(operations)('accepts a valid 200 body of %s in both profiles', (op) => {
    for (const strict of [false, true]) {
      expect(validateResponse(op, 200, okBodies[op], { strict })).toEqual({ ok: true, value: okBodies[op] });
    }
  });

  const v1Nullable = ['getAccountV1', 'getModuleV1', 'getResourceV1'];
  it.each(operations)('accepts null for %s only where the spec says anyOf [X, null]', (op) => {
    const result = validateResponse(op, 200, null, { strict: true });
    if (v1Nullable.includes(op)) expect(result).toEqual({ ok: true, value: null });
    else expect(issuesOf(result)[0]).toMatchObject({ path: '', keyword: 'type' });
  });

  it('reports the issue of the schema behind a nullable v1 answer', () => {
    expect(issuesOf(validateResponse('getAccountV1', 200, { sequence_number: -1, authentication_key: '0x1' }))).toEqual([
      { path: '/sequence_number', keyword: 'minimum', message: 'must be >= 0' },
    ]);
  });

  it('validates a v2 body, strict against unknown properties', () => {
    const body = { record: [{ ...transactionInfoV2, extra: true }] };
    expect(validateResponse('listTransactionsV2', 200, body).ok).toBe(true);
    expect(issuesOf(validateResponse('listTransactionsV2', 200, body, { strict: true }))).toEqual([
      { path: '/record/0/extra', keyword: 'additionalProperties', message: 'unknown property "extra" is not allowed' },
    ]);
    expect(issuesOf(validateResponse('listTransactionsV2', 200, { record: [{ ...transactionInfoV2, output: 1 }] }))[0]).toMatchObject({
      path: '/record/0/output',
      keyword: 'type',
    });
  });

  it.each([
    ['getAccountV2', 500, { error: 'boom' }],
    ['listTransactionsV1', 404, 'not found'],
    ['getHistory', 400, { message: 'bad request' }],
    ['getLatest', 500, null],
    ['getHistory', 404, 'x'],
  ])('accepts any body of %s %i (schema {} or default)', (op, status, body) => {
    expect(validateResponse(op, status, body, { strict: true })).toEqual({ ok: true, value: body });
  });

  it('reports an undocumented status with keyword status', () => {
    expect(issuesOf(validateResponse('getHistory', 302, {}))).toEqual([
      { path: '', keyword: 'status', message: 'status 302 is not documented for getHistory (documented: 200, 400, 404, 500)' },
    ]);
    expect(issuesOf(validateResponse('getLatest', 200.5, {}))[0]!.keyword).toBe('status');
  });

  it('reports an unknown operation with keyword operationId, without throwing', () => {
    const issues = issuesOf(validateResponse('getAccountV3', 200, {}));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: '', keyword: 'operationId' });
    expect(issues[0]!.message).toMatch(/^unknown operation "getAccountV3"; known operations: getAccountV1, .*getLatest$/);
    expect(issuesOf(validateResponse('toString', 200, {}))[0]!.keyword).toBe('operationId');
  });

  it('collects every issue with allErrors', () => {
    const body = { record: [{ ...transactionInfoV2, hash: 5, status: 'Done' }], cursor: -1 };
    const issues = issuesOf(validateResponse('listCoinTransactionsV2', 200, body, { allErrors: true }));
    expect(issues.map((i) => `${i.path} ${i.keyword}`)).toEqual(['/record/0/hash type', '/record/0/status enum', '/cursor minimum']);
  });
});

describe('createResponseValidator', () => {
  it('returns the function the clients inject: { ok: true } or { ok: false, issues }', () => {
    const validator: ResponseValidator = createResponseValidator({ strict: true });
    expect(validator('getAccountV2', 200, okBodies.getAccountV2)).toEqual({ ok: true });
    expect(validator('getAccountV1', 200, null)).toEqual({ ok: true });
    expect(validator('getAccountV2', 200, { ...(okBodies.getAccountV2 as object), x: 1 })).toEqual({
      ok: false,
      issues: [{ path: '/x', keyword: 'additionalProperties', message: 'unknown property "x" is not allowed' }],
    });
    expect(createResponseValidator()('getAccountV2', 200, { ...(okBodies.getAccountV2 as object), x: 1 })).toEqual({ ok: true });
    expect(validator('nope', 200, {})).toMatchObject({ ok: false, issues: [{ keyword: 'operationId' }] });
  });

  it('rejects a bad maxIssues when created', () => {
    expect(() => createResponseValidator({ allErrors: true, maxIssues: 0 })).toThrow(RangeError);
  });
});
