/**
 * The paging reader on its own, over the rules the generator emits for the node spec: what a page
 * yields, where the next start comes from, what ends a walk, and the error that names a malformed page.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ResponseShapeError } from '@x/client-core';
import { advances, readPage, startParam } from '@x/client-core/internal';
import { paging, type PagingRule } from '@x/common';

const tx = (seq: number): unknown => ({ header: { sequence_number: seq } });
type Id = keyof typeof paging;

describe('readPage', () => {
  const cases: [label: string, id: Id, body: unknown, count: number | undefined, next: bigint | string | undefined, items: number][] = [
    ['a full transactions page: after the last sequence number', 'listTransactionsV2', { record: [tx(4), tx(5)] }, 2, 6n, 2],
    ['a short transactions page ends the walk', 'listTransactionsV1', { record: [tx(4)] }, 2, undefined, 1],
    ['an empty transactions page ends the walk', 'listTransactionsV2', { record: [] }, 2, undefined, 0],
    ['a coin page: its cursor', 'listCoinTransactionsV2', { record: [tx(1)], cursor: 99 }, 20, 99n, 1],
    ['a zero coin cursor ends the walk', 'listCoinTransactionsV1', { record: [tx(1)], cursor: 0 }, 20, undefined, 1],
    ['a null coin cursor ends the walk', 'listCoinTransactionsV2', { record: [tx(1)], cursor: null }, 20, undefined, 1],
    ['v1 cursor bytes go back as lowercase hex', 'listModulesV1', { Modules: { modules: [['a', {}]], cursor: [0, 171, 255] } }, 20, '00abff', 1],
    ['a v1 cursor in hex (live) goes back as it came', 'listResourcesV1', { Resources: { resource: [['a', {}]], cursor: '00abff' } }, 20, '00abff', 1],
    ['an empty v1 cursor ends the walk', 'listModulesV1', { Modules: { modules: [['a', {}]], cursor: [] } }, 20, undefined, 1],
    ['a null v1 body ends the walk', 'listResourcesV1', null, 20, undefined, 0],
    ['a v2 cursor goes back as given', 'listModulesV2', { modules: [{}], cursor: 'Ab01' }, 20, 'Ab01', 1],
    ['an empty v2 cursor ends the walk', 'listResourcesV2', { resources: [{}], cursor: '' }, 20, undefined, 1],
  ];
  it.each(cases)('%s', (_label, id, body, count, next, items) => {
    const page = readPage(id, paging[id] as PagingRule, body, count);
    expect(page.next).toEqual(next);
    expect(page.items).toHaveLength(items);
  });

  const malformed: [label: string, id: Id, body: unknown, path: string, expected: string][] = [
    ['not an object', 'listTransactionsV2', [], '', 'an object'],
    ['items not an array', 'listTransactionsV2', { record: {} }, '/record', 'an array'],
    ['the last item without a sequence number', 'listTransactionsV2', { record: [tx(1), {}] }, '/record/1/header/sequence_number', 'a u64'],
    ['a coin cursor that is text', 'listCoinTransactionsV2', { record: [], cursor: '9' }, '/cursor', 'a u64 or null'],
    ['a v1 body of the other kind', 'listModulesV1', { Resources: { resource: [] } }, '/Modules', 'an object'],
    ['a v1 cursor of non-bytes', 'listModulesV1', { Modules: { modules: [], cursor: [256] } }, '/Modules/cursor', 'an array of u8 or a hex string or null'],
    ['a null v2 resources cursor (always given)', 'listResourcesV2', { resources: [{}], cursor: null }, '/cursor', 'a string'],
  ];
  it.each(malformed)('%s: ResponseShapeError naming where', (_label, id, body, path, expected) => {
    const err = (() => {
      try {
        readPage(id, paging[id] as PagingRule, body, 2);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: id, path });
    expect((err as Error).message).toContain(`expected ${expected}`);
  });
});

describe('advances', () => {
  it('ends on a repeated cursor, and on a u64 that does not grow', () => {
    expect(advances(paging.listModulesV2 as PagingRule, 'aa', 'bb', new Set(['aa']))).toBe(false);
    expect(advances(paging.listModulesV2 as PagingRule, 'cc', 'bb', new Set(['aa', 'bb']))).toBe(true);
    expect(advances(paging.listCoinTransactionsV2 as PagingRule, 5n, 7n, new Set([7n]))).toBe(false);
    expect(advances(paging.listCoinTransactionsV2 as PagingRule, 8n, 7n, new Set([7n]))).toBe(true);
  });
});

describe('startParam', () => {
  it('sends a v1 byte cursor as lowercase hex, and leaves other starts to the parameter check', () => {
    expect(startParam(paging.listModulesV1 as PagingRule, [0, 171, 255])).toBe('00abff');
    expect(startParam(paging.listModulesV2 as PagingRule, [1])).toEqual([1]);
    expect(startParam(paging.listTransactionsV2 as PagingRule, 5)).toBe(5);
  });
  it('refuses an array that is not bytes: InvalidArgumentError naming start', () => {
    const err = (() => {
      try {
        startParam(paging.listResourcesV1 as PagingRule, [1, 300]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'start' });
  });
});
