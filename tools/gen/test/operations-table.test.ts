/**
 * The operation table of a service (in @x/common, which the clients ship and the route and paging tables
 * are read from), from specs a reviewer found gaps with: path-level parameters, header and cookie
 * parameters, and an operation present in one version only.
 */
import { describe, expect, it } from 'vitest';
import { emitService, operationTable } from '../src/emit-operations.ts';
import type { OpenApiDocument, Spec } from '../src/specs.ts';

const address = { name: 'address', in: 'path', required: true, schema: { type: 'string', pattern: '^0x[0-9a-f]+$' } };
const count = { name: 'count', in: 'query', schema: { type: 'integer', maximum: 100 } };
const ok = { '200': { description: 'ok' } };

const spec = (paths: Record<string, unknown>): Spec => ({
  name: 'node-rpc',
  file: 'test.yaml',
  doc: { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas: {} } } as unknown as OpenApiDocument,
});

describe('operationTable', () => {
  it('applies path-level parameters to each operation, and emits no entry for the `parameters` key', () => {
    const table = operationTable(
      spec({
        '/a/{address}': {
          parameters: [address, count],
          summary: 'not an operation either',
          get: { operationId: 'getA', responses: ok },
          head: { operationId: 'headA', responses: ok, parameters: [{ ...count, schema: { type: 'integer', maximum: 10 } }] },
        },
      }),
    );
    expect(Object.keys(table)).toEqual(['getA', 'headA']);
    expect(table.getA!.params.map((p) => `${p.in}:${p.name}`)).toEqual(['path:address', 'query:count']);
    // The operation's own parameter of the same name and location wins.
    expect(table.headA!.params.find((p) => p.name === 'count')!.schema).toEqual({ type: 'integer', maximum: 10 });
    expect(table.headA!.method).toBe('HEAD');
  });

  it('the emitted table carries no bogus entry for path-level keys either', () => {
    const source = emitService(spec({ '/a': { parameters: [count], get: { operationId: 'getA', responses: ok } } }));
    expect(source).toContain('export const getA = {');
    expect(source).toMatch(/export const nodeRpcOperations: \{\n {2}readonly getA: typeof getA;\n\} = \{ getA \};/);
    expect(source).not.toContain('undefined');
    expect(source).not.toContain('PARAMETERS');
    expect(source).not.toMatch(/export const parameters\b/);
  });

  it("writes each distinct check once, from its schema's form, and an entry's parameter names it instead of restating its pattern", () => {
    const source = emitService(
      spec({
        '/a/{address}': {
          post: {
            operationId: 'postA',
            responses: ok,
            parameters: [
              { ...address, description: 'An account address.' },
              count,
              { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } },
              { name: 'flag', in: 'query', schema: { type: 'boolean' } },
              { name: 'height', in: 'query', required: true, schema: { type: 'integer', format: 'uint64' } },
            ],
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['types'],
                    properties: { types: { type: 'array', items: { type: 'string', pattern: '^u(8|64)$' } }, items: { type: 'array', items: { type: 'object' } }, value: {} },
                  },
                },
              },
            },
          },
          get: { operationId: 'getA', responses: ok, parameters: [{ ...address, description: 'An account address.' }] },
        },
      }),
    );
    expect(source).toContain("import { boolean, integer, list, oneOf, text, u64, type ParamCheck } from '../param-checks.js';");
    expect(source).toContain('const checkAddress: ParamCheck = (v, n, b) => text(v, n, b, 1, /^0x[0-9a-f]+$/u, "expected an account address");');
    expect(source).toContain('const checkCount: ParamCheck = (v, n, b) => integer(v, n, b, 0, -Infinity, 100);');
    expect(source).toContain('const checkOrder: ParamCheck = (v, n, b) => oneOf(v, n, b, 0, ["asc","desc"]);');
    expect(source).toContain('const checkFlag: ParamCheck = (v, n, b) => boolean(v, n, b, 0);');
    expect(source).toContain('const checkHeight: ParamCheck = (v, n, b) => u64(v, n, b, 1);');
    expect(source).toContain('const checkTypes: ParamCheck = (v, n, b) => list(v, n, b, 1, (v, n, b) => text(v, n, b, 1, /^u(8|64)$/u));');
    // An array of objects is checked as an array only; a field of any JSON value has no check.
    expect(source).toContain('const checkItems: ParamCheck = (v, n, b) => list(v, n, b, 0);');
    expect(source.match(/"check": checkAddress/g)).toHaveLength(2);
    expect(source).not.toContain('checkAddress2');
    expect(source).not.toContain('"pattern"');
    expect(source).not.toContain('"description"');
    expect(source).not.toContain('checkValue');
  });

  it('marks a deprecated operation in its entry, and only that one', () => {
    const table = operationTable(spec({ '/a': { get: { operationId: 'getA', deprecated: true, responses: ok }, post: { operationId: 'postA', responses: ok } } }));
    expect(table.getA!.deprecated).toBe(true);
    expect('deprecated' in table.postA!).toBe(false);
  });

  it.each(['header', 'cookie'])('fails loudly on a %s parameter, naming the operation and the parameter', (where) => {
    const bad = spec({ '/a': { get: { operationId: 'getA', responses: ok, parameters: [{ name: 'x-trace', in: where, schema: { type: 'string' } }] } } });
    expect(() => operationTable(bad)).toThrow(`getA: ${where} parameter 'x-trace' is not supported`);
  });

  it('fails loudly on a path-level header parameter too', () => {
    const bad = spec({ '/a': { parameters: [{ name: 'x-trace', in: 'header', schema: { type: 'string' } }], get: { operationId: 'getA', responses: ok } } });
    expect(() => operationTable(bad)).toThrow("getA: header parameter 'x-trace' is not supported");
  });
});
