/**
 * `moveValueJson` reads a table item (a one-key MoveValue) as `view` answers the same value: every form of
 * the spec's MoveValue, on a table item the fake node serves, and a ResponseShapeError for what is no form.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, ResponseShapeError, type MoveValue } from '@x/node-client';
import { moveValueJson } from '@x/node-client/shapes';
import { STUB_ACCOUNTS } from '@x/testing';
import { useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();

describe('moveValueJson', () => {
  it.each([
    [{ U8: 7 }, 7],
    [{ U16: 700 }, 700],
    [{ U32: 70_000 }, 70_000],
    [{ U64: '18446744073709551615' }, '18446744073709551615'],
    [{ U128: '1' }, '1'],
    [{ U256: '2' }, '2'],
    [{ Bool: false }, false],
    [{ Address: '0x1' }, '0x1'],
    [{ Bytes: '0x00ff' }, '0x00ff'],
    [{ String: 'alice' }, 'alice'],
    [{ Vector: ['1', '2'] }, ['1', '2']],
    [{ Struct: { value: '5', frozen: false } }, { value: '5', frozen: false }],
  ] as [MoveValue, unknown][])('%j reads as view answers it', (value, plain) => {
    expect(moveValueJson(value)).toEqual(plain);
  });

  it.each([
    ['no key', {}],
    ['two keys', { U8: 1, U16: 1 }],
    ['an unknown form', { U7: 1 }],
    ['a form holding the wrong kind', { U64: 5 }],
    ['a struct that is an array', { Struct: [] }],
    ['not an object', '5'],
    ['null', null],
    ['an inherited key', Object.create({ U8: 1 }) as object],
  ])('%s: ResponseShapeError naming moveValueJson', (_, value) => {
    let caught: unknown;
    try {
      moveValueJson(value as MoveValue);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ResponseShapeError);
    expect(caught).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: 'moveValueJson', path: '' });
  });

  it("reads a table item of the fake node as a string, as the view of the same name would answer it", async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    const registry = await node.v3.getResource(STUB_ACCOUNTS.publisher, `${STUB_ACCOUNTS.publisher}::registry::Registry<0x1::string::String>`);
    const { handle } = (registry.data as { names: { handle: string } }).names;
    const item = await node.v3.getTableItem(handle, { key_type: 'address', value_type: '0x1::string::String', key: STUB_ACCOUNTS.alice });
    expect(item).toEqual({ String: 'alice' });
    const name: string = moveValueJson<string>(item);
    expect(name).toBe('alice');
  });
});
