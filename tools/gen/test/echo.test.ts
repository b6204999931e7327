/**
 * `x-echo`: what an operation's answer repeats of its request, read by the generator into the operation's
 * table entry (`echo`), and the mistakes it refuses, naming the operation.
 */
import { describe, expect, it } from 'vitest';
import { operationTable } from '../src/emit-operations.ts';
import type { OpenApiDocument, Spec } from '../src/specs.ts';

const hash = { name: 'hash', in: 'path', required: true, schema: { type: 'string', pattern: '^(0x)?[0-9a-fA-F]{64}$' } };
const height = { name: 'height', in: 'path', required: true, schema: { type: 'integer', format: 'uint64', minimum: 0 } };
const name = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
const Block = { type: 'object', properties: { header: { type: 'object', properties: { height: { type: 'integer' }, hash: { type: 'string' } } } } };
// Every form of a transaction has a hash (a oneOf of allOfs, as TransactionV3).
const Transaction = {
  oneOf: [
    { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { kind: { const: 'a' } } }] },
    { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', properties: { kind: { const: 'b' } } }] },
  ],
};
const answer = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });

const spec = (op: Record<string, unknown>, params: unknown[], schema: unknown = Block): Spec => ({
  name: 'node-rpc',
  file: 'test.yaml',
  doc: {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/x/{p}': { get: { operationId: 'getX', parameters: params, responses: answer(schema), ...op } } },
    components: { schemas: { Base: { type: 'object', required: ['hash'], properties: { hash: { type: 'string' } } } } },
  } as unknown as OpenApiDocument,
});

describe('x-echo', () => {
  it('a u64 path parameter at a nested pointer: compared as a u64', () => {
    const table = operationTable(spec({ 'x-echo': { parameter: 'height', pointer: '/header/height' } }, [height]));
    expect(table.getX!.echo).toEqual({ parameter: 'height', pointer: ['header', 'height'], form: 'u64' });
  });

  it('a hex path parameter held by every form of a oneOf: compared as hex', () => {
    const table = operationTable(spec({ 'x-echo': { parameter: 'hash', pointer: '/hash' } }, [hash], Transaction));
    expect(table.getX!.echo).toEqual({ parameter: 'hash', pointer: ['hash'], form: 'hex' });
  });

  it('an operation without it has no echo', () => {
    expect('echo' in operationTable(spec({}, [height])).getX!).toBe(false);
  });

  it.each([
    ['a parameter it does not have', { parameter: 'nope', pointer: '/header/height' }, [height], 'x-echo.parameter: must name a u64 or hex path parameter'],
    ['a parameter neither u64 nor hex', { parameter: 'name', pointer: '/header/hash' }, [name], 'x-echo.parameter: must name a u64 or hex path parameter'],
    ['a pointer that is no JSON Pointer', { parameter: 'height', pointer: 'header/height' }, [height], 'x-echo.pointer: must be a JSON Pointer'],
    ['a pointer the answer does not have', { parameter: 'height', pointer: '/header/round' }, [height], 'x-echo.pointer: /header/round is not a property of every form of the 200 answer'],
    ['an unknown key', { parameter: 'height', pointer: '/header/height', compare: 'text' }, [height], "x-echo: unknown key 'compare'"],
  ])('refuses %s, naming the operation', (_name, echo, params, message) => {
    expect(() => operationTable(spec({ 'x-echo': echo }, params))).toThrow(`test.yaml: getX: ${message}`);
  });
});
