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
