import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createResponseValidator, validateResponse, type ResponseValidator } from '@x/validators';
import { routes } from '@x/common';
import { okBodies, transactionInfoV2 } from './fixtures.js';
import { issuesOf } from './helpers.js';

const operations = Object.keys(okBodies);

describe('validateResponse', () => {
  it('has a valid 200 body in the fixtures for every operation of the route table (the reads beyond accounts too)', () => {
    expect([...operations].sort()).toEqual(routes.map((r) => r.operationId).sort());
  });

  it.each(operations)('accepts a valid 200 body of %s in both profiles', (op) => {
    for (const strict of [false, true]) {
      expect(validateResponse(op, 200, okBodies[op], { strict })).toEqual({ ok: true, value: okBodies[op] });
    }
  });

  // The operations whose 200 schema is `anyOf [X, null]` (v1's account reads, a consensus block by height), read from the spec.
  const nodeSpec = parse(readFileSync(fileURLToPath(new URL('../../../specs/node-rpc.openapi.yaml', import.meta.url)), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; responses?: { '200'?: { content?: { 'application/json'?: { schema?: { anyOf?: { type?: unknown }[] } } } } } }>>;
  };
  const nullable = Object.values(nodeSpec.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => op.responses?.['200']?.content?.['application/json']?.schema?.anyOf?.some((s) => s.type === 'null'))
    .map((op) => op.operationId!);
  it.each(operations)('accepts null for %s only where the spec says anyOf [X, null]', (op) => {
    const result = validateResponse(op, 200, null, { strict: true });
    if (nullable.includes(op)) expect(result).toEqual({ ok: true, value: null });
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
    const issues = issuesOf(validateResponse('getAccountV4', 200, {}));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: '', keyword: 'operationId' });
    expect(issues[0]!.message).toMatch(/^unknown operation "getAccountV4"; known operations: getAccountV1, .*getAccountV3, .*getLatest$/);
    expect(issuesOf(validateResponse('toString', 200, {}))[0]!.keyword).toBe('operationId');
  });

  it('validates a v3 page: a bare array of transactions, each checked as the kind its txn_type names', () => {
    const page = okBodies.listCoinTransactionsV3 as Record<string, unknown>[];
    expect(validateResponse('listCoinTransactionsV3', 200, page, { strict: true })).toEqual({ ok: true, value: page });
    expect(issuesOf(validateResponse('listCoinTransactionsV3', 200, { record: page }))).toEqual([{ path: '', keyword: 'type', message: 'must be array' }]);
    const bad = [page[0], { ...page[2], txn_type: 'oracle' }, { ...page[1], hash: 7 }];
    expect(issuesOf(validateResponse('listTransactionsV3', 200, bad, { allErrors: true }))).toEqual([
      { path: '/1/txn_type', keyword: 'enum', message: 'must be one of "user", "automated", "block_metadata", "automation_record"' },
      { path: '/2/hash', keyword: 'type', message: 'must be string' },
    ]);
  });

  it('validates the v3 error bodies of 410 and 503 as ErrorMessage; other statuses accept any body', () => {
    for (const status of [410, 503]) {
      expect(validateResponse('listTransactionsV3', status, { message: 'pruned' }).ok).toBe(true);
      expect(issuesOf(validateResponse('listTransactionsV3', status, { error: 'pruned' }))).toEqual([
        { path: '/message', keyword: 'required', message: 'required property "message" is missing' },
      ]);
    }
    // the fungible-asset listing documents no 410: its default accepts any body
    expect(validateResponse('listFungibleAssetTransactionsV3', 410, 'gone').ok).toBe(true);
    expect(validateResponse('getModuleV3', 404, { message: 'no module' }).ok).toBe(true);
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
